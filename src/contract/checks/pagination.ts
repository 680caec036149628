/** @module Page size, links, and walking `next`: for /v1/stock and /v1/products alike. */
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import type { Credentials } from '../target-client.ts';
import { found, judgedSetting } from '../check.ts';
import { describeRequest, failureOf, statusOf } from '../describe-exchange.ts';
import {
  compareIds,
  COLLECTIONS,
  duplicateFailures,
  idsNotIn,
  idsOf,
  isFailure,
  LINK_NAMES,
  readPage,
  followable,
  queryParameter,
  someIds,
  INTERFACE_LIMITS,
  PRODUCTS,
  STOCK,
  withQuery,
  type Collection,
  type Item,
  type ListPage,
  type Walk,
  type Id,
} from '../walk.ts';

/** The interface's page sizes: default 10, maximum 100. */
export const DEFAULT_LIMIT = INTERFACE_LIMITS.default;
export const MAX_LIMIT = INTERFACE_LIMITS.max;

type Query = Readonly<Record<string, string | number>>;

/** The unfiltered list, as the level that reads it where any will do saw it. */
export function learnedItems(context: CheckContext, collection: Collection): readonly Item[] {
  if (collection.origin === 'declared') {
    return context.learned.declared.get(collection.path)?.items ?? [];
  }
  return collection === STOCK
    ? (context.learned.stock.get(context.primary) ?? [])
    : context.learned.products;
}

/** Who reads a list where any level will do. */
export function readerOf(context: CheckContext, collection: Collection): Credentials {
  if (collection.origin === 'declared') {
    return context.learned.declared.get(collection.path)?.holder ?? 'none';
  }
  return context.primary;
}

/** Items' labels (names) by id: the product list's names, or a declared list's labels. */
export function labelsOf(context: CheckContext, collection: Collection): ReadonlyMap<Id, string> {
  return collection.origin === 'declared'
    ? (context.learned.declared.get(collection.path)?.labels ?? new Map<Id, string>())
    : context.learned.names;
}

/** A limit that gives about three pages, so that first, middle and last pages all occur. */
function threePageLimit(total: number, collection: Collection): number {
  return Math.min(collection.limits.max, Math.max(1, Math.ceil(total / 3)));
}

/**
 * Limits that reach the edges of paging: the default, about three pages, an odd size, one that
 * divides the total exactly (the last page is full), and the whole list on a single page.
 */
function edgeLimits(total: number, collection: Collection): (number | undefined)[] {
  const max = collection.limits.max;
  const limits = new Set<number | undefined>([undefined, threePageLimit(total, collection), 7]);
  for (let limit = Math.min(max, Math.floor(total / 2)); limit >= 2; limit -= 1) {
    if (total % limit === 0) {
      limits.add(limit);
      break;
    }
  }
  if (total >= 1 && total <= max) limits.add(total);
  return [...limits];
}

/** Query of a walk at a limit, the default limit left out as a client would. */
function atLimit(query: Query, limit: number | undefined): Query {
  return limit === undefined ? query : { ...query, limit };
}

/** The walks whose links are judged: unfiltered, and filtered so that it still has pages. */
function linkWalks(context: CheckContext, collection: Collection): Query[] {
  const items = learnedItems(context, collection);
  const walks: Query[] = [{ limit: threePageLimit(items.length, collection) }];
  if (collection === STOCK) {
    const counts = new Map<string, number>();
    for (const item of items)
      counts.set(String(item['status']), (counts.get(String(item['status'])) ?? 0) + 1);
    const [status, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (status !== undefined && count !== undefined && count >= 2) {
      walks.push({ status, limit: threePageLimit(count, collection) });
    }
  }
  // A name filter too: its links must keep it. The rarest common letter keeps the walk short.
  const names = [...labelsOf(context, collection).values()].map((name) => name.toLowerCase());
  const [letter, count] =
    ['a', 'e', 'i', 'o', 'r', 's', 't', 'n']
      .map(
        (candidate) =>
          [candidate, names.filter((name) => name.includes(candidate)).length] as const,
      )
      .filter(([, matches]) => matches >= 3)
      .sort((a, b) => a[1] - b[1])[0] ?? [];
  if (letter !== undefined && count !== undefined && collection.labelFilter !== undefined) {
    walks.push({ [collection.labelFilter]: letter, limit: threePageLimit(count, collection) });
  }
  return walks;
}

/**
 * Rule: 10 items without `limit`, `limit` items up to 100 (Limits). Breaks it: another default,
 * sizes raised to a minimum or held below the maximum, a limit with a leading zero read as octal.
 * The first page at no limit, 1, 3, the maximum and `010`.
 */
function pageSize(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.page-size`,
    title: `${collection.path}: ${String(collection.limits.default)} items by default, \`limit\` items up to ${String(collection.limits.max)}`,
    level: 'interface',
    source: 'interface: Limits',
    needs: [],
    async run(context) {
      const total = learnedItems(context, collection).length;
      const failures: Failure[] = [];
      const cases: [number | string | undefined, number][] = [
        [undefined, collection.limits.default],
        [1, 1],
        [3, 3],
        [collection.limits.max, collection.limits.max],
      ];
      // A decimal with a leading zero: the same number, or refused (never read as octal).
      const zeroed = `0${String(Math.min(collection.limits.default, 8) + 2)}`;
      cases.push([zeroed, Number(zeroed)]);
      for (const [limit, expected] of cases) {
        const path = withQuery(collection.path, limit === undefined ? {} : { limit });
        const exchange = await context.client.request({ path, as: readerOf(context, collection) });
        if (
          limit === zeroed &&
          (statusOf(exchange) ?? 0) >= 400 &&
          (statusOf(exchange) ?? 0) < 500
        ) {
          continue;
        }
        const page = readPage(exchange, collection.envelope);
        if (isFailure(page)) {
          failures.push(page);
          continue;
        }
        const want = Math.min(expected, total);
        if (page.data.length !== want) {
          failures.push(
            failureOf(
              page.exchange,
              'The first page has the wrong number of items',
              `${String(want)} items (of ${String(total)})`,
            ),
          );
        }
      }
      return found(failures);
    },
  };
}

/**
 * Rule: following `next` visits every item once, in one order, and every page but the last is
 * full (paging rules 1–3). Breaks it: an extra empty page, a missed or repeated item, pages that
 * overlap, an order that changes between requests, a short page in the middle. Walked at the
 * edge limits (default, three pages, 7, a divisor of the total, all on one page).
 */
function walksAll(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.next-walks-all`,
    title: `${collection.path}: following next visits every item once, in one order at every limit`,
    level: 'interface',
    source: 'interface: Pagination, paging rules 1–3',
    needs: [],
    async run(context) {
      const expected = idsOf(collection, learnedItems(context, collection));
      const failures: Failure[] = [];
      for (const limit of edgeLimits(expected.length, collection)) {
        const path = withQuery(collection.path, atLimit({}, limit));
        const walked = await context.walk(path, readerOf(context, collection), {
          envelope: collection.envelope,
        });
        const request = describeRequest({
          method: 'GET',
          url: path,
          as: readerOf(context, collection),
        }).replace(/ \(/, ' and its next links (');
        failures.push(...walked.failures, ...duplicateFailures(collection, walked, request));
        if (walked.failures.length > 0) continue;
        // Every page but the last is full: a short page in the middle moves every later one.
        const size = limit ?? collection.limits.default;
        const short = walked.pages.slice(0, -1).findIndex((page) => page.data.length !== size);
        const shortPage = walked.pages[short];
        if (shortPage !== undefined) {
          failures.push(
            failureOf(
              shortPage.exchange,
              `Page ${String(short + 1)}, before the last, holds ${String(shortPage.data.length)} items`,
              `${String(size)} items`,
            ),
          );
        }
        const got = idsOf(collection, walked.items);
        if (!walked.complete) {
          // Too long to walk whole at this limit: its first items must be the list's first.
          const differs = got.findIndex((id, index) => id !== expected[index]);
          if (differs >= 0) {
            failures.push({
              message: `Walking next gives item ${String(differs + 1)} other than the list seen at limit=100`,
              request,
              expected: `ids ${someIds(expected.slice(differs), 10)}`,
              actual: `ids ${someIds(got.slice(differs), 10)}`,
            });
          }
          continue;
        }
        const missing = idsNotIn(expected, got);
        const extra = idsNotIn(got, expected);
        if (missing.length > 0 || extra.length > 0 || got.length !== expected.length) {
          failures.push({
            message: 'Walking next does not give the list seen at limit=100',
            request,
            expected: `${String(expected.length)} items`,
            actual: `${String(got.length)} items; missing ids ${someIds(missing)}; not in the list: ${someIds(extra)}`,
          });
        } else if (got.some((id, index) => id !== expected[index])) {
          failures.push({
            message: 'The pages give the items in another order than at limit=100',
            request,
            expected: `ids ${someIds(expected, 10)}`,
            actual: `ids ${someIds(got, 10)}`,
          });
        }
      }
      return found(failures.slice(0, 10));
    },
  };
}

/** The orders a walk may show, each as the words a report uses. */
const ORDERS = {
  id: 'id, ascending',
  name: 'name (code units), ties by id',
  'name-lowercase': 'name lower-cased (code units), ties by id',
  'name-locale': 'name under the Unicode root collation (CLDR), ties by id',
} as const;

type Order = keyof typeof ORDERS;

const codeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** How each order by name compares two names (the checker's own, apart from the server's). */
const NAME_COMPARES: Readonly<Record<Exclude<Order, 'id'>, (a: string, b: string) => number>> = {
  name: codeUnits,
  'name-lowercase': (a, b) => codeUnits(a.toLowerCase(), b.toLowerCase()),
  // `en` is CLDR's root collation unchanged; `und` would take the machine's locale.
  'name-locale': new Intl.Collator('en').compare,
};

/**
 * The order a walk shows: by id, ascending; by name in code units, lower-cased, or under the
 * root collation, ties by id; or none of these.
 * (The id stays `order-by-id`, as PRODUCT.md's decision is named; the check follows the
 * stand-in's `order` setting.)
 */
function order(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.order-by-id`,
    title: `${collection.path}: items in the stand-in's order (by id, ascending, unless it lists by name)`,
    level: 'stand-in',
    source: 'PRODUCT.md: order of list items',
    needs: [],
    async run(context) {
      const ids = idsOf(collection, learnedItems(context, collection));
      const labels = labelsOf(context, collection);
      const names = ids.map((id) => labels.get(id ?? -1));
      const after = (index: number): boolean => {
        const [id, before] = [ids[index], ids[index - 1]];
        return id !== undefined && before !== undefined && compareIds(id, before) > 0;
      };
      const byId = ids.every((_id, index) => index === 0 || after(index));
      const byNameWith = (compare: (a: string, b: string) => number): boolean =>
        names.every((name) => name !== undefined) &&
        ids.every((id, index) => {
          if (index === 0) return true;
          const sign = compare(names[index - 1] ?? '', names[index] ?? '');
          return sign < 0 || (sign === 0 && after(index));
        });
      const fits = (Object.keys(ORDERS) as Order[]).filter((order) =>
        order === 'id' ? byId : byNameWith(NAME_COMPARES[order]),
      );
      const want = context.standIn.settings.order;
      // A list in several orders at once (names that sort as their ids do) fits each of them.
      const decided = fits.includes(want) ? want : fits[0];
      const seen =
        decided === undefined
          ? 'items are ordered neither by id nor by name'
          : `items are ordered by ${ORDERS[decided]}`;
      return judgedSetting(context, 'order', decided ?? { uncovered: seen }, seen, () => ({
        message: `${seen}; the stand-in lists by ${ORDERS[want]}`,
        request: `GET ${collection.path}?limit=100 and its next links`,
        expected: `items by ${ORDERS[want]}`,
        actual: `ids ${someIds(ids, 10)}`,
      }));
    },
  };
}

/** Reads pages by URL once per check: links repeat across the pages of a walk. */
function pageReader(context: CheckContext, collection: Collection) {
  const pages = new Map<string, Promise<ListPage | Failure>>();
  return (url: string): Promise<ListPage | Failure> => {
    let page = pages.get(url);
    if (page === undefined) {
      page = context.client
        .request({ path: url, as: readerOf(context, collection) })
        .then((exchange) => readPage(exchange, collection.envelope));
      pages.set(url, page);
    }
    return page;
  };
}

/** The same items in the same order; an id that cannot be read matches nothing. */
function sameIds(collection: Collection, a: readonly Item[], b: readonly Item[]): boolean {
  const left = idsOf(collection, a);
  const right = idsOf(collection, b);
  return (
    left.length === right.length &&
    left.every((id, index) => id !== undefined && id === right[index])
  );
}

/** Follows each link of each page and compares where it leads with the page the walk met. */
async function linkFailures(
  context: CheckContext,
  collection: Collection,
  walked: Walk,
): Promise<Failure[]> {
  const read = pageReader(context, collection);
  const failures: Failure[] = [...walked.failures];
  const pages = walked.pages;
  const lastPage = pages.at(-1);
  for (const [index, page] of pages.entries()) {
    const request = describeRequest(page.exchange);
    const fail = (message: string, expected: string, actual: unknown) =>
      failures.push({ message, request, expected, actual: JSON.stringify(actual) });
    if (index === 0 && page.links.prev !== null)
      fail('links.prev is not null on the first page', 'null', page.links.prev);
    if (index > 0 && page.links.prev === null)
      fail('links.prev is null on a page after the first', 'the page before', null);
    if (page.data.length > 0) {
      if (page.links.first === null) fail('links.first is null', 'the first page', null);
      if (page.links.last === null) fail('links.last is null', 'the last page', null);
    }
    const targets: [string, string | null, ListPage | undefined][] = [
      ['first', page.links.first, pages[0]],
      ['last', page.links.last, lastPage],
      ['prev', index > 0 ? page.links.prev : null, pages[index - 1]],
    ];
    for (const [name, link, want] of targets) {
      if (link === null || want === undefined) continue;
      const url = followable(context.client, name, link, page);
      if (typeof url !== 'string') {
        failures.push(url);
        continue;
      }
      const reached = await read(url);
      if (isFailure(reached)) {
        failures.push({
          ...reached,
          message: `links.${name} leads to no list page: ${reached.message}`,
        });
      } else if (!sameIds(collection, reached.data, want.data)) {
        fail(
          `links.${name} leads to another page than the walk met`,
          `ids ${someIds(idsOf(collection, want.data))}`,
          `${url} gave ids ${someIds(idsOf(collection, reached.data))}`,
        );
      }
    }
    if (failures.length >= 10) break;
  }
  return failures;
}

/**
 * Rule: `first`, `last` and `prev` lead to the pages the walk met; `prev` is null on page 1 only.
 * Breaks it: links that drop a filter or the limit, first naming page 0, prev going back two
 * pages, links off the target's origin. Unfiltered, by status and by a name filter.
 */
function links(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.links`,
    title: `${collection.path}: first, last and prev lead to the pages the walk met; prev null only on the first`,
    level: 'interface',
    source: 'interface: List envelope; Pagination, paging rule 2',
    needs: [],
    async run(context) {
      if (!placesLinks(collection)) return NO_LINKS_TO_JUDGE;
      const failures: Failure[] = [];
      for (const query of linkWalks(context, collection)) {
        const walked = await context.walk(
          withQuery(collection.path, query),
          readerOf(context, collection),
          { envelope: collection.envelope },
        );
        failures.push(...(await linkFailures(context, collection, walked)));
      }
      if (collection !== PRODUCTS) failures.push(...(await emptyListFailures(context, collection)));
      return found(failures.slice(0, 10));
    },
  };
}

/**
 * A list that nothing matches (a name filter, which the interface gives /v1/stock): one empty
 * page, no neighbours, and a `first` or `last`, where given, that leads to an empty page too.
 */
async function emptyListFailures(
  context: CheckContext,
  collection: Collection,
): Promise<Failure[]> {
  if (collection.labelFilter === undefined) return [];
  const empty = withQuery(collection.path, { [collection.labelFilter]: 'zq-no-such-name-zq' });
  const page = readPage(
    await context.client.request({ path: empty, as: readerOf(context, collection) }),
    collection.envelope,
  );
  if (isFailure(page)) return [page];
  if (page.data.length > 0 || page.links.prev !== null || page.links.next !== null) {
    return [
      failureOf(
        page.exchange,
        'An empty list is not one empty page',
        'data [], prev and next null',
      ),
    ];
  }
  const failures: Failure[] = [];
  for (const name of ['first', 'last'] as const) {
    const link = page.links[name];
    if (link === null) continue;
    const url = followable(context.client, name, link, page);
    if (typeof url !== 'string') {
      failures.push(url);
      continue;
    }
    const reached = readPage(
      await context.client.request({ path: url, as: readerOf(context, collection) }),
      collection.envelope,
    );
    if (isFailure(reached) || reached.data.length > 0) {
      failures.push({
        ...(isFailure(reached) ? reached : failureOf(reached.exchange, '')),
        message: `links.${name} of an empty list leads to no empty list page`,
        expected: '200 with data []',
      });
    }
  }
  return failures;
}

function pageNumberOf(link: string | null, page: ListPage): number | undefined {
  if (link === null) return undefined;
  const value = queryParameter(link, page, 'page');
  return value === null ? undefined : Number(value);
}

/**
 * Rule (PRODUCT.md): links are absolute, keep every filter and the limit, and name their page.
 * Breaks it: relative links, a limit left out, a page appended to the request's own query.
 */
function linksAsStandIn(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.links-absolute`,
    title: `${collection.path}: links are absolute, keep the filters and limit, and name their page`,
    level: 'stand-in',
    source: 'PRODUCT.md: links',
    needs: [],
    async run(context) {
      if (!placesLinks(collection)) return NO_LINKS_TO_JUDGE;
      const failures: Failure[] = [];
      const judge = (
        page: ListPage,
        index: number,
        pages: number,
        query: Query,
        optional: readonly string[],
      ) => {
        const wanted: Record<(typeof LINK_NAMES)[number], number | null> = {
          first: 1,
          last: pages,
          prev: index === 0 ? null : index,
          next: index === pages - 1 ? null : index + 2,
        };
        for (const name of LINK_NAMES) {
          const link = page.links[name];
          const number = wanted[name];
          if (link === null || number === null) continue;
          const problem = standInLinkProblem(link, { ...query, page: number }, optional);
          if (problem !== undefined) {
            failures.push({
              message: `links.${name} ${problem}; the stand-in's links are absolute URLs with every filter, the limit and the page`,
              request: describeRequest(page.exchange),
              expected: withQuery(collection.path, { ...query, page: number }),
              actual: link,
            });
          }
        }
      };
      for (const query of linkWalks(context, collection)) {
        const walked = await context.walk(
          withQuery(collection.path, query),
          readerOf(context, collection),
          { envelope: collection.envelope },
        );
        const pages = Math.max(1, Math.ceil(walked.items.length / Number(query['limit'])));
        walked.pages.forEach((page, index) => {
          judge(page, index, pages, query, []);
        });
      }
      // The default limit, asked for by leaving it out: PRODUCT.md's links keep the request's
      // limit, so they may write the default or leave it out too. The first page tells.
      const first = readPage(
        await context.client.request({ path: collection.path, as: readerOf(context, collection) }),
        collection.envelope,
      );
      if (isFailure(first)) failures.push(first);
      else {
        const total = learnedItems(context, collection).length;
        const limit = collection.limits.default;
        judge(first, 0, Math.max(1, Math.ceil(total / limit)), { limit }, ['limit']);
      }
      return found(failures.slice(0, 10));
    },
  };
}

/** What keeps a link from being the stand-in's link to the page with `query`, if anything. */
function standInLinkProblem(
  link: string,
  query: Query,
  optional: readonly string[],
): string | undefined {
  if (!/^https?:\/\/[^/]/.test(link) || !URL.canParse(link)) return 'is not an absolute URL';
  const params = new URL(link).searchParams;
  for (const [name, value] of Object.entries(query)) {
    if (optional.includes(name) && !params.has(name)) continue;
    if (params.get(name) !== String(value)) {
      return `has ${name}=${params.get(name) ?? '(none)'}, not ${name}=${String(value)}`;
    }
  }
  return undefined;
}

/**
 * Rule: a page past the end holds no items of its own and has no next (paging rule 3), or is a
 * 4xx. Breaks it: items from another page, a next link, a 500. The page just past the end and a
 * far one; the last page again (clamped) is open, and compared with the last page by its number.
 */
function pastTheEnd(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.past-the-end`,
    title: `${collection.path}: a page past the end holds no items (or the last page again) and no next, or is a 4xx`,
    level: 'interface',
    source: 'interface: Pagination, paging rule 3; RFC 9110 §15.5',
    needs: [],
    async run(context) {
      const failures: Failure[] = [];
      const total = learnedItems(context, collection).length;
      const limit = threePageLimit(total, collection);
      for (const page of [Math.max(1, Math.ceil(total / limit)) + 1, 100_000]) {
        const path = withQuery(collection.path, { limit, page });
        const exchange = await context.client.request({ path, as: readerOf(context, collection) });
        const status = exchange.kind === 'response' ? exchange.response.status : 0;
        if (status >= 400 && status < 500) continue;
        const read = readPage(exchange, collection.envelope);
        if (isFailure(read)) {
          failures.push({ ...read, expected: '200 with no items, or a 4xx' });
          continue;
        }
        // Open: no items, or the last page again (the interface says nothing of pages past the
        // end, and a service may clamp the number; the stand-in's check holds it to empty). The
        // last page is asked for by its number, so that the comparison cannot be with the probe
        // itself; and it must hold items, so that an empty answer is not "the same".
        const last = Math.max(1, Math.ceil(total / limit));
        const lastPage = readPage(
          await context.client.request({
            path: withQuery(collection.path, { limit, page: last }),
            as: readerOf(context, collection),
          }),
          collection.envelope,
        );
        const clamped =
          !isFailure(lastPage) &&
          lastPage.data.length > 0 &&
          sameIds(collection, read.data, lastPage.data);
        if ((read.data.length > 0 && !clamped) || read.links.next !== null) {
          failures.push(
            failureOf(
              exchange,
              `A page past the end (page ${String(page)}, the last being ${String(last)}) has items of its own, or a next link`,
              'a 4xx, or 200 with no items (or the last page again) and next null',
            ),
          );
        }
      }
      return found(failures);
    },
  };
}

const PAST_THE_END_WORDS = {
  empty: '200 with no items',
  'not-found': 'a 404 problem',
  'bad-request': 'a 400 problem',
} as const;

/**
 * Rule (PRODUCT.md): a page past the end is 200 with no items, next null and prev the last page
 * (or a 404 where the stand-in says so). Breaks it: the last page repeated, prev naming the page
 * before the one asked for (the same just past the end, not further). Just past it, and further.
 */
function pastTheEndAsStandIn(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.past-the-end-empty`,
    title: `${collection.path}: a page past the end is what the stand-in answers (200 with no items, next null, prev the last page; or a 404 or 400 problem)`,
    level: 'stand-in',
    source: 'PRODUCT.md: page past the end',
    needs: [],
    async run(context) {
      const total = learnedItems(context, collection).length;
      const limit = threePageLimit(total, collection);
      const last = Math.max(1, Math.ceil(total / limit));
      // Just past the end, and further: `prev` names the last page, not the one before the
      // page asked for (which, just past the end, is the same).
      // And a list the interface's `id` filter keeps to one item, past its one page.
      const [firstId] =
        collection.origin === 'declared'
          ? []
          : idsOf(collection, learnedItems(context, collection));
      const asked = [
        { query: { limit, page: last + 1 }, lastPage: last },
        { query: { limit, page: last + 3 }, lastPage: last },
        ...(firstId === undefined ? [] : [{ query: { id: firstId, page: 2 }, lastPage: 1 }]),
      ];
      const probes = await Promise.all(
        asked.map(async ({ query, lastPage }) => {
          const path = withQuery(collection.path, query);
          const exchange = await context.client.request({
            path,
            as: readerOf(context, collection),
          });
          const read = readPage(exchange, collection.envelope);
          const prev = isFailure(read) ? undefined : pageNumberOf(read.links.prev, read);
          // Without links, an empty page is all a page past the end can say.
          const empty =
            !isFailure(read) &&
            read.data.length === 0 &&
            (!placesLinks(collection) || (read.links.next === null && prev === lastPage));
          return { exchange, empty, lastPage };
        }),
      );
      const empty = probes.every((probe) => probe.empty);
      const shown = probes.find((probe) => !probe.empty) ?? probes[0];
      if (shown === undefined) return found([]);
      const { exchange } = shown;
      const status = statusOf(exchange);
      const decided = empty
        ? 'empty'
        : status === 404
          ? 'not-found'
          : status === 400
            ? 'bad-request'
            : undefined;
      const seen =
        decided === undefined
          ? `a page past the end is neither an empty page nor a 404 or 400 (${String(status)})`
          : `a page past the end is ${PAST_THE_END_WORDS[decided]}`;
      const want = context.standIn.settings.pastTheEnd;
      return judgedSetting(context, 'pastTheEnd', decided ?? { uncovered: seen }, seen, () =>
        failureOf(
          exchange,
          `A page past the end is not what the stand-in answers (${want === 'empty' ? `200, empty data, next null, prev page ${String(shown.lastPage)}` : PAST_THE_END_WORDS[want]})`,
          want === 'empty'
            ? `200 {data: [], links: {next: null, prev: …page=${String(shown.lastPage)}}}`
            : `${want === 'not-found' ? '404' : '400'} problem`,
        ),
      );
    },
  };
}

/** A part of a list that a filter keeps, as the unfiltered walk saw it, in its order. */
export interface Sublist {
  readonly query: Query;
  readonly items: readonly Item[];
}

/**
 * Page sizes that leave each remainder on the last page of `total` items: exactly one item (a
 * `next` computed by rounding down drops it), exactly full (an extra empty page follows), one
 * short of full. The largest such size up to `max`, so that the pages are few; none where no
 * size of two or more gives it.
 */
export function remainderLimits(
  total: number,
  max: number,
): { readonly limit: number; readonly last: string }[] {
  const largest = (fits: (limit: number) => boolean, from = 2) => {
    for (let limit = Math.min(max, total - 1); limit >= from; limit -= 1) {
      if (fits(limit)) return limit;
    }
    return undefined;
  };
  const found = [
    { limit: largest((limit) => total % limit === 1), last: 'one item' },
    { limit: largest((limit) => total % limit === 0), last: 'exactly full' },
    { limit: largest((limit) => total % limit === limit - 1, 3), last: 'one short of full' },
  ];
  return found.flatMap(({ limit, last }) => (limit === undefined ? [] : [{ limit, last }]));
}

/**
 * Rule: each page but the last is full, and `next` is null on the page that holds the last
 * item and on no page before it (paging rules 1–3, Limits). What breaks it: a last page of
 * exactly one item, an exactly full last page, one short of full; at the list's own length and
 * at a filtered part's. The last two pages are asked for directly and the second reached by
 * the first's `next`, so a list of any length is judged without walking it whole.
 */
function lastPages(
  collection: Collection,
  sublists: (context: CheckContext) => readonly Sublist[],
): Check {
  return {
    id: `pagination.${collection.name}.last-pages`,
    title: `${collection.path}: at page sizes that leave one item, a full page or one short on the last page, the page before the last is full with a next, and the last holds the rest with next null`,
    level: 'interface',
    source: 'interface: Pagination, paging rules 1–3; Limits',
    needs: [],
    async run(context) {
      const as = readerOf(context, collection);
      const lists: Sublist[] = [
        { query: {}, items: learnedItems(context, collection) },
        ...sublists(context),
      ];
      const failures: Failure[] = [];
      for (const { query, items } of lists) {
        const ids = idsOf(collection, items);
        for (const { limit, last } of remainderLimits(ids.length, collection.limits.max)) {
          const pages = Math.ceil(ids.length / limit);
          const before = withQuery(collection.path, { ...query, limit, page: pages - 1 });
          const read = readPage(
            await context.client.request({ path: before, as }),
            collection.envelope,
          );
          const shape = `${String(ids.length)} items at limit=${String(limit)}: ${String(pages)} pages, the last ${last}`;
          if (isFailure(read)) {
            failures.push({ ...read, message: `${read.message} (${shape})` });
            continue;
          }
          const wanted = items.slice((pages - 2) * limit, (pages - 1) * limit);
          if (!sameIds(collection, read.data, wanted)) {
            failures.push(
              failureOf(
                read.exchange,
                `The page before the last does not hold its items (${shape})`,
                `ids ${someIds(idsOf(collection, wanted), 8)}`,
              ),
            );
          }
          if (!placesLinks(collection)) {
            // No links to follow: the last page is asked for by its number, as clients do.
            const path = withQuery(collection.path, { ...query, limit, page: pages });
            const final = readPage(await context.client.request({ path, as }), collection.envelope);
            const rest = items.slice((pages - 1) * limit);
            if (isFailure(final))
              failures.push({ ...final, message: `${final.message} (${shape})` });
            else if (!sameIds(collection, final.data, rest)) {
              failures.push(
                failureOf(
                  final.exchange,
                  `The last page is not the rest of the list (${shape})`,
                  `ids ${someIds(idsOf(collection, rest), 8)}`,
                ),
              );
            }
            continue;
          }
          if (read.links.next === null) {
            failures.push(
              failureOf(
                read.exchange,
                `links.next is null on the page before the last (${shape})`,
                `a link to page ${String(pages)}`,
              ),
            );
            continue;
          }
          // `last` names the same last page (a count rounded rather than up would not).
          if (
            read.links.last !== null &&
            Number(queryParameter(read.links.last, read, 'page')) !== pages
          ) {
            failures.push(
              failureOf(
                read.exchange,
                `links.last does not name the last page (${shape})`,
                `a link to page ${String(pages)}`,
              ),
            );
          }
          const next = followable(context.client, 'next', read.links.next, read);
          if (typeof next !== 'string') {
            failures.push(next);
            continue;
          }
          const final = readPage(
            await context.client.request({ path: next, as }),
            collection.envelope,
          );
          if (isFailure(final)) {
            failures.push({
              ...final,
              message: `links.next of page ${String(pages - 1)} leads to no list page: ${final.message}`,
            });
            continue;
          }
          const rest = items.slice((pages - 1) * limit);
          if (!sameIds(collection, final.data, rest) || final.links.next !== null) {
            failures.push(
              failureOf(
                final.exchange,
                `The last page, reached by next, is not the rest of the list with next null (${shape})`,
                `ids ${someIds(idsOf(collection, rest), 8)} and next null`,
              ),
            );
          }
        }
        if (failures.length >= 10) break;
      }
      return found(failures);
    },
  };
}

/** For /v1/stock, the most common status: a part of the list with a length of its own. */
function statusSublist(context: CheckContext): Sublist[] {
  const items = context.learned.stock.get(context.primary) ?? [];
  const counts = new Map<string, number>();
  for (const item of items)
    counts.set(String(item['status']), (counts.get(String(item['status'])) ?? 0) + 1);
  const [status] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  return status === undefined
    ? []
    : [{ query: { status }, items: items.filter((item) => item['status'] === status) }];
}

/** Whether a list's answers carry links: in its envelope, or in a `Link` header. */
function placesLinks(collection: Collection): boolean {
  return collection.envelope.kind === 'none' || collection.envelope.links !== undefined;
}

/**
 * Open point (PRODUCT.md: links keep "the limit of the request"): a page asked for without
 * `limit` may have links that write the default page size out, or leave it out as the request
 * did. PRODUCT.md's words allow both, so neither fails; the check says which the target chose,
 * for `--suggest-config` and for `record`, whose stand-in must write the same links.
 */
function linksNameLimit(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.links-name-limit`,
    title: `${collection.path}: whether links of a page asked for without limit name it (either is correct)`,
    level: 'stand-in',
    source: 'PRODUCT.md: links',
    needs: [],
    async run(context) {
      if (!placesLinks(collection)) return NO_LINKS_TO_JUDGE;
      const page = readPage(
        await context.client.request({ path: collection.path, as: readerOf(context, collection) }),
        collection.envelope,
      );
      if (isFailure(page)) return found([page]);
      const link = page.links.first ?? page.links.last;
      if (link === null) return found([]);
      const named = queryParameter(link, page, 'limit') !== null;
      const seen = named
        ? 'links name the default limit when the request named none'
        : 'links leave limit out when the request named none';
      const value = named ? 'always' : 'when-asked';
      return { failures: [], observed: seen, decided: [{ setting: 'linkLimit', value, seen }] };
    },
  };
}

/**
 * Open point: how a link writes a space in a filter's value, `%20` as a URI component or `+` as
 * an HTML form (and URLSearchParams) does. Both read back the same, so neither fails; the check
 * says which the target chose, for `--suggest-config` and `record`.
 */
function linksEncoding(collection: Collection): Check {
  const needle = 'a b';
  return {
    id: `pagination.${collection.name}.links-encoding`,
    title: `${collection.path}: how links encode a space in a filter's value (either is correct)`,
    level: 'stand-in',
    source: 'PRODUCT.md: links',
    needs: [],
    async run(context) {
      if (!placesLinks(collection)) return NO_LINKS_TO_JUDGE;
      const filter = collection.labelFilter;
      if (filter === undefined) return { failures: [], skipped: 'the list has no text filter' };
      const page = readPage(
        await context.client.request({
          path: withQuery(collection.path, { [filter]: needle }),
          as: readerOf(context, collection),
        }),
        collection.envelope,
      );
      const link = isFailure(page) ? null : (page.links.first ?? page.links.last);
      const written = rawQueryValue(link ?? '', filter);
      const value = written === 'a+b' ? 'form' : written === 'a%20b' ? 'percent' : undefined;
      if (value === undefined) {
        return { failures: [], skipped: `no link wrote the value ${JSON.stringify(needle)} back` };
      }
      const seen = `links write a space in a filter's value as ${value === 'form' ? '+' : '%20'}`;
      return { failures: [], observed: seen, decided: [{ setting: 'linkEncoding', value, seen }] };
    },
  };
}

/** A query parameter's value in a link as it is written, not decoded; undefined if absent. */
function rawQueryValue(link: string, name: string): string | undefined {
  const query = link.split('#', 1)[0]?.split('?')[1] ?? '';
  for (const pair of query.split('&')) {
    const [key = '', value = ''] = pair.split('=', 2);
    try {
      if (decodeURIComponent(key.replaceAll('+', ' ')) === name) return value;
    } catch {
      // A key that is no percent-encoding names no parameter.
    }
  }
  return undefined;
}

/** A links check of a list whose envelope places none (`{items, total}`): nothing to judge. */
const NO_LINKS_TO_JUDGE: Findings = {
  failures: [],
  skipped: 'its envelope places no links: pages are asked for by number',
};

/** The paging checks of one list: the interface's own, or one the spec declares. */
export const paginationChecksOf = (
  collection: Collection,
  sublists: (context: CheckContext) => readonly Sublist[] = () => [],
): Check[] => [
  pageSize(collection),
  walksAll(collection),
  lastPages(collection, sublists),
  order(collection),
  links(collection),
  linksAsStandIn(collection),
  linksNameLimit(collection),
  linksEncoding(collection),
  pastTheEnd(collection),
  pastTheEndAsStandIn(collection),
];

export const paginationChecks: readonly Check[] = COLLECTIONS.flatMap((collection) =>
  paginationChecksOf(collection, collection === STOCK ? statusSublist : undefined),
);
