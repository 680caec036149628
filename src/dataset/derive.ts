/** @module Values that follow from another field, as a collection declares them. */
import type { Derivation } from '../resources/declarations.ts';

/**
 * The derived value of a record that gives none itself. `stock-level`: a number above zero gives
 * `positive`, zero (or below) gives `zero`, and no number (null or absent) gives `unknown`.
 */
export function deriveValue(derivation: Derivation, from: unknown): string {
  if (typeof from !== 'number') return derivation.unknown;
  return from > 0 ? derivation.positive : derivation.zero;
}
