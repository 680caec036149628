/** @module The pagination links of a list response. */
import type { CursorValue } from '../spec/pagination.ts';
import type { Page } from './query.ts';

export interface Links {
  readonly first: string;
  /** Null where the list is paged by cursors, which name no last page. */
  readonly last: string | null;
  readonly prev: string | null;
  readonly next: string | null;
}

/** Where a page starts, as a list's query names it: a page number, or an item offset. */
export type PagePosition =
  | { readonly kind: 'page'; readonly parameter: string; readonly first: number }
  | { readonly kind: 'offset'; readonly parameter: string }
  | {
      readonly kind: 'cursor';
      /** Where a page after an item is asked for (and, without `before`, the page before one). */
      readonly parameter: string;
      /** Where the page before an item is asked for, where the list has such a parameter. */
      readonly before: string | undefined;
      readonly value: CursorValue;
    };

/** The request as links must repeat it: the absolute URL of the list, and its filters. */
export interface LinkTarget {
  /** Scheme, host and path, without query: `http://localhost:4010/v1/stock`. */
  readonly url: string;
  /**
   * The request's filters as query pairs, in the order they should appear; the page size and
   * the position are added.
   */
  readonly filters: readonly (readonly [string, string])[];
  /** The page-size parameter, where links name it (not where the request named none and the settings say so). */
  readonly size: string | undefined;
  /** How a link names its page; none where the list has one page only (a whole list). */
  readonly position: PagePosition | undefined;
  /** `percent`: values as URI components; `form`: as URLSearchParams writes them. */
  readonly encoding: 'percent' | 'form';
  /** The next page's cursor, for a list paged by cursors; null on its last page. */
  readonly nextCursor?: string | null;
  /** The previous page's cursor, for a list paged by cursors; null on its first page. */
  readonly previousCursor?: string | null;
}

/**
 * `first` is the first page and `last` the last; `prev` is null on the first page and points at
 * the last page when the request went past the end; `next` is null from the last page on.
 * Every link keeps the filters and the page size (where `size` names it), and names its page.
 * A list without a position has one link, to itself, and neither `prev` nor `next`.
 */
export function buildLinks(target: LinkTarget, page: Page<unknown>): Links {
  const pairs =
    target.size === undefined
      ? target.filters
      : [...target.filters, [target.size, String(page.limit)] as const];
  const encode = target.encoding === 'form' ? formEncoded : encodeURIComponent;
  // The part of the query shared by all four links is encoded once.
  const query = pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
  const { position } = target;
  if (position === undefined) {
    const self = query === '' ? target.url : `${target.url}?${query}`;
    return { first: self, last: self, prev: null, next: null };
  }
  if (position.kind === 'cursor') {
    // The first page is the list without a cursor; no last is named.
    const first = query === '' ? target.url : `${target.url}?${query}`;
    const at = (parameter: string, cursor: string | null | undefined) =>
      cursor === null || cursor === undefined
        ? null
        : `${target.url}?${query === '' ? '' : `${query}&`}${encode(parameter)}=${encode(cursor)}`;
    return {
      first,
      last: null,
      prev: at(position.before ?? position.parameter, target.previousCursor),
      next: at(position.parameter, target.nextCursor),
    };
  }
  const prefix = `${target.url}?${query === '' ? '' : `${query}&`}${encode(position.parameter)}=`;
  const { start, limit, total } = page;
  // Page numbers name whole pages; an offset names the item a page starts at.
  const at =
    position.kind === 'page'
      ? (from: number) => `${prefix}${String(position.first + Math.floor(from / limit))}`
      : (from: number) => `${prefix}${String(from)}`;
  const lastStart = (page.lastPage - 1) * limit;
  return {
    first: at(0),
    last: at(lastStart),
    prev: start === 0 ? null : at(Math.min(Math.max(0, start - limit), lastStart)),
    next: start + limit < total ? at(start + limit) : null,
  };
}

/**
 * Text as the application/x-www-form-urlencoded serializer writes it (WHATWG URL): a space is
 * `+`, and of the marks only `*-._` stay; encodeURIComponent also keeps `!'()~`.
 */
function formEncoded(text: string): string {
  return encodeURIComponent(text)
    .replaceAll('%20', '+')
    .replace(/[!'()~]/g, (mark) => `%${(mark.codePointAt(0) ?? 0).toString(16).toUpperCase()}`);
}
