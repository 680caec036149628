/**
 * @module Seeded requests to a list, the interface's or a declared one, whatever its shape: its
 * filters at served values, pieces of them, noise and empty values; a page size and a position;
 * the parameters in any order and any spelling a client may write; GET or HEAD; every level,
 * and none, one after another over the same kept-alive connections. The expected answer is the
 * model's (oracle/declared-page.ts), computed from the list learned whole at each level.
 */
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { interfaceLists, interfaceModel } from '../interface-lists.ts';
import type { Check, CheckContext, Failure, Level } from '../check.ts';
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
import { followable, idsOf, isFailure, LINK_NAMES, readPage, type ListPage } from '../walk.ts';
import { guarded, sourceOf } from './declared-guard.ts';
import { answerRuleFindings, headDiffers } from './http-rules.ts';
import { keeps } from '../oracle/filters.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';
import { isText } from '../oracle/sort-order.ts';
import { probeValues } from './probe-values.ts';
import { everyOctet, pickFrom, textEdges, textMaterial, textValue } from './text-values.ts';

/** How a query is written: as most clients do, spaces as `+`, or every octet percent-encoded. */
type Spelling = 'standard' | 'plus' | 'every-octet';

interface Generated extends ListRequest {
  /** `as-typed`: sent as written, a malformed escape a client may type. */
  readonly spelling: Spelling | 'as-typed';
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
  const otherCase = otherCases(filter, served);
  return fc.oneof(
    { weight: 5, arbitrary: served.length > 0 ? pickFrom(served) : noise },
    { weight: 1, arbitrary: pieces.length > 0 ? pickFrom(pieces) : noise },
    { weight: 1, arbitrary: otherCase.length > 0 ? pickFrom(otherCase) : noise },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: noise },
  );
}

/**
 * Served texts in the other case, where the schema takes them: a value an `enum` lists in one
 * case only is a negative probe's to send (and the interface leaves its case open).
 */
function otherCases(filter: DeclaredFilter, served: readonly string[]): string[] {
  if (Array.isArray(filter.schema.enum)) return [];
  const known = new Set(served);
  return served.map(inOtherCase).filter((text) => !known.has(text));
}

/** A served text in the other case: upper, or lower where it is all upper already. */
function inOtherCase(text: string): string {
  return text === text.toUpperCase() ? text.toLowerCase() : text.toUpperCase();
}

/**
 * The orders a declared sort is asked for: each its schema lists; or each field up and down, and
 * two at once, a field with few values and then one with many descending (so that the second
 * key decides ties), where the schema takes them.
 */
function sortValues(model: ListModel): string[] {
  const { sort } = model.list;
  if (sort === undefined) return [];
  if (Array.isArray(sort.schema.enum)) return sort.schema.enum.map(String);
  const distinct = (field: string) =>
    new Set(model.learned.items.map((item) => JSON.stringify(model.valueOf(item, field)))).size;
  const ranked = sort.fields
    // Keys the interface orders: text has no order it fixes.
    .filter((field) => !isText(model.list.record.schemas.get(field)))
    .filter((field) => model.shows(field) && distinct(field) > 1)
    .sort((a, b) => distinct(a) - distinct(b));
  const [few, many] = [ranked[0], ranked.at(-1)];
  const pair = few === undefined || many === undefined || few === many ? [] : [`${few},-${many}`];
  return [...sort.fields.flatMap((field) => [field, `-${field}`]), ...pair].filter(
    (order) => judgeValue(sort.schema, order) !== 'invalid',
  );
}

function spelled(text: string, spelling: Generated['spelling']): string {
  if (spelling === 'as-typed') return text;
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
        return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? [String(value)]
          : [];
      }),
    ),
  ];
}

/** The answer's paging parameters at a few items a page, on the page after the first. */
export function laterPage(list: DeclaredList, kept: number): [string, string][] {
  const { paging } = list.collection;
  const position = positionOf(list);
  if (paging.kind === 'whole' || paging.size === undefined || position === undefined) return [];
  const size = Math.max(1, Math.floor(kept / 3));
  const later = paging.kind === 'offset' ? size : position.from + 1;
  return [
    [paging.size, String(size)],
    [position.name, String(later)],
  ];
}

/**
 * Asked on purpose before the seeded ones: each filter alone at its edges (bounds, values its
 * schema refuses) and at the values that tell a working filter from a broken one
 * (probe-values.ts), each of these on a later page too, where its links must keep it; an array
 * filter at two values; every two filters at once, in either order; the last pages at the sizes
 * that leave one item, a full page or one short; each bound of the size and the position; each
 * level with each filter, then no token and a wrong one over the same connections; a filtered
 * HEAD; malformed escapes as typed; the declared sort's orders.
 */
function edgeRequests(model: ListModel, readers: readonly Credentials[]): Generated[] {
  const { list } = model;
  const [reader = 'none'] = readers;
  const at = (
    pairs: readonly (readonly [string, string])[],
    as: Credentials = reader,
    method: 'GET' | 'HEAD' = 'GET',
  ): Generated => ({ pairs, as, method, spelling: 'standard' });
  const servedBy = new Map(
    model.filters.map((filter) => [
      filter,
      model.learned.items.map((item) => model.valueOf(item, filter.field)),
    ]),
  );
  const values = (filter: DeclaredFilter) => servedBy.get(filter) ?? [];
  const keys = idsOf(list.collection, model.learned.items).filter((key) => key !== undefined);
  const keptBy = (filter: DeclaredFilter, text: string) =>
    values(filter).filter((value) => keeps(filter, value, text)).length;
  const probes = new Map(
    model.filters.map((filter) => [
      filter,
      probeValues(filter, values(filter), keys).filter(
        (text) => judgeValue(filter.schema, text) === 'valid',
      ),
    ]),
  );
  const edges = model.filters.flatMap((filter) => {
    const served = servedOf(model, filter);
    const sorted = [...served].sort();
    const texts =
      filter.match === 'contains'
        ? textEdges(textMaterial(served))
        : [
            '',
            ...boundsOf(filter.schema),
            ...notOfSchema(filter.schema),
            ...mostPrecise(served),
            ...otherCases(filter, sorted.slice(0, 1)),
          ];
    const probed = (probes.get(filter) ?? []).flatMap((text) => {
      const pair = [filter.parameter, text] as const;
      return [at([pair]), at([pair, ...laterPage(list, keptBy(filter, text))])];
    });
    const [a, b] = (probes.get(filter) ?? []).filter((text) => keptBy(filter, text) > 0);
    const { items } = filter;
    const anyOf =
      filter.schema.type !== 'array' || a === undefined || b === undefined
        ? []
        : [
            at(
              items.explode
                ? [
                    [filter.parameter, a],
                    [filter.parameter, b],
                  ]
                : [[filter.parameter, `${a}${items.separator}${b}`]],
            ),
          ];
    return [...texts.map((text) => at([[filter.parameter, text]])), ...probed, ...anyOf];
  });
  // Every two filters, each at a value that narrows the list: AND, on every page.
  // Once per filter: each pair of filters and each level asks for it again.
  const narrowed = new Map(
    model.filters.map((filter) => [
      filter,
      (probes.get(filter) ?? []).find((text) => {
        const kept = keptBy(filter, text);
        return kept > 0 && kept < model.learned.items.length;
      }),
    ]),
  );
  const narrowing = (filter: DeclaredFilter) => narrowed.get(filter);
  for (const [index, one] of model.filters.entries()) {
    for (const other of model.filters.slice(index + 1)) {
      const [x, y] = [narrowing(one), narrowing(other)];
      if (x === undefined || y === undefined) continue;
      const pair: [string, string][] = [
        [one.parameter, x],
        [other.parameter, y],
      ];
      edges.push(at(pair), at([...pair].reverse().concat(laterPage(list, 2))));
    }
  }
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
    // The page before the last and the last, at each size that leaves one item, a full page
    // or one short on the last page, of the whole list and of a part a filter keeps.
    const [filter] = model.filters;
    const part = filter === undefined ? undefined : narrowing(filter);
    const parts: [readonly (readonly [string, string])[], number][] = [
      [[], model.learned.items.length],
    ];
    if (filter !== undefined && part !== undefined) {
      parts.push([[[filter.parameter, part]], keptBy(filter, part)]);
    }
    for (const [query, kept] of parts) {
      for (const size of remainderSizes(kept, list.collection.limits.max)) {
        const pages = Math.ceil(kept / size);
        for (const page of [pages - 1, pages]) {
          const place = paging.kind === 'offset' ? (page - 1) * size : position.from + page - 1;
          edges.push(at([...query, [sizeName, String(size)], [position.name, String(place)]]));
        }
      }
    }
    // Pages past 2^31 and 2^53 − 1: past the end of any list, where a page number read into
    // a machine integer wraps (to page 1, which has a next page) or overflows.
    const places = ['', String(position.from - 1), String(position.from), '-1', 'x'];
    const far = ['2147483648', '4294967297', '9007199254740991'];
    edges.push(...[...places, ...far].map((place) => at([[position.name, place]])));
  }
  // Each bound of the size and the values around it; leading zeros; a fraction, a sign, text.
  if (sizeName !== undefined) {
    const { max } = list.collection.limits;
    const sizes = [
      '',
      '0',
      '-1',
      '1.5',
      'ten',
      '1',
      `0${String(Math.min(max, 8) + 2)}`,
      String(max),
      ...(list.sizeMaximum === undefined ? [] : [String(max + 1)]),
    ];
    edges.push(...sizes.map((size) => at([[sizeName, size]])));
  }
  // Each level with each filter at a value that narrows the list: a view that leaks only under
  // a filter shows there. Then the first again without a known token, on the same connections.
  for (const filter of model.filters) {
    const text = narrowing(filter);
    if (text === undefined) continue;
    for (const as of readers) edges.push(at([[filter.parameter, text]], as));
  }
  const [first] = model.filters;
  const served = first === undefined ? undefined : servedOf(model, first)[0];
  if (first !== undefined && served !== undefined) {
    for (const as of [...readers, ...(list.open ? [] : (['none', 'wrong'] as const))]) {
      edges.push(at([[first.parameter, served]], as));
    }
    edges.push(at([[first.parameter, served]], reader, 'HEAD'));
  }
  // Malformed escapes as a client may type them: a 4xx or the text as written, never a 5xx.
  // And an empty needle on the largest page: every item that has the field, at least.
  for (const filter of model.filters.filter((one) => one.match === 'contains')) {
    for (const typed of MALFORMED) {
      edges.push({ ...at([[filter.parameter, typed]]), spelling: 'as-typed' });
    }
    if (sizeName !== undefined) {
      edges.push(
        at([
          [filter.parameter, ''],
          [sizeName, String(list.collection.limits.max)],
        ]),
      );
    }
  }
  // Each order by each level, and on a later page at a few items a page: a sort applied page
  // by page, or dropped by the links, shows only there.
  const { sort } = list;
  if (sort !== undefined) {
    for (const order of sortValues(model)) {
      for (const as of readers) edges.push(at([[sort.parameter, order]], as));
      edges.push(at([[sort.parameter, order], ...laterPage(list, model.learned.items.length)]));
    }
  }
  return edges;
}

/**
 * Each bound a numeric schema sets and its outer neighbour, as text: exact past 2^53, where a
 * service that reads the value into a machine integer overflows.
 */
function boundsOf(schema: OpenAPIV3_1.SchemaObject): string[] {
  if (schema.type !== 'integer' && schema.type !== 'number') return [];
  const beyond = (bound: number, step: 1 | -1) =>
    Number.isInteger(bound) ? String(BigInt(bound) + BigInt(step)) : String(bound + step);
  return [
    ...(schema.minimum === undefined ? [] : [String(schema.minimum), beyond(schema.minimum, -1)]),
    ...(schema.maximum === undefined ? [] : [String(schema.maximum), beyond(schema.maximum, 1)]),
  ];
}

/**
 * Page sizes that leave each remainder on the last page of `total` items: exactly one item (a
 * `next` computed by rounding down drops it), exactly full (an extra empty page follows), one
 * short of full; the largest such size up to `max`, so that the pages are few.
 */
export function remainderSizes(total: number, max: number): number[] {
  const largest = (fits: (size: number) => boolean, from = 2) => {
    for (let size = Math.min(max, total - 1); size >= from; size -= 1) if (fits(size)) return size;
    return undefined;
  };
  return [
    largest((size) => total % size === 1),
    largest((size) => total % size === 0),
    largest((size) => total % size === size - 1, 3),
  ].filter((size) => size !== undefined);
}

/** A value the schema refuses by its type or its enum: a 4xx, never a filter read loosely. */
function notOfSchema(schema: OpenAPIV3_1.SchemaObject): string[] {
  if (Array.isArray(schema.enum)) return ['not-listed'];
  return schema.type === 'integer' || schema.type === 'number' ? ['abc'] : [];
}

/** Escapes a client may type by mistake: a bare `%`, one that is no hex, cut UTF-8, no UTF-8. */
const MALFORMED = ['100%', '%zz', '%E2%82', '%FF'];

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
  const orders = sortValues(model);
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

/**
 * A filtered page's `next` leads to the page it names, as the service reads it back: a link
 * that writes a space as `+` for a service that reads `+` literally, or encodes a value twice,
 * keeps the filter in its query and loses it in the answer.
 */
async function followNext(
  context: CheckContext,
  model: ListModel,
  generated: Generated,
  page: ListPage,
): Promise<string | undefined> {
  const filtered = generated.pairs.some(([name]) =>
    model.filters.some((filter) => filter.parameter === name),
  );
  const next = page.links.next;
  // A cursor's page is the walk's to judge: the model places pages by number or offset only.
  if (!filtered || next === null || positionOf(model.list) === undefined) return undefined;
  const url = followable(context.client, 'next', next, page);
  if (typeof url !== 'string') return url.message;
  const pairs = [...new URL(url).searchParams];
  const followed = { pairs, method: 'GET', as: generated.as, spelling: 'standard' } as const;
  const differs = await judge(context, model, followed, url);
  return differs === undefined ? undefined : `following links.next (${url}): ${differs}`;
}

/** A link a client may not follow: off the target's origin (and any trusted), or no URL. */
function offOrigin(context: CheckContext, page: ListPage): string | undefined {
  const refused = LINK_NAMES.flatMap((name) => {
    const link = page.links[name];
    const followed = link === null ? '' : followable(context.client, name, link, page);
    return typeof followed === 'string' ? [] : [followed.message];
  });
  return refused.length === 0 ? undefined : refused.join('; ');
}

/** Why the answer to `generated` is not the model's, or undefined where it is. */
async function judge(
  context: CheckContext,
  model: ListModel,
  generated: Generated,
  /** Where a link led, rather than the path the request's pairs make. */
  linked?: string,
): Promise<string | undefined> {
  const { list } = model;
  const path = linked ?? pathOf(list, generated);
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
  if (generated.spelling === 'as-typed') {
    const broken = answerRuleFindings(exchange);
    return broken.length === 0 ? undefined : `${broken.join('; ')}; ${got}`;
  }
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
        if ((expected.agreed?.pastTheEnd === true || expected.mayRefuse) && clientError) {
          return undefined;
        }
        return `expected 200 for a request the spec takes, ${got}`;
      }
      const page = readPage(exchange, list.collection.envelope);
      if (isFailure(page)) return `${page.message}; ${got}`;
      const differs = pageDiffers(list, expected, page) ?? offOrigin(context, page);
      if (differs !== undefined) return `${differs}; ${got}`;
      return linked === undefined ? followNext(context, model, generated, page) : undefined;
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
function generatedCheck(
  list: DeclaredList,
  head: { readonly id: string; readonly level: Level; readonly source: string },
  modelOf: (context: CheckContext) => ListModel | undefined,
): Check {
  const { collection } = list;
  const own = head.level === 'stand-in' ? ", with the stand-in's filters" : '';
  return {
    ...head,
    title: `${collection.path}: generated requests get the answer the list learned whole computes (items, views, numbers, links, statuses)${own}`,
    needs: [],
    async run(context) {
      const model = modelOf(context);
      if (model === undefined) return { failures: [], skipped: 'the list is empty' };
      const { learned } = model;
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
        const unjudged = list.filters.filter((filter) => !model.filters.includes(filter));
        return found(
          [],
          `${String(edges.length + context.runs)} requests` +
            (unjudged.length === 0
              ? ''
              : `; not judged: ${unjudged.map((filter) => filter.parameter).join(', ')} (no level with a token sees ${[...new Set(unjudged.map((filter) => filter.field))].join(', ')}, so what they keep cannot be told)`),
        );
      }
      return found([
        {
          message: `A generated request failed (seed ${String(details.seed)}, shrunk ${String(details.numShrinks)} times; replay with --seed ${String(details.seed)})`,
          request: described(context, list, counterexample),
          actual:
            details.errorInstance instanceof Error
              ? details.errorInstance.message
              : String(details.errorInstance),
        },
      ]);
    },
  };
}

function described(context: CheckContext, list: DeclaredList, request: Generated): string {
  const { method, as } = request;
  const { url } = context.client.prepare({ path: pathOf(list, request), as });
  return describeRequest({ method, url, as });
}

/** The requests a model answers otherwise than the target, each with why: for a few requests. */
export async function judgedRequests(
  context: CheckContext,
  model: ListModel,
  requests: readonly ListRequest[],
): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (const request of requests) {
    const generated = { ...request, spelling: 'standard' } as const;
    const differs = await judge(context, model, generated);
    if (differs !== undefined) {
      failures.push({ message: differs, request: described(context, model.list, generated) });
    }
  }
  return failures;
}

/** A generated check's id: the list's, and `.filters` for the stand-in's own filters. */
function headOf(list: DeclaredList, level: Level, source: string) {
  const suffix = level === 'stand-in' ? '.filters' : '';
  return { id: `generated.${list.collection.name}${suffix}`, level, source };
}

/** The generated requests of each declared list. */
export function generatedDeclaredChecks(lists: readonly DeclaredList[]): Check[] {
  return lists.map((list) =>
    guarded(
      generatedCheck(
        list,
        headOf(list, 'interface', sourceOf(list.collection.name, 'filters, views and paging')),
        (context) => {
          const learned = context.learned.declared.get(list.collection.path);
          return learned === undefined || learned.items.length === 0
            ? undefined
            : listModel(list, learned);
        },
      ),
      list,
    ),
  );
}

/** The generated requests of the interface's two lists. */
export function generatedInterfaceChecks(spec: OpenAPIV3_1.Document): Check[] {
  return interfaceLists(spec).map(({ list, level, source }) =>
    generatedCheck(list, headOf(list, level, source), (context) =>
      interfaceModel(list, context.learned, context.primary),
    ),
  );
}
