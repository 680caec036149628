/**
 * @module A list as the loaded records give it, less those a session replaced or deleted, with
 * the session's own records placed among them: a session's read, made without copying the
 * collection. Only the page asked for is read of the loaded list.
 */
import type { Selection } from './selection.ts';

/** Where a session's records change a loaded list. */
export interface ListLayer {
  /** Places in the loaded list of the records the session replaced or deleted, ascending. */
  readonly hidden: Int32Array;
  /** The session's records that the list holds, in its order. */
  readonly added: Int32Array;
  /** For each added record, the place in the loaded list it comes before; non-decreasing. */
  readonly before: Int32Array;
}

/** How many of the ascending values are below `bound`. */
export function countBelow(values: Int32Array, bound: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as number) < bound) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function mergedSelection(loaded: Selection, layer: ListLayer): Selection {
  const { hidden, added, before } = layer;
  const total = loaded.total - hidden.length + added.length;
  // An added record's place in the merged list: the loaded records kept before it, and the
  // added ones before it.
  const placeOfAdded = (j: number): number => {
    const at = before[j] as number;
    return at - countBelow(hidden, at) + j;
  };
  return {
    total,
    slice(start, end) {
      const stop = Math.min(end, total);
      if (start >= stop) return [];
      // How many added records come before `start`: their places ascend.
      let low = 0;
      let high = added.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (placeOfAdded(middle) < start) low = middle + 1;
        else high = middle;
      }
      let next = low;
      // The loaded list's place of its (start − next)-th kept record: past every hidden one
      // below it. hidden[i] − i does not decrease, so the count of those is found by search.
      const kept = start - next;
      low = 0;
      high = hidden.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((hidden[middle] as number) - middle <= kept) low = middle + 1;
        else high = middle;
      }
      let nextHidden = low;
      let place = kept + low;
      const page: number[] = [];
      let window: readonly number[] = [];
      let windowStart = place;
      const loadedAt = (at: number): number => {
        if (at - windowStart >= window.length) {
          // Enough for the rest of the page, and for the hidden records among it.
          const wanted = stop - start - page.length;
          const skipped = countBelow(hidden, at + wanted) - countBelow(hidden, at);
          windowStart = at;
          window = loaded.slice(at, Math.min(loaded.total, at + wanted + skipped));
        }
        return window[at - windowStart] as number;
      };
      while (page.length < stop - start) {
        if (next < added.length && (before[next] as number) <= place) {
          page.push(added[next] as number);
          next += 1;
        } else if (nextHidden < hidden.length && hidden[nextHidden] === place) {
          nextHidden += 1;
          place += 1;
        } else {
          page.push(loadedAt(place));
          place += 1;
        }
      }
      return page;
    },
  };
}
