/** @module A filtered list that knows its size and gives out slices, without being built whole. */

/**
 * The result of a filter: its total, and any slice of it, as positions in the catalogue (which
 * is in id order). Callers read what they need at each position: a stock view never makes a
 * product's extra fields.
 */
export interface Selection {
  readonly total: number;
  slice(start: number, end: number): readonly number[];
}

/** The given positions, or all of the catalogue's `size`. */
export function selectionAt(size: number, positions?: ArrayLike<number>): Selection {
  const total = positions === undefined ? size : positions.length;
  return {
    total,
    slice(start, end) {
      const page: number[] = [];
      const stop = Math.min(end, total);
      for (let i = start; i < stop; i++) {
        page.push(positions === undefined ? i : (positions[i] as number));
      }
      return page;
    },
  };
}
