/**
 * @module The numbers a declared list envelope places beside the items (`total`, `page`,
 * `limit`, `pages`), judged against the walk: what a client shows as "page 2 of 5, 57 results".
 */
import type { Check, Failure, Findings } from '../check.ts';
import { found } from '../check.ts';
import { describeRequest } from '../describe-exchange.ts';
import { ENVELOPE_NUMBERS, withQuery, type Collection } from '../walk.ts';
import { smallPage } from './filters.ts';
import { learnedItems, readerOf } from './pagination.ts';

/**
 * Rule (interface, the spec's declaration): on every page of a walk at a few items a page,
 * `total` is the number of items the list holds, `page` the page asked for (from 1), `limit`
 * the page size asked for, `pages` the last page's number (1 for an empty list). What breaks
 * it: the page's own count as the total, pages counted from 0, the default limit written
 * whatever was asked, a last page one too far when the total is a multiple of the limit.
 */
export function envelopeNumbersCheck(collection: Collection): Check | undefined {
  const { envelope } = collection;
  if (envelope.kind === 'none') return undefined;
  const placed = ENVELOPE_NUMBERS.filter((name) => envelope[name] !== undefined);
  if (placed.length === 0) return undefined;
  return {
    id: `pagination.${collection.name}.envelope-numbers`,
    title: `${collection.path}: ${placed.map((name) => `${name} (${envelope[name]?.join('.') ?? ''})`).join(', ')} as the walk counts them, on every page`,
    level: 'interface',
    source: `the spec: ${collection.path}, x-stockmock envelope`,
    needs: [],
    async run(context): Promise<Findings> {
      const total = learnedItems(context, collection).length;
      if (total === 0) return { failures: [], skipped: 'the list is empty' };
      const limit = smallPage(total, collection);
      const path = withQuery(collection.path, { limit });
      const as = readerOf(context, collection);
      const walked = await context.walk(path, as, { envelope });
      const failures: Failure[] = [...walked.failures];
      const pages = Math.max(1, Math.ceil(total / limit));
      walked.pages.forEach((page, index) => {
        const want: Record<(typeof ENVELOPE_NUMBERS)[number], number> = {
          total,
          page: index + 1,
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
      return found(failures.slice(0, 10));
    },
  };
}
