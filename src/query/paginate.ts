/** @module One page of an ordered list. */
import type { Page, PageRequest } from './query.ts';
import type { Slices } from './selection.ts';

/** Slices a page out of `items`; a page past the end is empty, never an error. */
export function paginate<T>(items: Slices<T>, request: PageRequest): Page<T> {
  const { start } = request;
  const total = items.total;
  const limit = request.limit ?? Math.max(1, total - start);
  const lastPage = Math.max(1, Math.ceil(total / limit));
  // Pages far past the end (page up to 2^53 - 1) stay exact: nothing is sliced past the total.
  const pageItems = start >= total ? [] : items.slice(start, Math.min(total, start + limit));
  return { items: pageItems, start, limit, total, page: Math.floor(start / limit) + 1, lastPage };
}
