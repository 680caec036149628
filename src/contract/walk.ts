/** @module Reading list pages, and following `links.next` to the end. */
import type { AccessLevel } from '../access/access-level.ts';
import type { Failure } from './check.ts';
import { failureOf } from './describe-exchange.ts';
import type { Exchange, TargetClient } from './target-client.ts';

/** A list collection of the interface and the member that holds an item's id. */
export interface Collection {
  readonly name: 'stock' | 'products';
  readonly path: '/v1/stock' | '/v1/products';
  readonly idKey: 'product_id' | 'id';
}

export const STOCK: Collection = { name: 'stock', path: '/v1/stock', idKey: 'product_id' };
export const PRODUCTS: Collection = { name: 'products', path: '/v1/products', idKey: 'id' };
export const COLLECTIONS = [STOCK, PRODUCTS] as const;

export type Item = Readonly<Record<string, unknown>>;

export interface Links {
  readonly first: string;
  readonly last: string;
  readonly prev: string | null;
  readonly next: string | null;
}

export interface ListPage {
  readonly exchange: Exchange;
  readonly data: readonly Item[];
  readonly links: Links;
}

/** A 200 list page, or the failure that says why the answer is not one. */
export function readPage(exchange: Exchange): ListPage | Failure {
  if (exchange.kind === 'no-response') return failureOf(exchange, 'The target did not answer');
  const { status, body } = exchange.response;
  if (status !== 200)
    return failureOf(exchange, 'A list request failed', '200 with a list envelope');
  if (typeof body !== 'object' || body === null) {
    return failureOf(exchange, 'The list answer is not a JSON object', '{data, links}');
  }
  const { data, links } = body as { data?: unknown; links?: unknown };
  if (!Array.isArray(data) || !data.every((item) => typeof item === 'object' && item !== null)) {
    return failureOf(exchange, '`data` is not an array of objects', '{data: [...], links}');
  }
  if (!isLinks(links)) {
    return failureOf(
      exchange,
      '`links` lacks first, last, prev or next',
      'four links, each a string or null',
    );
  }
  return { exchange, data: data as Item[], links };
}

export function isFailure(value: ListPage | Failure): value is Failure {
  return 'message' in value;
}

function isLinks(value: unknown): value is Links {
  if (typeof value !== 'object' || value === null) return false;
  const links = value as Record<string, unknown>;
  const link = (key: string, nullable: boolean) =>
    typeof links[key] === 'string' || (nullable && links[key] === null);
  return link('first', false) && link('last', false) && link('prev', true) && link('next', true);
}

export interface Walk {
  readonly pages: readonly ListPage[];
  readonly items: readonly Item[];
  readonly failures: readonly Failure[];
}

/** No real list needs more pages than this; a target whose `next` never ends is stopped here. */
const MAX_PAGES = 20_000;

/** Requests `path` and follows `links.next` until it is null, a page fails, or a link repeats. */
export async function walk(client: TargetClient, path: string, as: AccessLevel): Promise<Walk> {
  const pages: ListPage[] = [];
  const failures: Failure[] = [];
  const seen = new Set<string>();
  let next: string | null = path;
  while (next !== null) {
    if (seen.has(next)) {
      failures.push({ message: `links.next leads back to a page already visited: ${next}` });
      break;
    }
    if (pages.length >= MAX_PAGES) {
      failures.push({ message: `links.next did not end after ${String(MAX_PAGES)} pages` });
      break;
    }
    seen.add(next);
    const page = readPage(await client.request({ path: next, as }));
    if (isFailure(page)) {
      failures.push(page);
      break;
    }
    pages.push(page);
    next = page.links.next;
  }
  return { pages, items: pages.flatMap((page) => page.data), failures };
}

/**
 * The id of an item of a collection: an integer, or a string of digits where the spec types
 * product_id as a string (whether that type is right is the conformance check's business).
 */
export function idOf(collection: Collection, item: Item): number | undefined {
  const id = item[collection.idKey];
  if (typeof id === 'string' && /^[1-9]\d{0,15}$/.test(id)) return Number(id);
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
}

/** Failures for items out of ascending id order or seen twice. */
export function orderFailures(collection: Collection, walked: Walk, request: string): Failure[] {
  const failures: Failure[] = [];
  let previous = -Infinity;
  const seen = new Set<number>();
  for (const item of walked.items) {
    const id = idOf(collection, item);
    if (id === undefined) continue;
    if (seen.has(id)) {
      failures.push({ message: `id ${String(id)} appears on more than one page`, request });
    } else if (id < previous) {
      failures.push({
        message: `id ${String(id)} comes after ${String(previous)}: not ascending`,
        request,
      });
    }
    seen.add(id);
    previous = Math.max(previous, id);
  }
  return failures;
}

/**
 * The ids of `ids` that `others` lacks, in their order; an undefined id counts as lacking. By a
 * set: the lists of a large catalogue hold 10^5 ids, and a nested search was 10^10 steps.
 */
export function idsNotIn<Id extends number | undefined>(
  ids: readonly Id[],
  others: readonly (number | undefined)[],
): Id[] {
  const present = new Set(others);
  return ids.filter((id) => id === undefined || !present.has(id));
}

/** `/v1/stock?name=a&limit=5` from a path and query pairs (values encoded). */
export function withQuery(path: string, query: Readonly<Record<string, string | number>>): string {
  const pairs = Object.entries(query).map(
    ([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`,
  );
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}
