/**
 * @module Seeded requests to a declared list, whatever its shape: its filters at served values,
 * pieces of them, noise and empty values; a page size and a position; the parameters in any
 * order and any spelling a client may write; GET or HEAD; every level, and none, one after
 * another over the same kept-alive connections. The expected answer is the model's
 * (oracle/declared-page.ts), computed from the list learned whole at each level.
 */
import fc from 'fast-check';
import type { Check, CheckContext, Failure } from '../check.ts';
import { found } from '../check.ts';
import type { DeclaredFilter, DeclaredList } from '../declared.ts';
import { describeRequest, describeResponse } from '../describe-exchange.ts';
import { readerName, readersOf } from '../learn.ts';
import {
  expectedAnswer,
  listModel,
  pageDiffers,
  positionOf,
  type ListModel,
  type ListRequest,
} from '../oracle/declared-page.ts';
import type { Credentials, Exchange } from '../target-client.ts';
import { isFailure, readPage } from '../walk.ts';
import { guarded, sourceOf } from './declared-guard.ts';
import { headDiffers } from './http-rules.ts';
import { everyOctet, pickFrom, textEdges, textMaterial, textValue } from './text-values.ts';

/** How a query is written: as most clients do, spaces as `+`, or every octet percent-encoded. */
type Spelling = 'standard' | 'plus' | 'every-octet';

interface Generated extends ListRequest {
  readonly spelling: Spelling;
}

/**
 * Values a filter is asked with: for a `contains` filter, pieces of the served texts of any
 * length from any code point, the longest past their end, each rarer character alone
 * (text-values.ts); for the others, served ones, pieces of them, an empty one, noise.
 */
function arbitraryFilterValue(
  filter: DeclaredFilter,
  served: readonly string[],
): fc.Arbitrary<string> {
  if (filter.match === 'contains') return textValue(textMaterial(served));
  const noise = fc.string({ maxLength: 4 });
  const pieces = served.filter((text) => text.length > 2).map((text) => text.slice(1, -1));
  const otherCase = served.map(inOtherCase).filter((text) => !served.includes(text));
  return fc.oneof(
    { weight: 5, arbitrary: served.length > 0 ? pickFrom(served) : noise },
    { weight: 1, arbitrary: pieces.length > 0 ? pickFrom(pieces) : noise },
    { weight: 1, arbitrary: otherCase.length > 0 ? pickFrom(otherCase) : noise },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: noise },
  );
}

/** A served text in the other case: upper, or lower where it is all upper already. */
function inOtherCase(text: string): string {
  return text === text.toUpperCase() ? text.toLowerCase() : text.toUpperCase();
}

/**
 * The orders a declared sort is asked for: each its schema lists, or each field up and down,
 * and two fields at once where the schema takes them.
 */
function sortValues(list: DeclaredList): string[] {
  const { sort } = list;
  if (sort === undefined) return [];
  if (Array.isArray(sort.schema.enum)) return sort.schema.enum.map(String);
  const single = sort.fields.flatMap((field) => [field, `-${field}`]);
  const [first, second] = sort.fields;
  return second === undefined || first === undefined
    ? single
    : [...single, `${first},-${second}`, `-${second},${first}`];
}

function spelled(text: string, spelling: Spelling): string {
  if (spelling === 'every-octet') return everyOctet(text);
  const standard = encodeURIComponent(text);
  return spelling === 'plus' ? standard.replaceAll('%20', '+') : standard;
}

function pathOf(list: DeclaredList, generated: Generated): string {
  const query = generated.pairs
    .map(
      ([name, value]) =>
        `${spelled(name, generated.spelling)}=${spelled(value, generated.spelling)}`,
    )
    .join('&');
  return query === '' ? list.collection.path : `${list.collection.path}?${query}`;
}

/** The served values of a filtered field, as text. */
function servedOf(model: ListModel, filter: DeclaredFilter): string[] {
  return [
    ...new Set(
      model.learned.items.flatMap((item) => {
        const value = model.valueOf(item, filter.field);
        return typeof value === 'string' || typeof value === 'number' ? [String(value)] : [];
      }),
    ),
  ];
}

/**
 * Asked on purpose before the seeded ones: each filter alone at its edges; a position with a
 * size in either order; each level with a filter at a served value, then the same without a
 * token over the connection it used; a filtered HEAD.
 */
function edgeRequests(model: ListModel, readers: readonly Credentials[]): Generated[] {
  const { list } = model;
  const [reader = 'none'] = readers;
  const at = (
    pairs: readonly (readonly [string, string])[],
    as: Credentials = reader,
    method: 'GET' | 'HEAD' = 'GET',
  ): Generated => ({ pairs, as, method, spelling: 'standard' });
  const edges = model.filters.flatMap((filter) => {
    const served = servedOf(model, filter);
    const sorted = [...served].sort();
    const values =
      filter.match === 'contains'
        ? textEdges(textMaterial(served))
        : [
            '',
            ...sorted.slice(0, 1),
            ...sorted.slice(-1),
            ...mostPrecise(served),
            ...sorted.slice(0, 1).map(inOtherCase),
          ];
    return values.map((value) => at([[filter.parameter, value]]));
  });
  const { paging } = list.collection;
  const sizeName = paging.kind === 'whole' ? undefined : paging.size;
  const position = positionOf(list);
  if (sizeName !== undefined && position !== undefined) {
    const later = String(position.from + 1);
    const size = Math.max(
      1,
      Math.min(list.collection.limits.max, Math.ceil(model.learned.items.length / 3)),
    );
    const pages = Math.ceil(model.learned.items.length / size);
    // The last page, the one just past it, and one far past it, each with its numbers and links.
    for (const page of [pages - 1, pages, pages + 5]) {
      edges.push(
        at([
          [sizeName, String(size)],
          [position.name, String(position.from + (paging.kind === 'offset' ? page * size : page))],
        ]),
      );
    }
    edges.push(
      at([
        [position.name, later],
        [sizeName, '2'],
      ]),
      at([
        [sizeName, '2'],
        [position.name, later],
      ]),
    );
  }
  const [first] = model.filters;
  const served = first === undefined ? undefined : servedOf(model, first)[0];
  if (first !== undefined && served !== undefined) {
    for (const as of [...readers, ...(list.open ? [] : (['none', 'wrong'] as const))]) {
      edges.push(at([[first.parameter, served]], as));
    }
    edges.push(at([[first.parameter, served]], reader, 'HEAD'));
  }
  const { sort } = list;
  if (sort !== undefined) {
    for (const as of readers) {
      for (const order of sortValues(list)) edges.push(at([[sort.parameter, order]], as));
    }
  }
  return edges;
}

/**
 * Decimal edges: served numbers that binary floating point does not scale to whole units
 * exactly (19.99 × 100 is 1998.9999999999998) first, then those with the most decimals: where a
 * bound compared in whole cents or in binary goes wrong.
 */
const PRECISE_EDGES = 12;

function mostPrecise(served: readonly string[]): string[] {
  const decimals = (text: string) => /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
  const inexact = (text: string) => !Number.isInteger(Number(text) * 10 ** decimals(text));
  return served
    .filter((text) => decimals(text) > 0 && Number.isFinite(Number(text)))
    .sort((a, b) => Number(inexact(b)) - Number(inexact(a)) || decimals(b) - decimals(a))
    .slice(0, PRECISE_EDGES);
}

/** Seeded requests: any subset of the parameters, shuffled, by any level, in any spelling. */
function arbitraryRequest(
  model: ListModel,
  readers: readonly Credentials[],
): fc.Arbitrary<Generated> {
  const { list, learned } = model;
  const { collection } = list;
  const { paging } = collection;
  const parts: [string, fc.Arbitrary<string>][] = model.filters.map((filter) => [
    filter.parameter,
    arbitraryFilterValue(filter, servedOf(model, filter)),
  ]);
  if (paging.kind !== 'whole' && paging.size !== undefined) {
    const most = Math.min(collection.limits.max, learned.items.length + 2);
    parts.push([paging.size, fc.integer({ min: 1, max: most }).map(String)]);
  }
  const orders = sortValues(list);
  if (list.sort !== undefined && orders.length > 0)
    parts.push([list.sort.parameter, pickFrom(orders)]);
  const position = positionOf(list);
  if (position !== undefined) {
    const most = paging.kind === 'offset' ? learned.items.length + 2 : 6;
    parts.push([
      position.name,
      fc.integer({ min: position.from, max: position.from + most }).map(String),
    ]);
  }
  const askers: Credentials[] = [...readers, ...readers];
  if (!list.open) askers.push('none', 'wrong');
  return fc
    .tuple(
      fc.subarray(parts.map(([name, values]) => values.map((value) => [name, value] as const))),
      fc.constantFrom('GET' as const, 'GET' as const, 'HEAD' as const),
      fc.constantFrom(...askers),
      fc.constantFrom<Spelling>('standard', 'standard', 'plus', 'every-octet'),
      fc.boolean(),
    )
    .chain(([chosen, method, as, spelling, twice]) =>
      fc
        .tuple(...chosen)
        .map((pairs) => (twice && pairs[0] !== undefined ? [...pairs, pairs[0]] : pairs))
        .chain((pairs) => fc.shuffledSubarray(pairs, { minLength: pairs.length }))
        .map((pairs): Generated => ({ pairs, method, as, spelling })),
    );
}

/** Why the answer to `generated` is not the model's, or undefined where it is. */
async function judge(
  context: CheckContext,
  model: ListModel,
  generated: Generated,
): Promise<string | undefined> {
  const { list } = model;
  const path = pathOf(list, generated);
  let exchange: Exchange = await context.client.request({
    method: generated.method,
    path,
    as: generated.as,
  });
  if (generated.method === 'HEAD') {
    const asGet = await context.client.request({ path, as: generated.as });
    const differs = headDiffers(exchange, asGet);
    if (differs !== undefined) return differs;
    exchange = asGet;
  }
  if (exchange.kind === 'no-response') return describeResponse(exchange);
  const got = `got ${describeResponse(exchange)}`;
  const { status } = exchange.response;
  const clientError = status >= 400 && status < 500;
  const expected = expectedAnswer(model, generated);
  switch (expected.kind) {
    case 'unauthorized': {
      if (status === 401) return undefined;
      // Whether a token or a value is judged first is the service's to choose.
      const asReader = expectedAnswer(model, { ...generated, as: model.learned.holder ?? 'none' });
      if (asReader.kind !== 'page' && clientError) return undefined;
      return `expected 401 for a request ${generated.as === 'none' ? 'without a token' : 'with a token the service does not know'}, ${got}`;
    }
    case 'refused':
      return clientError ? undefined : `expected a 4xx for a value the spec refuses, ${got}`;
    case 'open':
      return clientError || status === 200 ? undefined : `expected 200 or a 4xx, ${got}`;
    case 'page': {
      if (status !== 200) {
        // A page past the end may be a 4xx (an open point of the interface's too).
        if (expected.agreed?.pastTheEnd === true && clientError) return undefined;
        return `expected 200 for a request the spec takes, ${got}`;
      }
      const page = readPage(exchange, list.collection.envelope);
      if (isFailure(page)) return `${page.message}; ${got}`;
      const differs = pageDiffers(list, expected, page);
      return differs === undefined ? undefined : `${differs}; ${got}`;
    }
  }
}

/**
 * Rule (interface, the spec's declaration): each request gets the answer the model computes
 * from the list learned whole: a 200 with exactly the page the filters and paging give, each
 * item as the asking level sees it, the envelope's numbers and links naming the right pages
 * (where every correct reading agrees); a 4xx for a value the spec refuses; a 401 without a
 * known token; HEAD as GET. What breaks it: an empty value read as another filter, parameters
 * read in one order or one spelling only, a view that leaks on filtered lists, a total counted
 * before a filter, a page number clamped, a level kept for a connection.
 */
function generatedCheck(list: DeclaredList): Check {
  const { collection } = list;
  return {
    id: `generated.${collection.name}`,
    title: `${collection.name}: generated requests get the answer the list learned whole computes (items, views, numbers, links, statuses)`,
    level: 'interface',
    source: sourceOf(collection.name, 'filters, views and paging'),
    needs: [],
    async run(context) {
      const learned = context.learned.declared.get(collection.path);
      if (learned === undefined || learned.items.length === 0) {
        return { failures: [], skipped: 'the list is empty' };
      }
      const model = listModel(list, learned);
      const readers = readersOf(list, context.holders).filter((as) =>
        learned.byLevel.has(readerName(as)),
      );
      const property = fc.asyncProperty(arbitraryRequest(model, readers), async (generated) => {
        const differs = await judge(context, model, generated);
        if (differs !== undefined) throw new Error(differs);
      });
      const edges = edgeRequests(model, readers);
      // fast-check counts the examples among the runs.
      const details = await fc.check(property, {
        seed: context.seed,
        numRuns: edges.length + context.runs,
        examples: edges.map((request) => [request]),
      });
      const counterexample = details.counterexample?.[0];
      if (!details.failed || counterexample === undefined) {
        return found([], `${String(context.runs)} requests`);
      }
      const failure: Failure = {
        message: `A generated request failed (seed ${String(details.seed)}, shrunk ${String(details.numShrinks)} times; replay with --seed ${String(details.seed)})`,
        request: describeRequest({
          method: counterexample.method,
          url: context.client.prepare({ path: pathOf(list, counterexample), as: counterexample.as })
            .url,
          as: counterexample.as,
        }),
        actual:
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance),
      };
      return found([failure]);
    },
  };
}

/** The generated requests of each declared list. */
export function generatedDeclaredChecks(lists: readonly DeclaredList[]): Check[] {
  return lists.map((list) => guarded(generatedCheck(list), list));
}
