/** @module "Did you mean": the known name that a name is a likely typo of. */

/** A field name as people write one: letters first, short. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** The known member that `key` is at most two edits from (a typo), if any. */
export function typoOf(key: string, known: readonly string[]): string | undefined {
  if (!FIELD_NAME.test(key)) return undefined;
  return known.find((name) => editDistance(key, name) <= 2);
}

/** Optimal string alignment distance: insertions, deletions, substitutions, swaps of two. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
