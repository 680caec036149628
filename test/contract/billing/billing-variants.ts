/** @module Every billing variant: the first rounds' (billing-servers.ts) and round 7's. */
import { BILLING_ROUND7 } from './billing-round7.ts';
import { EARLIER_BILLING_VARIANTS, type BillingServer } from './billing-servers.ts';

export const BILLING_VARIANTS: readonly BillingServer[] = [
  ...EARLIER_BILLING_VARIANTS,
  ...BILLING_ROUND7,
];
