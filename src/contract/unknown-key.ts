/** @module A key that no record has, for the 404 probes. */

/**
 * One above the largest key (1 where there is none). A loop, not `Math.max(...keys)`: a
 * catalogue of a million products overflows the stack as a million arguments.
 */
export function keyAboveAll(keys: readonly number[]): number {
  let largest = 0;
  for (const key of keys) if (key > largest) largest = key;
  return largest + 1;
}
