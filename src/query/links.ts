/** @module The pagination links of a list response. */
import type { Page } from './query.ts';

export interface Links {
  readonly first: string;
  readonly last: string;
  readonly prev: string | null;
  readonly next: string | null;
}

/** The request as links must repeat it: the absolute URL of the list, and its filters. */
export interface LinkTarget {
  /** Scheme, host and path, without query: `http://localhost:4010/v1/stock`. */
  readonly url: string;
  /**
   * The request's filters as query pairs, in the order they should appear; `limit` and `page`
   * are added.
   */
  readonly filters: readonly (readonly [string, string])[];
  /** Whether links name the page size: false where the request named none and the settings say so. */
  readonly namesLimit: boolean;
  /** `percent`: values as URI components; `form`: as URLSearchParams writes them. */
  readonly encoding: 'percent' | 'form';
}

/**
 * `first` is page 1 and `last` the last page; `prev` is null on page 1 and points at the last
 * page when the request went past the end; `next` is null from the last page on. Every link
 * keeps the filters and the limit (unless `namesLimit` is false), and names its page.
 */
export function buildLinks(target: LinkTarget, page: Page<unknown>): Links {
  const pairs = target.namesLimit
    ? [...target.filters, ['limit', String(page.limit)] as const]
    : target.filters;
  const encode = target.encoding === 'form' ? formEncoded : encodeURIComponent;
  // The part of the query shared by all four links is encoded once.
  const query = pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
  const prefix = `${target.url}?${query === '' ? '' : `${query}&`}page=`;
  const at = (n: number) => `${prefix}${n}`;
  const { lastPage } = page;
  return {
    first: at(1),
    last: at(lastPage),
    prev: page.page === 1 ? null : at(Math.min(page.page - 1, lastPage)),
    next: page.page < lastPage ? at(page.page + 1) : null,
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
