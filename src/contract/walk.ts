/** @module Reading list pages, and following `links.next` to the end. */
import type { OpenAPIV3_1 } from 'openapi-types';
import { failureOf, type Failure } from './describe-exchange.ts';
import { linksOfHeader } from './oracle/link-header.ts';
import type { Credentials, Exchange, TargetClient } from './target-client.ts';
import { LIMIT_PARAMETER, PAGE_PARAMETER } from '../spec/pagination.ts';

/** An item's id: an integer, or a string where the spec keys a collection by strings. */
export type Id = number | string;

/** The numbers a list's envelope may place beside its items. */
export const ENVELOPE_NUMBERS = ['total', 'page', 'limit', 'pages'] as const;
export type EnvelopeNumber = (typeof ENVELOPE_NUMBERS)[number];

/**
 * Where a list answer holds its parts, as member paths: the interface's `{data, links}`, a
 * spec's own (`x-stockmock.envelope`), or a bare array with its links in a `Link` header.
 */
export type ListEnvelope =
  | ({
      readonly kind: 'object';
      readonly items: readonly string[];
      readonly links?: readonly string[];
      /** Where a cursor-paged list puts the next page's cursor, and whether there is one. */
      readonly nextCursor?: readonly string[];
      /** Where it puts the cursor of the page before. */
      readonly previousCursor?: readonly string[];
      readonly hasMore?: readonly string[];
    } & { readonly [part in EnvelopeNumber]?: readonly string[] })
  | { readonly kind: 'none' };

/**
 * How a list's pages are asked for. `links`: the interface's `page` and `limit`, each page
 * leading to the next by its links. The others as their clients page them: by a page number
 * (counted from `first`), by the first item's place, by the cursor each page gives, or not at
 * all (`whole`; `first-page`: a size and nothing to go on with). `size` is the page size's query
 * parameter, if the list has one.
 */
export type ListPaging =
  | { readonly kind: 'links'; readonly size: string }
  | {
      readonly kind: 'number';
      readonly page: string;
      readonly first: number;
      readonly size: string | undefined;
    }
  | { readonly kind: 'offset'; readonly offset: string; readonly size: string | undefined }
  | {
      readonly kind: 'cursor';
      readonly cursor: string;
      readonly size: string | undefined;
      /** The parameter that asks for the page before an item, if the list has one. */
      readonly before: string | undefined;
      /**
       * Where cursors are keys (Stripe's `starting_after`), the item member that holds one: the
       * next page is asked for after the last item's; undefined where cursors are opaque.
       */
      readonly keyMember: string | undefined;
    }
  | { readonly kind: 'first-page'; readonly size: string }
  | { readonly kind: 'whole' };

/** The interface's paging: `page` and `limit`, and the links of each page. */
export const INTERFACE_PAGING: ListPaging = { kind: 'links', size: 'limit' };

export const INTERFACE_ENVELOPE: ListEnvelope = {
  kind: 'object',
  items: ['data'],
  links: ['links'],
};

/** A list's page sizes: the one a request without `limit` gets, and the largest. */
export interface PageLimits {
  readonly default: number;
  readonly max: number;
}

/** The interface's page sizes: default 10, maximum 100. */
export const INTERFACE_LIMITS: PageLimits = { default: 10, max: 100 };

/**
 * A list under test and the member that holds an item's id: one of the interface's two, or a
 * list the spec declares (`x-stockmock`), judged by the same paging rules.
 */
export interface Collection {
  /** In check ids: `stock`, `products`, or a declared list's path. */
  readonly name: string;
  readonly path: string;
  readonly idKey: string;
  /** The query parameter that keeps items whose label (name) holds a substring, if any. */
  readonly labelFilter?: string;
  /** That parameter's schema, where the spec gives it: needles it refuses are not asked. */
  readonly labelSchema?: OpenAPIV3_1.SchemaObject;
  readonly limits: PageLimits;
  /** Whose rules the list follows: the interface document's, or the spec's declaration. */
  readonly origin: 'interface' | 'declared';
  /** What the ids are: integers (also as strings of digits), or any strings. */
  readonly keyType: 'integer' | 'string';
  readonly envelope: ListEnvelope;
  readonly paging: ListPaging;
}

/** The query that asks `collection` for pages of `size` items; none where it takes no size. */
export function sized(collection: Collection, size: number): Readonly<Record<string, number>> {
  const { paging } = collection;
  const name = paging.kind === 'whole' ? undefined : paging.size;
  return name === undefined ? {} : { [name]: size };
}

/** What a walk of `collection` needs to know of its pages. */
export function pagesOf(collection: Collection): Pick<WalkOptions, 'envelope' | 'paging'> {
  return { envelope: collection.envelope, paging: collection.paging };
}

export const STOCK: Collection = {
  name: 'stock',
  path: '/v1/stock',
  idKey: 'product_id',
  labelFilter: 'name',
  limits: INTERFACE_LIMITS,
  origin: 'interface',
  keyType: 'integer',
  envelope: INTERFACE_ENVELOPE,
  paging: INTERFACE_PAGING,
};
export const PRODUCTS: Collection = {
  name: 'products',
  path: '/v1/products',
  idKey: 'id',
  labelFilter: 'name',
  limits: INTERFACE_LIMITS,
  origin: 'interface',
  keyType: 'integer',
  envelope: INTERFACE_ENVELOPE,
  paging: INTERFACE_PAGING,
};
export const COLLECTIONS = [STOCK, PRODUCTS] as const;

export type Item = Readonly<Record<string, unknown>>;

/**
 * The interface: each link is a URL string, or null when there is no such page. `first` and
 * `last` are null only where a list has no page at all (an empty list may say so).
 */
export interface Links {
  readonly first: string | null;
  readonly last: string | null;
  readonly prev: string | null;
  readonly next: string | null;
}

export const LINK_NAMES = ['first', 'last', 'prev', 'next'] as const;

export interface ListPage {
  readonly exchange: Exchange;
  readonly data: readonly Item[];
  readonly links: Links;
  /** The numbers the envelope places (a total, the page number), as the answer gave them. */
  readonly numbers: Readonly<Partial<Record<EnvelopeNumber, unknown>>>;
}

/** The member at a path of a JSON value; undefined where there is none. */
export function memberAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const member of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, member)) {
      return undefined;
    }
    at = (at as Record<string, unknown>)[member];
  }
  return at;
}

/** A 200 list page read by its envelope, or the failure that says why the answer is not one. */
export function readPage(
  exchange: Exchange,
  envelope: ListEnvelope = INTERFACE_ENVELOPE,
): ListPage | Failure {
  if (exchange.kind === 'no-response') return failureOf(exchange, 'The target did not answer');
  const { status, body, headers } = exchange.response;
  if (status !== 200)
    return failureOf(exchange, 'A list request failed', '200 with a list envelope');
  if (envelope.kind === 'none') {
    if (!isItems(body)) {
      return failureOf(exchange, 'The list answer is not a JSON array of objects', '[{…}, …]');
    }
    const found = linksOfHeader(headers['link'] ?? '');
    const link = (rel: string) => found.get(rel) ?? null;
    const links = {
      first: link('first'),
      last: link('last'),
      prev: link('prev'),
      next: link('next'),
    };
    return { exchange, data: body, links, numbers: {} };
  }
  const shape = `{${envelope.items.join('.')}: [...]${envelope.links === undefined ? '' : `, ${envelope.links.join('.')}`}}`;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return failureOf(exchange, 'The list answer is not a JSON object', shape);
  }
  const data = memberAt(body, envelope.items);
  if (!isItems(data)) {
    return failureOf(exchange, `\`${envelope.items.join('.')}\` is not an array of objects`, shape);
  }
  const links = envelope.links === undefined ? NO_LINKS : memberAt(body, envelope.links);
  if (!isLinks(links)) {
    return failureOf(
      exchange,
      `\`${envelope.links?.join('.') ?? 'links'}\` lacks first, last, prev or next`,
      'four links, each a URL string or null',
    );
  }
  const numbers: Partial<Record<EnvelopeNumber, unknown>> = {};
  for (const name of ENVELOPE_NUMBERS) {
    const path = envelope[name];
    if (path !== undefined) numbers[name] = memberAt(body, path);
  }
  return { exchange, data, links, numbers };
}

/** An envelope that places no links: a walk has none to follow. */
const NO_LINKS: Links = { first: null, last: null, prev: null, next: null };

function isItems(value: unknown): value is Item[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null);
}

export function isFailure(value: ListPage | Failure): value is Failure {
  return 'message' in value;
}

function isLinks(value: unknown): value is Links {
  if (typeof value !== 'object' || value === null) return false;
  const links = value as Record<string, unknown>;
  return LINK_NAMES.every((name) => typeof links[name] === 'string' || links[name] === null);
}

/** The page number that a page's `last` link names; 0 where it names none. */
function lastPageOf(page: ListPage | undefined): number {
  if (page?.links.last == null) return 0;
  const number = Number(queryParameter(page.links.last, page, 'page'));
  return Number.isSafeInteger(number) ? number : 0;
}

/** A query parameter of a link; null where the link has none, or is no URL at all. */
export function queryParameter(link: string, page: ListPage, name: string): string | null {
  return queryParameters(link, page, name)[0] ?? null;
}

/** Every value a link's query gives a parameter, in order. */
export function queryParameters(link: string, page: ListPage, name: string): string[] {
  try {
    return new URL(resolveLink(link, page)).searchParams.getAll(name);
  } catch {
    return [];
  }
}

/** A link as a client follows it: resolved against the URL of the page that gave it. */
export function resolveLink(link: string, page: ListPage): string {
  return new URL(link, page.exchange.url).toString();
}

/**
 * Where a link leads, or the failure that says why it is not followed: it is no URL, or it leads
 * off the target's origin, which never receives a request (nor the token it would carry).
 */
export function followable(
  client: TargetClient,
  name: string,
  link: string,
  page: ListPage,
): string | Failure {
  let url: string;
  try {
    url = resolveLink(link, page);
  } catch {
    return failureOf(page.exchange, `links.${name} is not a URL: ${JSON.stringify(link)}`, 'a URL');
  }
  if (client.reaches(url)) return url;
  return failureOf(
    page.exchange,
    `links.${name} leads off the target's origin, so it was not followed: ${url}`,
    `a URL on ${client.origin}, the origin the tokens were given for`,
  );
}

export interface Walk {
  readonly pages: readonly ListPage[];
  readonly items: readonly Item[];
  readonly failures: readonly Failure[];
  /**
   * False where the walk stopped at MAX_PAGES of a list whose first page says it has more (its
   * `last` link): the items are then the list's first ones, not all of it.
   */
  readonly complete: boolean;
}

/**
 * Walks stop here: a target whose `next` never ends, or a list too long to walk whole (a million
 * items at limit=10), in the time a check run is worth.
 */
const MAX_PAGES = 20_000;

export interface WalkOptions {
  /** Stop, failing, once more items than this came: a filter that keeps too much. */
  readonly maxItems?: number;
  /** How the list's pages hold their parts (the interface's `{data, links}` unless told). */
  readonly envelope?: ListEnvelope;
  /**
   * How the list's pages are asked for; unless told, by their links, or by `page` where the
   * envelope places no links.
   */
  readonly paging?: ListPaging;
  /** Stop after this many pages (MAX_PAGES unless told). */
  readonly maxPages?: number;
}

/** How a walk of pages ended, without the pages: they went to its caller one by one. */
export interface PagesWalked {
  readonly failures: readonly Failure[];
  /** False where the walk stopped at its page bound on a list that says it has more. */
  readonly complete: boolean;
  readonly items: number;
}

/**
 * Requests `path` and follows the list to its end: by `links.next` until it is null, a page
 * fails, or a link repeats (a page after the first that is empty means `next` was not null at
 * the end of the list); by the cursor each page gives, the same way; or by page number or
 * offset, as the list's clients page.
 *
 * A list paged by number or offset ends at a page that holds fewer items than the first, or at
 * the declared total. There an empty page ends the list without fault: a client cannot know the
 * last page was full.
 */
export async function walk(
  client: TargetClient,
  path: string,
  as: Credentials,
  options: WalkOptions = {},
): Promise<Walk> {
  const pages: ListPage[] = [];
  const walked = await walkPages(client, path, as, options, (page) => {
    pages.push(page);
    return undefined;
  });
  return { ...walked, pages, items: pages.flatMap((page) => page.data) };
}

/** The paging of a walk that was not told one: the interface's links, or page numbers. */
function pagingOf(options: WalkOptions): ListPaging {
  if (options.paging !== undefined) return options.paging;
  return options.envelope?.kind === 'object' && options.envelope.links === undefined
    ? { kind: 'number', page: PAGE_PARAMETER, first: 1, size: LIMIT_PARAMETER }
    : INTERFACE_PAGING;
}

/** What the walk does after a page: ask for the next one, stop there, or stop failing. */
type Step =
  | { readonly kind: 'next'; readonly path: string }
  /**
   * The list said it ended, yet gave a way on: the page it leads to is asked for once, and must
   * hold nothing and say so (`judge` says what is wrong with it, if anything).
   */
  | {
      readonly kind: 'trailing';
      readonly path: string;
      judge(page: ListPage): Failure | undefined;
    }
  | { readonly kind: 'end' }
  | { readonly kind: 'fail'; readonly failure: Failure };

const END: Step = { kind: 'end' };

/**
 * How a walk reads each page: whether it names the next by a link or a cursor (then an empty
 * page after the first is a fault), and the step after it.
 */
interface Pager {
  /** The way on is read from the answer: a `next` that leads to an empty page misled. */
  readonly linked: boolean;
  /** `links.next`, `next_cursor`: in messages. */
  readonly way: string;
  after(page: ListPage, walked: { readonly pages: number; readonly items: number }): Step;
}

function pagerOf(
  client: TargetClient,
  path: string,
  paging: ListPaging,
  envelope: ListEnvelope | undefined,
  firstPage: () => ListPage | undefined,
): Pager {
  const byLinks: Pager = {
    linked: true,
    way: 'links.next',
    after(page) {
      if (page.links.next === null) return END;
      const followed = followable(client, 'next', page.links.next, page);
      return typeof followed === 'string'
        ? { kind: 'next', path: followed }
        : { kind: 'fail', failure: followed };
    },
  };
  const cursorAt = envelope?.kind === 'object' ? envelope.nextCursor : undefined;
  switch (paging.kind) {
    case 'links':
      return byLinks;
    case 'whole':
    case 'first-page':
      return { linked: false, way: 'no next page', after: () => END };
    case 'number':
    case 'offset':
      return {
        linked: false,
        way: paging.kind === 'number' ? paging.page : paging.offset,
        after(page, walked) {
          const first = firstPage();
          if (first === undefined || isLastByNumber(page, first, walked.items)) return END;
          return paging.kind === 'number'
            ? { kind: 'next', path: withParameter(path, paging.page, paging.first + walked.pages) }
            : { kind: 'next', path: withParameter(path, paging.offset, walked.items) };
        },
      };
    case 'cursor':
      if (paging.keyMember !== undefined) {
        return keyCursorPager(path, paging.cursor, paging.keyMember, envelope);
      }
      if (cursorAt === undefined) return byLinks;
      return {
        linked: true,
        way: cursorAt.join('.'),
        after(page) {
          const body = page.exchange.kind === 'response' ? page.exchange.response.body : undefined;
          const cursor = memberAt(body, cursorAt);
          const more =
            envelope?.kind === 'object' && envelope.hasMore !== undefined
              ? memberAt(body, envelope.hasMore)
              : undefined;
          if (more === false && typeof cursor === 'string' && cursor !== '') {
            return {
              kind: 'trailing',
              path: withParameter(path, paging.cursor, cursor),
              judge: (trailing) => trailingFault(trailing, cursorAt, envelope),
            };
          }
          if (cursor === null || cursor === undefined || cursor === '' || more === false) {
            return more === true
              ? {
                  kind: 'fail',
                  failure: failureOf(
                    page.exchange,
                    `The page says it has more but gives no ${cursorAt.join('.')} to go on with`,
                    `a cursor in ${cursorAt.join('.')}, or ${envelope?.kind === 'object' ? (envelope.hasMore?.join('.') ?? '') : ''} false`,
                  ),
                }
              : END;
          }
          if (typeof cursor !== 'string') {
            return {
              kind: 'fail',
              failure: failureOf(
                page.exchange,
                `${cursorAt.join('.')} is not a string: ${JSON.stringify(cursor)}`,
                'a cursor string, or null on the last page',
              ),
            };
          }
          return { kind: 'next', path: withParameter(path, paging.cursor, cursor) };
        },
      };
  }
}

/**
 * What is wrong with the page a cursor leads to that a page saying it had no more still gave: it
 * holds items (a client walking by `has_more` never sees them), or it says it has more.
 */
function trailingFault(
  page: ListPage,
  cursorAt: readonly string[],
  envelope: ListEnvelope | undefined,
): Failure | undefined {
  const moreAt = envelope?.kind === 'object' ? envelope.hasMore : undefined;
  const more =
    moreAt === undefined
      ? undefined
      : page.exchange.kind === 'response'
        ? memberAt(page.exchange.response.body, moreAt)
        : undefined;
  const saidNoMore = `${moreAt?.join('.') ?? 'has_more'} false`;
  if (page.data.length > 0) {
    return failureOf(
      page.exchange,
      `The page that said ${saidNoMore} gave a ${cursorAt.join('.')} that leads to ${String(page.data.length)} more items`,
      `no items after the page that says ${saidNoMore}`,
    );
  }
  if (more === true) {
    return failureOf(
      page.exchange,
      `The ${cursorAt.join('.')} of the page that said ${saidNoMore} leads to an empty page that says it has more`,
      saidNoMore,
    );
  }
  return undefined;
}

/**
 * The pages of a list whose cursor is a key (Stripe's `starting_after`): each next page is asked
 * for after the last item's key. With a `has_more`, the list ends where it is false, and an
 * empty page after one that said more misled; without, an empty page ends it.
 */
function keyCursorPager(
  path: string,
  parameter: string,
  member: string,
  envelope: ListEnvelope | undefined,
): Pager {
  const moreAt = envelope?.kind === 'object' ? envelope.hasMore : undefined;
  return {
    linked: moreAt !== undefined,
    way: `${parameter} (the last item's ${member})`,
    after(page) {
      const body = page.exchange.kind === 'response' ? page.exchange.response.body : undefined;
      const more = moreAt === undefined ? undefined : memberAt(body, moreAt);
      if (more === false || page.data.length === 0) return END;
      const key = page.data.at(-1)?.[member];
      if (typeof key !== 'string' && typeof key !== 'number') {
        return {
          kind: 'fail',
          failure: failureOf(
            page.exchange,
            `The last item has no ${member} to ask for the next page after`,
            `a ${member} on every item`,
          ),
        };
      }
      return { kind: 'next', path: withParameter(path, parameter, String(key)) };
    },
  };
}

/**
 * The walk of `walk`, each page handed to `onPage` as it comes and not kept: a recording of a
 * million items holds none of its pages.
 */
export async function walkPages(
  client: TargetClient,
  path: string,
  as: Credentials,
  options: WalkOptions,
  /** Given each page; `stop` ends the walk there, as not complete. */
  onPage: (page: ListPage) => 'stop' | undefined,
): Promise<PagesWalked> {
  const maxPages = options.maxPages ?? MAX_PAGES;
  const failures: Failure[] = [];
  const seen = new Set<string>();
  let first: ListPage | undefined;
  let last: ListPage | undefined;
  let pages = 0;
  let items = 0;
  let complete = true;
  let next = path;
  const paging = pagingOf(options);
  const pager = pagerOf(client, path, paging, options.envelope, () => first);
  for (;;) {
    if (seen.has(next)) {
      const message = `${pager.way} leads back to a page already visited: ${next}`;
      failures.push(last === undefined ? { message } : failureOf(last.exchange, message));
      break;
    }
    if (pages >= maxPages) {
      // A list that says it is this long is not at fault for it; one that said less is. A list
      // paged otherwise than by links never said how long it is.
      if (paging.kind !== 'links' || lastPageOf(first) > maxPages) complete = false;
      else {
        const message = `links.next did not end after ${String(maxPages)} pages`;
        failures.push(last === undefined ? { message } : failureOf(last.exchange, message));
      }
      break;
    }
    seen.add(next);
    const page = readPage(await client.request({ path: next, as }), options.envelope);
    if (isFailure(page)) {
      failures.push(page);
      break;
    }
    if (!pager.linked && first !== undefined && last !== undefined) {
      const fault = pageNumberFault(page, pages, first, last, pager.way);
      if (fault !== undefined) {
        failures.push(fault);
        break;
      }
    }
    if (pager.linked && pages > 0 && page.data.length === 0) {
      failures.push(
        failureOf(
          page.exchange,
          `${pager.way} of the page before led to an empty page: it was not null at the end of the list`,
          `${pager.way} null on the page that holds the last item`,
        ),
      );
      // The list has ended: a `next` that goes on from an empty page leads only to more.
      onPage(page);
      break;
    }
    first ??= page;
    last = page;
    pages += 1;
    items += page.data.length;
    if (onPage(page) === 'stop') {
      complete = false;
      break;
    }
    if (options.maxItems !== undefined && items > options.maxItems) {
      failures.push(
        failureOf(
          page.exchange,
          `The list goes on past the ${String(options.maxItems)} items it can hold`,
          `at most ${String(options.maxItems)} items in all`,
        ),
      );
      break;
    }
    const step = pager.after(page, { pages, items });
    if (step.kind === 'end') {
      if (paging.kind === 'first-page' && page.data.length > 0) complete = isShort(page, paging);
      break;
    }
    if (step.kind === 'fail') {
      failures.push(step.failure);
      break;
    }
    if (step.kind === 'trailing') {
      if (!seen.has(step.path)) {
        const trailing = readPage(await client.request({ path: step.path, as }), options.envelope);
        const fault = isFailure(trailing) ? trailing : step.judge(trailing);
        if (fault !== undefined) failures.push(fault);
      }
      break;
    }
    next = step.path;
  }
  return { failures, complete, items };
}

/** Whether a first page without a way on is the whole list: it holds fewer than it was asked. */
function isShort(page: ListPage, paging: { readonly size: string }): boolean {
  const asked = Number(queryParameter(page.exchange.url, page, paging.size));
  return Number.isSafeInteger(asked) && page.data.length < asked;
}

/**
 * Why a page asked for by number or offset is wrong: the same items as the page before (the
 * parameter was not read), or more items than the first page held.
 */
function pageNumberFault(
  page: ListPage,
  before: number,
  first: ListPage,
  last: ListPage,
  parameter: string,
): Failure | undefined {
  if (page.data.length > first.data.length) {
    return failureOf(
      page.exchange,
      `Page ${String(before + 1)} holds ${String(page.data.length)} items, more than the first page's ${String(first.data.length)}`,
      `at most ${String(first.data.length)} items, the page size`,
    );
  }
  if (page.data.length > 0 && JSON.stringify(page.data) === JSON.stringify(last.data)) {
    return failureOf(
      page.exchange,
      `Page ${String(before + 1)} repeats page ${String(before)}: the ${parameter} parameter was not followed`,
      'the next items of the list',
    );
  }
  return undefined;
}

/** Whether a page asked for by number is the list's last: short, empty, or reaching the total. */
function isLastByNumber(page: ListPage, first: ListPage, items: number): boolean {
  const size = first.data.length;
  if (page.data.length === 0 || page.data.length < size) return true;
  const { total } = page.numbers;
  return typeof total === 'number' && items >= total;
}

/** The path with one query parameter set, the others kept as they were written. */
export function withParameter(path: string, name: string, value: string | number): string {
  const [base = '', query = ''] = path.split('?', 2);
  const written = `${encodeURIComponent(name)}=`;
  const kept = query.split('&').filter((pair) => pair !== '' && !pair.startsWith(written));
  return `${base}?${[...kept, `${written}${encodeURIComponent(String(value))}`].join('&')}`;
}

/**
 * The id of an item of a collection: an integer, or a string of digits (the interface allows
 * either reading of `product_id`; whether the target keeps to one is the reading check's job).
 */
export function idOf(collection: Collection, item: Item): Id | undefined {
  const id = item[collection.idKey];
  if (collection.keyType === 'string') return typeof id === 'string' ? id : undefined;
  if (typeof id === 'string' && /^[1-9]\d{0,15}$/.test(id)) return Number(id);
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
}

export function idsOf(collection: Collection, items: readonly Item[]): (Id | undefined)[] {
  return items.map((item) => idOf(collection, item));
}

/** Ids in ascending order: integers by value, strings by code point. */
export function compareIds(a: Id, b: Id): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [Array.from(String(a)), Array.from(String(b))];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const order = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

/** Failures for items that appear on more than one page. */
export function duplicateFailures(
  collection: Collection,
  walked: Walk,
  request: string,
): Failure[] {
  const seen = new Set<Id>();
  const failures: Failure[] = [];
  for (const id of idsOf(collection, walked.items)) {
    if (id === undefined) continue;
    if (seen.has(id))
      failures.push({ message: `id ${String(id)} appears more than once in the walk`, request });
    seen.add(id);
  }
  return failures.slice(0, 5);
}

/**
 * The ids of `ids` that `others` lacks, in their order; an undefined id counts as lacking. By a
 * set: the lists of a large catalogue hold 10^5 ids, and a nested search was 10^10 steps.
 */
export function idsNotIn<Some extends Id | undefined>(
  ids: readonly Some[],
  others: readonly (Id | undefined)[],
): Some[] {
  const present = new Set(others);
  return ids.filter((id) => id === undefined || !present.has(id));
}

/** `/v1/stock?name=a&limit=5` from a path and query pairs (values encoded; an array repeats). */
export function withQuery(
  path: string,
  query: Readonly<Record<string, string | number | readonly string[]>>,
): string {
  const pairs = Object.entries(query).flatMap(([key, value]) =>
    (typeof value === 'object' ? value : [String(value)]).map(
      (one) => `${encodeURIComponent(key)}=${encodeURIComponent(one)}`,
    ),
  );
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}

/** `ids 3, 5, 8, …`: a few ids for a message. */
export function someIds(ids: readonly (Id | undefined)[], count = 6): string {
  const shown = ids.slice(0, count).map((id) => (id === undefined ? '?' : String(id)));
  return shown.length === 0 ? 'none' : `${shown.join(', ')}${ids.length > count ? ', …' : ''}`;
}

/** Up to `count` items spread over the list, first and last included. */
export function sample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = (items.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => items[Math.round(i * step)]).filter(
    (item) => item !== undefined,
  );
}
