/**
 * @module The checks of a declared list paged otherwise than by the interface's links: by a
 * page number or an offset under any names, by cursors, or not at all. The expected answer is
 * computed from the list walked at its largest page size; the walks at other sizes must give
 * the same items in the same order.
 */
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { found } from '../check.ts';
import type { DeclaredList } from '../declared.ts';
import { describeRequest, failureOf, statusOf } from '../describe-exchange.ts';
import {
  idsNotIn,
  idsOf,
  memberAt,
  pagesOf,
  readPage,
  isFailure,
  sized,
  someIds,
  withParameter,
  withQuery,
  type Collection,
  type Id,
  type Item,
  type ListPaging,
} from '../walk.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';
import { guarded, sourceOf } from './declared-guard.ts';
import { learnedItems, readerOf } from './pagination.ts';

/** A walk of more pages than this is not asked for: the sizes grow instead. */
const MAX_WALK_PAGES = 400;

/** How the list is paged, in words: `by cursor (cursor, limit)`. */
function pagingWords(collection: Collection): string {
  const { paging } = collection;
  const size = paging.kind === 'whole' || paging.size === undefined ? '' : `, ${paging.size}`;
  switch (paging.kind) {
    case 'links':
      return `by its links (page${size})`;
    case 'number':
      return `by page number (${paging.page}${size})`;
    case 'offset':
      return `by offset (${paging.offset}${size})`;
    case 'cursor':
      return `by cursor (${paging.cursor}${size})`;
    case 'first-page':
      return `by a page size alone (${paging.size})`;
    case 'whole':
      return 'not at all: one answer holds every item';
  }
}

/** Page sizes to walk at: two items a page, about three pages, and the largest. */
function walkSizes(count: number, collection: Collection): number[] {
  const { max } = collection.limits;
  const floor = Math.ceil(count / MAX_WALK_PAGES);
  const sizes = [2, Math.ceil(count / 3), max].map((size) =>
    Math.min(max, Math.max(1, floor, size)),
  );
  return [...new Set(sizes)];
}

/** The list as learned at its largest page size, and its items' ids; none where it is empty. */
function learnedList(
  context: CheckContext,
  collection: Collection,
): { readonly whole: readonly Item[]; readonly expected: readonly Id[] } | undefined {
  const whole = learnedItems(context, collection);
  if (whole.length === 0) return undefined;
  return { whole, expected: idsOf(collection, whole).filter((id) => id !== undefined) };
}

const EMPTY_LIST: Findings = { failures: [], skipped: 'the list is empty' };

/** The first way `got` differs from `expected` (repeats, gaps, order), or undefined. */
function sequenceFault(
  got: readonly (Id | undefined)[],
  expected: readonly Id[],
): string | undefined {
  const seen = new Set<Id | undefined>();
  const repeated = got.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  if (repeated.length > 0) return `items repeat: ${someIds(repeated)}`;
  const missing = idsNotIn(expected, got);
  if (missing.length > 0) return `items are skipped: ${someIds(missing)}`;
  const extra = idsNotIn(got, expected);
  if (extra.length > 0) return `items that the whole list lacks: ${someIds(extra)}`;
  const at = got.findIndex((id, index) => id !== expected[index]);
  return at < 0 ? undefined : `the order differs from item ${String(at + 1)} on`;
}

/**
 * Rule (interface, the spec's declaration): walked at any page size the list gives the same
 * items in the same order as at its largest, each once, no page larger than asked. What breaks
 * it: a cursor that names the last item's place and repeats it, or the one after and skips it;
 * an offset counted from 1; the page size not read; a `next_cursor` that does not end.
 */
function walksCheck(list: DeclaredList): Check {
  const { collection } = list;
  return {
    id: `paging.${collection.name}.walks`,
    title: `${collection.name}, paged ${pagingWords(collection)}: the same items in the same order at every page size, each once`,
    level: 'interface',
    source: sourceOf(collection.name, 'paging'),
    needs: [],
    async run(context): Promise<Findings> {
      const learned = learnedList(context, collection);
      if (learned === undefined) return EMPTY_LIST;
      const { whole, expected } = learned;
      const as = readerOf(context, collection);
      const failures: Failure[] = [];
      const sizes = collection.paging.kind === 'whole' ? [] : walkSizes(whole.length, collection);
      const fault = sequenceFault(idsOf(collection, whole), expected);
      if (fault !== undefined) {
        failures.push({
          message: `The list walked at its largest page size: ${fault}`,
          request: describeRequest({ method: 'GET', url: collection.path, as }),
        });
      }
      for (const size of sizes) {
        const path = withQuery(collection.path, sized(collection, size));
        const walked = await context.walk(path, as, {
          ...pagesOf(collection),
          maxItems: whole.length * 2,
        });
        const request = describeRequest({ method: 'GET', url: path, as }).replace(
          ' (',
          ' and its next pages (',
        );
        failures.push(...walked.failures);
        const large = walked.pages.find((page) => page.data.length > size);
        if (large !== undefined) {
          failures.push(
            failureOf(
              large.exchange,
              `A page holds ${String(large.data.length)} items, more than the ${String(size)} asked for`,
              `at most ${String(size)} items`,
            ),
          );
        }
        const got = idsOf(collection, walked.items);
        const differs = walked.failures.length === 0 ? sequenceFault(got, expected) : undefined;
        if (differs !== undefined) {
          failures.push({
            message: `Walked ${String(size)} a page, ${differs}`,
            request,
            expected: `${String(expected.length)} items: ${someIds(expected, 8)}`,
            actual: `${String(got.length)} items: ${someIds(got, 8)}`,
          });
        }
      }
      return found(
        failures.slice(0, 10),
        sizes.length === 0
          ? `${String(whole.length)} items in one answer`
          : `${String(whole.length)} items walked at ${sizes.join(', ')} a page`,
      );
    },
  };
}

/**
 * Rule (interface, the spec's declaration): where a cursor list declares a way back (a previous
 * cursor in its answer, or a parameter for the page before an item that is a key), going back
 * from its last page, page by page, gives the same items as going forward, each page in the
 * list's order, none twice. What breaks it: a previous cursor that names the page's first item
 * and repeats it, or the page before's and skips one; `ending_before` read as `starting_after`.
 */
function walksBackCheck(
  list: DeclaredList,
  paging: Extract<ListPaging, { kind: 'cursor' }>,
): Check {
  const { collection } = list;
  const { envelope } = collection;
  const previousAt = envelope.kind === 'object' ? envelope.previousCursor : undefined;
  const moreAt = envelope.kind === 'object' ? envelope.hasMore : undefined;
  const way =
    previousAt !== undefined
      ? previousAt.join('.')
      : `${paging.before ?? ''} (the first item's ${paging.keyMember ?? ''})`;
  return {
    id: `paging.${collection.name}.walks-back`,
    title: `${collection.name}: walked back from its last page by ${way}, the same items as walked forward`,
    level: 'interface',
    source: sourceOf(collection.name, 'paging'),
    needs: [],
    async run(context): Promise<Findings> {
      const learned = learnedList(context, collection);
      if (learned === undefined) return EMPTY_LIST;
      const { whole, expected } = learned;
      const as = readerOf(context, collection);
      const [size = 2] = walkSizes(whole.length, collection);
      const path = withQuery(collection.path, sized(collection, size));
      const forward = await context.walk(path, as, {
        ...pagesOf(collection),
        maxItems: whole.length * 2,
      });
      let page = forward.pages.at(-1);
      if (forward.failures.length > 0 || page === undefined) {
        return { failures: [], skipped: 'the walk forward failed (paging.walks says why)' };
      }
      const back: (readonly Item[])[] = [page.data];
      for (let step = 0; step < MAX_WALK_PAGES; step++) {
        const body = page.exchange.kind === 'response' ? page.exchange.response.body : undefined;
        let next: string | undefined;
        if (previousAt !== undefined) {
          const cursor = memberAt(body, previousAt);
          // A member the answer never gives (the spec may leave it out) is no way back to judge.
          if (step === 0 && cursor === undefined && forward.pages.length > 1) {
            return { failures: [], skipped: `the last page gives no ${previousAt.join('.')}` };
          }
          if (typeof cursor === 'string' && cursor !== '') {
            next = withParameter(path, paging.before ?? paging.cursor, cursor);
          }
        } else {
          const key = page.data[0]?.[paging.keyMember ?? ''];
          const more = step === 0 || moreAt === undefined ? true : memberAt(body, moreAt);
          if (more !== false && (typeof key === 'string' || typeof key === 'number')) {
            next = withParameter(path, paging.before ?? '', String(key));
          }
        }
        if (next === undefined) break;
        const exchange = await context.client.request({ path: next, as });
        const read = readPage(exchange, envelope);
        if (isFailure(read)) return found([read]);
        if (read.data.length === 0) break;
        // Walking back, `has_more` says whether items come before this page (Stripe's rule).
        const atStart = idsOf(collection, read.data.slice(0, 1))[0] === expected[0];
        const answered = exchange.kind === 'response' ? exchange.response.body : undefined;
        const more = moreAt === undefined ? undefined : memberAt(answered, moreAt);
        if (moreAt !== undefined && more !== !atStart) {
          return found([
            failureOf(
              exchange,
              `${moreAt.join('.')} is ${JSON.stringify(more)} on a page walked back to that ${atStart ? 'starts' : 'does not start'} the list`,
              `${moreAt.join('.')} ${String(!atStart)}: whether items come before the page`,
            ),
          ]);
        }
        page = read;
        back.unshift(read.data);
      }
      const got = idsOf(collection, back.flat());
      const fault = sequenceFault(got, expected);
      return found(
        fault === undefined
          ? []
          : [
              {
                message: `Walked back ${String(size)} a page by ${way}, ${fault}`,
                request: describeRequest({ method: 'GET', url: path, as }).replace(
                  ' (',
                  ' to its last page, then back (',
                ),
                expected: `${String(expected.length)} items: ${someIds(expected, 8)}`,
                actual: `${String(got.length)} items: ${someIds(got, 8)}`,
              },
            ],
        `${String(back.length)} pages walked back at ${String(size)} a page`,
      );
    },
  };
}

/**
 * Rule (stand-in, docs/declare-a-resource.md: paging): a page size above the maximum is a 400;
 * a service may bound it instead.
 */
function sizeRefusedCheck(list: DeclaredList, maximum: number): Check {
  const { collection } = list;
  return {
    id: `paging.${collection.name}.size-refused`,
    title: `${collection.name}: a page size above ${String(maximum)} is a 400`,
    level: 'stand-in',
    source: 'docs/declare-a-resource.md: paging (the page size is an integer within its schema)',
    needs: [],
    async run(context): Promise<Findings> {
      const exchange = await context.client.request({
        path: withQuery(collection.path, sized(collection, maximum + 1)),
        as: readerOf(context, collection),
      });
      return found(
        statusOf(exchange) === 400
          ? []
          : [failureOf(exchange, `A page size of ${String(maximum + 1)} is not refused`, '400')],
      );
    },
  };
}

/**
 * Rule (stand-in, docs/declare-a-resource.md: cursors): a cursor the list did not give, one
 * changed by a character, or one given under other filters, is a 400 naming the parameter, never
 * a page. A service may read a cursor as a key (Stripe's `starting_after`), and answer a page for
 * any key it knows.
 */
function foreignCursorCheck(list: DeclaredList, parameter: string): Check {
  const { collection } = list;
  return {
    id: `paging.${collection.name}.foreign-cursor`,
    title: `${collection.name}?${parameter}=…: a cursor the list did not give, or gave under other filters, is a 400`,
    level: 'stand-in',
    source: 'docs/declare-a-resource.md: paging (cursors)',
    needs: [],
    async run(context): Promise<Findings> {
      const as = readerOf(context, collection);
      const first = await context.client.request({
        path: withQuery(collection.path, sized(collection, 1)),
        as,
      });
      const { envelope } = collection;
      const body = first.kind === 'response' ? first.response.body : undefined;
      const given =
        envelope.kind === 'object' && envelope.nextCursor !== undefined
          ? memberAt(body, envelope.nextCursor)
          : undefined;
      const probes = [withParameter(collection.path, parameter, 'not-a-cursor')];
      if (typeof given === 'string') {
        probes.push(withParameter(collection.path, parameter, `${given}x`));
        const other = otherFilter(list, learnedItems(context, collection));
        if (other !== undefined) {
          probes.push(withParameter(withQuery(collection.path, other), parameter, given));
        }
      }
      const failures: Failure[] = [];
      for (const path of probes) {
        const exchange = await context.client.request({ path, as });
        if (statusOf(exchange) !== 400) {
          failures.push(
            failureOf(exchange, 'A cursor the list did not give so is not refused', '400'),
          );
        }
      }
      return found(failures);
    },
  };
}

/** An exact filter at a value some item has: a list other than the unfiltered one. */
function otherFilter(
  list: DeclaredList,
  items: readonly Item[],
): Readonly<Record<string, string>> | undefined {
  for (const filter of list.filters) {
    if (filter.match !== 'exact') continue;
    const value = items.map((item) => item[filter.field]).find((one) => typeof one === 'string');
    if (typeof value === 'string' && judgeValue(filter.schema, value) === 'valid') {
      return { [filter.parameter]: value };
    }
  }
  return undefined;
}

/** Whether a cursor list declares how to ask for the page before one: a cursor, or a key. */
function declaresWayBack(
  collection: Collection,
  paging: Extract<ListPaging, { kind: 'cursor' }>,
): boolean {
  const { envelope } = collection;
  // A key names the page before an item only through a parameter of its own (ending_before).
  if (paging.keyMember !== undefined) return paging.before !== undefined;
  return envelope.kind === 'object' && envelope.previousCursor !== undefined;
}

/** The checks of a declared list's own paging; none for the interface's links (pagination.ts). */
export function pagingChecksOf(list: DeclaredList): Check[] {
  const { paging } = list.collection;
  if (paging.kind === 'links') return [];
  const maximum = list.sizeMaximum;
  return [
    walksCheck(list),
    ...(maximum === undefined || paging.kind === 'whole' ? [] : [sizeRefusedCheck(list, maximum)]),
    // A cursor that is a key names a place for any key: only opaque ones are refused.
    ...(paging.kind === 'cursor' && paging.keyMember === undefined
      ? [foreignCursorCheck(list, paging.cursor)]
      : []),
    ...(paging.kind === 'cursor' && declaresWayBack(list.collection, paging)
      ? [walksBackCheck(list, paging)]
      : []),
  ].map((check) => guarded(check, list));
}
