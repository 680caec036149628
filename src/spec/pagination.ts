/**
 * @module How a list's query parameters page it, by their names: the interface's `page` and
 * `limit`, and the names real APIs give the same parts (GitHub's `per_page`, Google's
 * `pageSize`, Spring's `size`, JSON:API's `page[number]` and `page[size]`, `offset`).
 *
 * One definition, read by the stand-in (what it serves) and by the checker (what it asks): a
 * list that does not declare `paging` is paged by the parameters these names find.
 */

/** The interface's pagination: every list takes a page number and a page size by these names. */
export const PAGE_PARAMETER = 'page';
export const LIMIT_PARAMETER = 'limit';

/**
 * The parts a list is paged by: a page size, and where a page starts (a number, an offset, or
 * a cursor the page before gave); and, beside a cursor, a parameter that asks for the page
 * before an item (Stripe's `ending_before`).
 */
export const PAGING_PARTS = ['size', 'page', 'offset', 'cursor', 'before'] as const;
export type PagingPart = (typeof PAGING_PARTS)[number];

/** Each part's usual names, as real APIs write them. */
export const PAGING_NAMES: Readonly<Record<PagingPart, readonly string[]>> = {
  size: [
    LIMIT_PARAMETER,
    'per_page',
    'perPage',
    'pageSize',
    'page_size',
    'size',
    'page[size]',
    'page[limit]',
    'maxResults',
    'max_results',
  ],
  page: [PAGE_PARAMETER, 'pageNumber', 'page_number', 'page[number]'],
  offset: ['offset', 'skip', 'start', 'page[offset]'],
  cursor: [
    'cursor',
    'after',
    'starting_after',
    'pageToken',
    'page_token',
    'page[cursor]',
    'page[after]',
    'continuation',
    'continuationToken',
  ],
  before: ['before', 'ending_before', 'endingBefore', 'page[before]'],
};

/**
 * What a cursor's value is: `opaque`, text the list's pages give (a next or previous cursor, a
 * link); or `key`, the key of the item a page starts after (or ends before), as Stripe's
 * `starting_after` takes an object's id.
 */
export type CursorValue = 'opaque' | 'key';

/**
 * A cursor's value where the declaration does not say: opaque where the answer gives cursors to
 * follow (a cursor member, links, or a `Link` header), else a key, the only thing a client of an
 * answer that gives none can send (Stripe's `{data, has_more}`).
 */
export function cursorValueOf(
  declared: CursorValue | undefined,
  answerGivesCursors: boolean,
): CursorValue {
  return declared ?? (answerGivesCursors ? 'opaque' : 'key');
}

/** The query parameter of each part a list is paged by (none: the list is whole). */
export type PagingNames = Readonly<Partial<Record<PagingPart, string>>>;

/**
 * The paging parameters among a list's query parameters, by their names; a part that two
 * parameters could be is given to neither, and the caller says so.
 */
export function pagingByNames(names: readonly string[]): {
  readonly found: PagingNames;
  readonly ambiguous: readonly (readonly [PagingPart, readonly string[]])[];
} {
  const found: Partial<Record<PagingPart, string>> = {};
  const ambiguous: (readonly [PagingPart, readonly string[]])[] = [];
  for (const part of PAGING_PARTS) {
    const matches = names.filter((name) => PAGING_NAMES[part].includes(name));
    const [only] = matches;
    if (only !== undefined && matches.length === 1) found[part] = only;
    else if (matches.length > 1) ambiguous.push([part, matches]);
  }
  return { found, ambiguous };
}

/**
 * The most items one answer holds: a whole list, or a page whose size the spec does not bound.
 * Past it the answer is a problem that says so, never a list cut short: Elasticsearch's
 * `max_result_window` has the same default, and 10 000 records of a few hundred bytes are a
 * few megabytes.
 */
export const MAX_ANSWER_ITEMS = 10_000;

/** A page size the spec gives no default for (GitHub's is 30, Google's guides say "sensible"). */
export const FALLBACK_PAGE_SIZE = 20;
