/** @module Every billing variant: the first rounds' (billing-servers.ts), round 7's and 8's. */
import { BILLING_ROUND7 } from './billing-round7.ts';
import { BILLING_ROUND8 } from './billing-round8.ts';
import { EARLIER_BILLING_VARIANTS, type BillingServer } from './billing-servers.ts';

export const BILLING_VARIANTS: readonly BillingServer[] = [
  ...EARLIER_BILLING_VARIANTS,
  ...BILLING_ROUND7,
  ...BILLING_ROUND8,
];
