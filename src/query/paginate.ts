/** @module One page of an ordered list. */
import type { Page, PageRequest } from './query.ts';

/** Anything that knows its length and gives out slices: an array, or a filter's Selection. */
export interface Sliceable<T> {
  slice(start: number, end: number): readonly T[];
}

/** Slices a page out of `items`; a page past the end is empty, never an error. */
export function paginate<T>(
  items: readonly T[] | (Sliceable<T> & { readonly total: number }),
  request: PageRequest,
): Page<T> {
  const { page, limit } = request;
  const total = 'total' in items ? items.total : items.length;
  const lastPage = Math.max(1, Math.ceil(total / limit));
  const start = (page - 1) * limit;
  // Pages far past the end (page up to 2^53 - 1) stay exact: nothing is sliced past the total.
  const pageItems = start >= total ? [] : items.slice(start, Math.min(total, start + limit));
  return { items: pageItems, page, limit, total, lastPage };
}
