/**
 * Query parameters, filters, order and pagination as PRODUCT.md decides them, as plain functions
 * so that a fault can wrap the standard behaviour instead of rewriting it.
 */
import { STOCK_STATUSES, type Product, type StockStatus } from './catalogue.ts';

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

function integerIn(raw: string, min: number, max: number): Parsed<number> {
  // Digits only: "1.5", "1e1", "+3", " 3" and "0x10" are not integers a client meant.
  if (!/^-?\d+$/.test(raw)) return { ok: false, message: `must be an integer, not "${raw}"` };
  const value = Number(raw);
  if (value < min) return { ok: false, message: `must be >= ${min}` };
  if (value > max) return { ok: false, message: `must be <= ${max}` };
  return { ok: true, value };
}

export function parseLimit(raw: string): Parsed<number> {
  return integerIn(raw, 1, MAX_LIMIT);
}

export function parsePage(raw: string): Parsed<number> {
  return integerIn(raw, 1, Number.MAX_SAFE_INTEGER);
}

export function parseIdFilter(raw: string): Parsed<number> {
  return integerIn(raw, 1, Number.MAX_SAFE_INTEGER);
}

export function parseStatus(raw: string): Parsed<StockStatus | undefined> {
  const status = STOCK_STATUSES.find((s) => s === raw);
  return status === undefined
    ? { ok: false, message: `must be one of ${STOCK_STATUSES.join(', ')}` }
    : { ok: true, value: status };
}

/** A path id: a positive safe integer written in digits, else undefined (a 400). */
export function parsePathId(segment: string): number | undefined {
  const parsed = integerIn(segment, 1, Number.MAX_SAFE_INTEGER);
  return parsed.ok ? parsed.value : undefined;
}

export interface ListQuery {
  readonly name?: string;
  readonly id?: number;
  readonly status?: StockStatus;
  readonly limit: number;
  /** Whether the request named `limit`: links keep the request's parameters as it gave them. */
  readonly limitGiven: boolean;
  readonly page: number;
}

/**
 * Unicode-aware case folding for caseless matching, close to Unicode full case folding
 * (CaseFolding.txt, status C+F): upper- then lower-casing maps ß and ẞ to "ss"; the final
 * sigma ς folds like σ. Canonically equivalent text matches (NFC first): a composed é and a
 * decomposed e + U+0301 are one character to a reader, and the stand-in's README says so.
 */
export function foldCase(text: string): string {
  return text
    .normalize('NFC')
    .toUpperCase()
    .toLowerCase()
    .replaceAll('\u00df', 'ss')
    .replaceAll('\u03c2', '\u03c3');
}

export type NameMatcher = (name: string, needle: string) => boolean;

export const caseInsensitiveSubstring: NameMatcher = (name, needle) =>
  foldCase(name).includes(foldCase(needle));

export const caseSensitiveSubstring: NameMatcher = (name, needle) => name.includes(needle);

export interface Filters {
  readonly name?: string;
  readonly id?: number;
  readonly status?: StockStatus;
}

/** Every filter given must hold (AND). */
export function matchesAll(product: Product, filters: Filters, nameMatches: NameMatcher): boolean {
  return (
    (filters.name === undefined || nameMatches(product.name, filters.name)) &&
    (filters.id === undefined || product.id === filters.id) &&
    (filters.status === undefined || product.status === filters.status)
  );
}

/**
 * By id; by name; by the name lower-cased (toLowerCase); or by name under the root collation of
 * the Unicode Collation Algorithm (CLDR, as `und-x-icu` in PostgreSQL sorts). Names tie-break by
 * id.
 */
export type Order = 'id' | 'name' | 'lower-name' | 'name-locale';

/**
 * The CLDR root collation. Not `new Intl.Collator('und')`: ECMA-402 resolves a locale it has no
 * data for, `und` among them, to the machine's default locale, so under LANG=sv_SE "Øresund"
 * would sort after "Zebra". CLDR's English collation has no tailoring, so `en` is the root order
 * whatever the machine's locale.
 */
const ROOT_COLLATOR = new Intl.Collator('en', { usage: 'sort', sensitivity: 'variant' });

export function ordered(products: readonly Product[], order: Order): Product[] {
  const byId = (a: Product, b: Product): number => a.id - b.id;
  if (order === 'id') return [...products].sort(byId);
  if (order === 'name-locale') {
    return [...products].sort((a, b) => ROOT_COLLATOR.compare(a.name, b.name) || byId(a, b));
  }
  // Code-unit order, not locale order: deterministic whatever the machine's locale.
  const key =
    order === 'lower-name' ? (p: Product) => p.name.toLowerCase() : (p: Product) => p.name;
  return [...products].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x < y ? -1 : x > y ? 1 : byId(a, b);
  });
}

/** The last page: max(1, ceil(total / limit)), so an empty list still has a page 1. */
export function lastPage(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

export function pageSlice<T>(items: readonly T[], page: number, limit: number): T[] {
  const offset = (page - 1) * limit;
  return offset >= items.length ? [] : items.slice(offset, offset + limit);
}

export interface Links {
  readonly first: string;
  readonly last: string;
  readonly prev: string | null;
  readonly next: string | null;
}

/** The query every link keeps: the filters and the limit of the request, in a fixed order. */
export function linkParameters(query: ListQuery): URLSearchParams {
  const parameters = new URLSearchParams();
  if (query.name !== undefined) parameters.set('name', query.name);
  if (query.id !== undefined) parameters.set('id', String(query.id));
  if (query.status !== undefined) parameters.set('status', query.status);
  if (query.limitGiven) parameters.set('limit', String(query.limit));
  return parameters;
}

/** An absolute link to `page` of the list at `base` (scheme, host and path). */
export function pageLink(base: string, parameters: URLSearchParams, page: number): string {
  const withPage = new URLSearchParams(parameters);
  withPage.set('page', String(page));
  return `${base}?${withPage.toString()}`;
}

export interface PageInfo {
  readonly total: number;
  readonly page: number;
  readonly limit: number;
  readonly last: number;
}

/** first, last, prev, next; past the end, prev points at the last page and next is null. */
export function standardLinks(info: PageInfo, link: (page: number) => string): Links {
  return {
    first: link(1),
    last: link(info.last),
    prev: info.page <= 1 ? null : link(Math.min(info.page - 1, info.last)),
    next: info.page < info.last ? link(info.page + 1) : null,
  };
}
