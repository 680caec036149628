/** @module A seeded shuffle, for the benchmarks' picks: the same random sequence, the same order. */

/** A shuffled copy of `items` (Fisher–Yates), its draws taken from `random`, in [0, 1). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
