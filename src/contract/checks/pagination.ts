/** @module Page size, links, and walking `next`: for /v1/stock and /v1/products alike. */
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import type { Credentials } from '../target-client.ts';
import { found, judgedSetting } from '../check.ts';
import { describeRequest, failureOf, statusOf } from '../describe-exchange.ts';
import {
  compareIds,
  COLLECTIONS,
  idsOf,
  isFailure,
  LINK_NAMES,
  readPage,
  queryParameter,
  someIds,
  STOCK,
  withQuery,
  type Collection,
  type Item,
  type ListPage,
  type Id,
} from '../walk.ts';

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

function pageNumberOf(link: string | null, page: ListPage): number | undefined {
  if (link === null) return undefined;
  const value = queryParameter(link, page, 'page');
  return value === null ? undefined : Number(value);
}

/**
 * Rule (PRODUCT.md): links are absolute, and name the limit and their page. Breaks it: relative
 * links, a limit left out, a page appended to the request's own query.
 */
function linksAsStandIn(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.links-absolute`,
    title: `${collection.path}: links are absolute, and name the limit and their page`,
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
      // That links keep the filters, and name the right pages, is the model's (generated.PATH).
      const query = { limit: threePageLimit(learnedItems(context, collection).length, collection) };
      const walked = await context.walk(
        withQuery(collection.path, query),
        readerOf(context, collection),
        { envelope: collection.envelope },
      );
      const pages = Math.max(1, Math.ceil(walked.items.length / query.limit));
      walked.pages.forEach((page, index) => {
        judge(page, index, pages, query, []);
      });
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
export const paginationChecksOf = (collection: Collection): Check[] => [
  order(collection),
  linksAsStandIn(collection),
  linksNameLimit(collection),
  linksEncoding(collection),
  pastTheEndAsStandIn(collection),
];

export const paginationChecks: readonly Check[] = COLLECTIONS.flatMap(paginationChecksOf);
