/**
 * @module What the stand-in answers on each point the interface leaves open: PRODUCT.md's
 * decisions, read from the spec where the spec states them. The stand-in-level checks compare
 * the target with this; at the interface level a difference is reported, not failed.
 */
import type { LoadedSpec } from '../spec/load-spec.ts';
import { readingOfSpec, type Reading } from './reading.ts';

export interface StandIn {
  /** The name of the absolute level and the type of product_id. */
  readonly reading: Reading;
  /** The bearer realm of the 401 challenge. */
  readonly realm: string;
}

/** PRODUCT.md's decisions, in the reading the spec describes. */
export function standInOf(spec: LoadedSpec): StandIn {
  return { reading: readingOfSpec(spec), realm: 'stockmock' };
}
