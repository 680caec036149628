/**
 * @module The rendered answers of the catalogue's operations, kept per catalogue.
 *
 * An answer of /v1/stock or /v1/products is a function of the catalogue, the request's URL, the
 * caller's access level and the origin its links start with; the catalogue cannot change under
 * it, and a reload or another scenario is another catalogue with its own, empty, set. So the
 * JSON text of an answer asked for twice is kept and sent again: a first page, a status filter
 * or a search that clients repeat costs a lookup instead of the parameter check, the query, the
 * page and the links (about 10 µs of a request's 70–100 µs of CPU, profiled at 100 000 products).
 * Only answers asked for a second time are kept (the doorkeeper of the filter cache), so a
 * stream of fresh searches never enters, and the set is bounded by entries and by characters.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { FilterCache } from '../query/filter-cache.ts';

declare module '../catalog/catalog.ts' {
  interface CatalogMemo {
    answers?: FilterCache<string>;
  }
}

/** At most this many answers per catalogue… */
const MAX_ANSWERS = 1000;
/** …holding at most this many characters together (a page of 100 products is about 10 000). */
const MAX_CHARACTERS = 4_000_000;

export function answersOf(catalog: Catalog): FilterCache<string> {
  return (catalog.memo.answers ??= new FilterCache<string>({
    maxEntries: MAX_ANSWERS,
    maxItems: MAX_CHARACTERS,
    admitOnSecondSight: true,
  }));
}

/**
 * Everything besides the catalogue that an answer depends on. A URL holds no space, nor does an
 * origin or a level, so the parts cannot run into each other.
 */
export function answerKey(level: string, origin: string, url: string): string {
  return `${level} ${origin} ${url}`;
}
