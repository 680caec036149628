/** @module One page of an ordered list. */
import type { Page, PageRequest } from './query.ts';
import type { Slices } from './selection.ts';

/** Slices a page out of `items`; a page past the end is empty, never an error. */
export function paginate<T>(items: Slices<T>, request: PageRequest): Page<T> {
  const { page, limit } = request;
  const total = items.total;
  const lastPage = Math.max(1, Math.ceil(total / limit));
  const start = (page - 1) * limit;
  // Pages far past the end (page up to 2^53 - 1) stay exact: nothing is sliced past the total.
  const pageItems = start >= total ? [] : items.slice(start, Math.min(total, start + limit));
  return { items: pageItems, page, limit, total, lastPage };
}
