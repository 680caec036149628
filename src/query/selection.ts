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

/** The given positions. */
export function selectionOf(positions: ArrayLike<number>): Selection {
  return {
    total: positions.length,
    slice(start, end) {
      const page: number[] = [];
      const stop = Math.min(end, positions.length);
      for (let i = start; i < stop; i++) page.push(positions[i] as number);
      return page;
    },
  };
}

/** Every position of a catalogue of `size` products: the unfiltered list. */
export function everyPosition(size: number): Selection {
  return {
    total: size,
    slice(start, end) {
      const page: number[] = [];
      const stop = Math.min(end, size);
      for (let i = start; i < stop; i++) page.push(i);
      return page;
    },
  };
}
