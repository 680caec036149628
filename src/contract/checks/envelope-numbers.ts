/**
 * @module The numbers a declared list envelope places beside the items (`total`, `page`,
 * `limit`, `pages`), judged against the walk: what a client shows as "page 2 of 5, 57 results".
 */
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { found } from '../check.ts';
import { describeRequest } from '../describe-exchange.ts';
import { ENVELOPE_NUMBERS, pagesOf, sized, withQuery, type Collection } from '../walk.ts';
import { smallPage } from './filters.ts';
import { learnedItems, readerOf, type Sublist } from './pagination.ts';

/**
 * Rule (interface, the spec's declaration): on every page of a walk at a few items a page,
 * `total` is the number of items the list holds, `page` the page asked for (from 1, or 0
 * where the list counts from 0), `limit` the page size asked for, `pages` the number of pages (1
 * for an empty list); for the whole
 * list and for a part a filter keeps. What breaks it: the page's own count as the total, pages
 * counted from 0, the default limit written whatever was asked, a last page one too far when
 * the total is a multiple of the limit, a total counted before the filter.
 */
export function envelopeNumbersCheck(
  collection: Collection,
  sublists: (context: CheckContext) => readonly Sublist[] = () => [],
): Check | undefined {
  const { envelope } = collection;
  if (envelope.kind === 'none') return undefined;
  const { paging } = collection;
  // A page number and a count of pages belong to lists paged by number; a page size to lists
  // that take one.
  const numbered = paging.kind === 'links' || paging.kind === 'number';
  const judged = (name: (typeof ENVELOPE_NUMBERS)[number]) =>
    name === 'total' || (name === 'limit' ? paging.kind !== 'whole' : numbered);
  const placed = ENVELOPE_NUMBERS.filter((name) => envelope[name] !== undefined && judged(name));
  if (placed.length === 0) return undefined;
  const firstPage = paging.kind === 'number' ? paging.first : 1;
  return {
    id: `pagination.${collection.name}.envelope-numbers`,
    title: `${collection.path}: ${placed.map((name) => `${name} (${envelope[name]?.join('.') ?? ''})`).join(', ')} as the walk counts them, on every page, filtered or not`,
    level: 'interface',
    source: `the spec: ${collection.path}, x-stockmock envelope`,
    needs: [],
    async run(context): Promise<Findings> {
      const whole = learnedItems(context, collection);
      if (whole.length === 0) return { failures: [], skipped: 'the list is empty' };
      const failures: Failure[] = [];
      for (const { query, items } of [{ query: {}, items: whole }, ...sublists(context)]) {
        const total = items.length;
        const limit = smallPage(total, collection);
        const path = withQuery(collection.path, { ...query, ...sized(collection, limit) });
        const walked = await context.walk(path, readerOf(context, collection), pagesOf(collection));
        failures.push(...walked.failures);
        const pages = Math.max(1, Math.ceil(total / limit));
        walked.pages.forEach((page, index) => {
          const want: Record<(typeof ENVELOPE_NUMBERS)[number], number> = {
            total,
            page: firstPage + index,
            limit,
            pages,
          };
          for (const name of placed) {
            if (page.numbers[name] === want[name]) continue;
            failures.push({
              message: `${envelope[name]?.join('.') ?? name} is not the ${name} on page ${String(index + 1)}`,
              request: describeRequest(page.exchange),
              expected: String(want[name]),
              actual: JSON.stringify(page.numbers[name] ?? null),
            });
          }
        });
      }
      return found(failures.slice(0, 10));
    },
  };
}
