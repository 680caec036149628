/** @module A filtered list that knows its size and gives out slices, without being built whole. */

/** A list that knows its size and gives out slices, without being built whole. */
export interface Slices<T> {
  readonly total: number;
  slice(start: number, end: number): readonly T[];
}

/**
 * The result of a filter: its total, and any slice of it, as positions in the catalogue (which
 * is in id order). Callers read what they need at each position: a stock view never makes a
 * product's extra fields.
 */
export type Selection = Slices<number>;

/** The given items (positions, for a Selection). */
export function slicesOf<T>(items: ArrayLike<T>): Slices<T> {
  return {
    total: items.length,
    slice(start, end) {
      const page: T[] = [];
      const stop = Math.min(end, items.length);
      for (let i = start; i < stop; i++) page.push(items[i] as T);
      return page;
    },
  };
}

/** Every position of a catalogue of `size` products: the unfiltered list. */
export function everyPosition(size: number): Selection {
  return positionRange(0, size);
}

/** The positions from `first` up to, not including, `end`: a run of the catalogue. */
export function positionRange(first: number, end: number): Selection {
  const total = Math.max(0, end - first);
  return {
    total,
    slice(start, stop) {
      const page: number[] = [];
      const last = Math.min(stop, total);
      for (let i = start; i < last; i++) page.push(first + i);
      return page;
    },
  };
}
