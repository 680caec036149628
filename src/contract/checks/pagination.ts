/** @module Page size, links, and walking `next` — for /v1/stock and /v1/products alike. */
import type { Check, CheckContext, Failure } from '../check.ts';
import { describeRequest, failureOf } from '../describe-exchange.ts';
import {
  COLLECTIONS,
  idOf,
  idsNotIn,
  isFailure,
  orderFailures,
  readPage,
  walk,
  withQuery,
  type Collection,
  type Item,
  type ListPage,
} from '../walk.ts';

/** The interface's page sizes: default 10, maximum 100. */
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

function learnedItems(context: CheckContext, collection: Collection): readonly Item[] {
  return collection.name === 'stock'
    ? (context.learned.stock.get(context.primary) ?? [])
    : context.learned.products;
}

function idsOf(collection: Collection, items: readonly Item[]): number[] {
  return items.map((item) => idOf(collection, item)).filter((id) => id !== undefined);
}

/** A limit that gives about three pages, so that first, middle and last pages all occur. */
function threePageLimit(total: number): number {
  return Math.min(MAX_LIMIT, Math.max(1, Math.ceil(total / 3)));
}

function pageNumberOf(link: string): number | undefined {
  try {
    const page = new URL(link).searchParams.get('page');
    return page === null ? undefined : Number(page);
  } catch {
    return undefined;
  }
}

async function firstPage(context: CheckContext, path: string): Promise<ListPage | Failure> {
  return readPage(await context.client.request({ path, as: context.primary }));
}

function pageSize(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.page-size`,
    title: `${collection.path}: default page size 10, never above limit or 100`,
    needs: [],
    async run(context) {
      const total = learnedItems(context, collection).length;
      const failures: Failure[] = [];
      const cases: [number | undefined, number][] = [
        [undefined, DEFAULT_LIMIT],
        [1, 1],
        [3, 3],
        [MAX_LIMIT, MAX_LIMIT],
      ];
      for (const [limit, expected] of cases) {
        const path = withQuery(collection.path, limit === undefined ? {} : { limit });
        const page = await firstPage(context, path);
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
      return failures;
    },
  };
}

function walksAll(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.next-walks-all`,
    title: `${collection.path}: following next visits every item once, ascending`,
    needs: [],
    async run(context) {
      const expected = idsOf(collection, learnedItems(context, collection));
      const failures: Failure[] = [];
      for (const limit of [undefined, threePageLimit(expected.length), 7]) {
        const path = withQuery(collection.path, limit === undefined ? {} : { limit });
        const walked = await walk(context.client, path, context.primary);
        const request = `GET ${path} and its next links`;
        failures.push(...walked.failures, ...orderFailures(collection, walked, request));
        const got = idsOf(collection, walked.items);
        const missing = idsNotIn(expected, got);
        if (
          walked.failures.length === 0 &&
          (missing.length > 0 || got.length !== expected.length)
        ) {
          failures.push({
            message: 'Walking next does not give the list seen at limit=100',
            request,
            expected: `${String(expected.length)} items`,
            actual: `${String(got.length)} items${missing.length > 0 ? `; missing ids ${missing.slice(0, 5).join(', ')}` : ''}`,
          });
        }
      }
      return failures;
    },
  };
}

function links(collection: Collection): Check {
  return {
    id: `pagination.${collection.name}.links`,
    title: `${collection.path}: links are absolute; first, last, prev and next agree with the walk`,
    needs: [],
    async run(context) {
      const limit = threePageLimit(learnedItems(context, collection).length);
      const walked = await walk(
        context.client,
        withQuery(collection.path, { limit }),
        context.primary,
      );
      const failures: Failure[] = [...walked.failures];
      const pages = walked.pages;
      const lastNumber = pages.length;
      pages.forEach((page, index) => {
        const request = describeRequest(page.exchange);
        const fail = (message: string, expected: string, actual: unknown) =>
          failures.push({ message, request, expected, actual: JSON.stringify(actual) });
        for (const [name, link] of Object.entries(page.links) as [string, string | null][]) {
          if (link !== null && !/^https?:\/\/[^/]/.test(link))
            fail(`links.${name} is not absolute`, 'an absolute http(s) URL', link);
        }
        if (pageNumberOf(page.links.first) !== 1)
          fail('links.first is not page 1', 'page=1', page.links.first);
        if (pageNumberOf(page.links.last) !== lastNumber) {
          fail(
            'links.last disagrees with where next runs out',
            `page=${String(lastNumber)}`,
            page.links.last,
          );
        }
        if (index === 0 && page.links.prev !== null)
          fail('links.prev is not null on page 1', 'null', page.links.prev);
        if (index > 0 && pageNumberOf(page.links.prev ?? '') !== index) {
          fail(
            'links.prev does not point at the page before',
            `page=${String(index)}`,
            page.links.prev,
          );
        }
        if (index === pages.length - 1 && page.links.next !== null) {
          fail('links.next is not null on the last page', 'null', page.links.next);
        }
      });
      // The page after the last is empty, with no next.
      const past = await firstPage(
        context,
        withQuery(collection.path, { limit, page: lastNumber + 1 }),
      );
      if (isFailure(past)) failures.push(past);
      else if (past.data.length > 0 || past.links.next !== null) {
        failures.push(
          failureOf(past.exchange, 'A page past the end is not empty', 'empty data, next null'),
        );
      }
      return failures;
    },
  };
}

export const paginationChecks: readonly Check[] = COLLECTIONS.flatMap((collection) => [
  pageSize(collection),
  walksAll(collection),
  links(collection),
]);
