/**
 * @module Seeded requests to a declared list, whatever its shape: its filters at served values,
 * pieces of them, noise and empty values; a page size and a position; the parameters in any
 * order; GET or HEAD. The expected page is computed from the list walked whole.
 */
import fc from 'fast-check';
import type { Check, Failure } from '../check.ts';
import { found } from '../check.ts';
import { memberOf, viewFor, type DeclaredFilter, type DeclaredList } from '../declared.ts';
import { describeRequest, describeResponse } from '../describe-exchange.ts';
import { readerName } from '../learn.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';
import { idsOf, isFailure, readPage, someIds, type Item } from '../walk.ts';
import { guarded, sourceOf } from './declared-guard.ts';
import { keeps, mayKeep } from './filter-oracle.ts';
import { learnedItems, readerOf } from './pagination.ts';
import { pickFrom, textEdges, textMaterial, textValue } from './text-values.ts';

/** One generated request: its query pairs in the order sent, and its method. */
interface Generated {
  readonly pairs: readonly (readonly [string, string])[];
  readonly method: 'GET' | 'HEAD';
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
  return fc.oneof(
    { weight: 5, arbitrary: served.length > 0 ? pickFrom(served) : noise },
    { weight: 1, arbitrary: pieces.length > 0 ? pickFrom(pieces) : noise },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: noise },
  );
}

/** Where the page asked for starts in the whole filtered list, and how many it holds. */
function windowOf(list: DeclaredList, values: ReadonlyMap<string, string>, total: number) {
  const { paging, limits } = list.collection;
  if (paging.kind === 'whole') return { start: 0, size: total };
  const size = paging.size === undefined ? undefined : values.get(paging.size);
  const count = size === undefined ? limits.default : Number(size);
  switch (paging.kind) {
    case 'links':
      return { start: (Number(values.get('page') ?? 1) - 1) * count, size: count };
    case 'number':
      return {
        start: (Number(values.get(paging.page) ?? paging.first) - paging.first) * count,
        size: count,
      };
    case 'offset':
      return { start: Number(values.get(paging.offset) ?? 0), size: count };
    case 'cursor':
    case 'first-page':
      return { start: 0, size: count };
  }
}

/**
 * Rule (interface, the spec's declaration): a request whose values the spec takes is a 200 with
 * exactly the page the filters and paging compute from the whole list (where every correct
 * reading of the filters agrees), one with a value the spec refuses a 4xx, none a 5xx, and HEAD
 * the status GET gets. What breaks it: an empty value read as another filter, parameters read in
 * one order only, HEAD with a query answered otherwise, a page counted from the wrong place.
 */
function generatedCheck(list: DeclaredList): Check {
  const { collection } = list;
  return {
    id: `generated.${collection.name}`,
    title: `${collection.name}: generated requests get the page their filters and paging compute`,
    level: 'interface',
    source: sourceOf(collection.name, 'filters and paging'),
    needs: [],
    async run(context) {
      const whole = learnedItems(context, collection);
      if (whole.length === 0) return { failures: [], skipped: 'the list is empty' };
      const as = readerOf(context, collection);
      const view = viewFor(list.views, readerName(as));
      const valueOf = (item: Item, field: string): unknown =>
        item[(view === undefined ? undefined : memberOf(view, field)) ?? field];
      const filters = list.filters.filter(
        (filter) => view === undefined || memberOf(view, filter.field) !== undefined,
      );
      const { paging } = collection;
      const sizeName = paging.kind === 'whole' ? undefined : paging.size;
      const maxSize = Math.min(collection.limits.max, whole.length + 2);
      const position =
        paging.kind === 'number'
          ? { name: paging.page, from: paging.first }
          : paging.kind === 'links'
            ? { name: 'page', from: 1 }
            : paging.kind === 'offset'
              ? { name: paging.offset, from: 0 }
              : undefined;
      const servedOf = (filter: DeclaredFilter): string[] => [
        ...new Set(
          whole.flatMap((item) => {
            const value = valueOf(item, filter.field);
            return typeof value === 'string' || typeof value === 'number' ? [String(value)] : [];
          }),
        ),
      ];
      const parts: [string, fc.Arbitrary<string>][] = filters.map((filter) => [
        filter.parameter,
        arbitraryFilterValue(filter, servedOf(filter)),
      ]);
      // Asked on purpose before the seeded ones: each filter alone at its edges, a position with
      // a size in either order, and a filtered HEAD.
      const edges: Generated[] = filters.flatMap((filter) => {
        const served = servedOf(filter);
        const sorted = [...served].sort();
        const values =
          filter.match === 'contains'
            ? textEdges(textMaterial(served))
            : ['', ...sorted.slice(0, 1), ...sorted.slice(-1)];
        return values.map((value) => ({ pairs: [[filter.parameter, value]], method: 'GET' }));
      });
      if (sizeName !== undefined && position !== undefined) {
        const later = String(position.from + 1);
        edges.push(
          {
            pairs: [
              [position.name, later],
              [sizeName, '2'],
            ],
            method: 'GET',
          },
          {
            pairs: [
              [sizeName, '2'],
              [position.name, later],
            ],
            method: 'GET',
          },
        );
      }
      const [first] = filters;
      const firstServed = first === undefined ? undefined : servedOf(first)[0];
      if (first !== undefined && firstServed !== undefined) {
        edges.push({ pairs: [[first.parameter, firstServed]], method: 'HEAD' });
      }
      if (sizeName !== undefined) {
        parts.push([sizeName, fc.integer({ min: 1, max: maxSize }).map(String)]);
      }
      if (position !== undefined) {
        const most = position.name === 'page' || paging.kind === 'number' ? 6 : whole.length + 2;
        parts.push([
          position.name,
          fc.integer({ min: position.from, max: position.from + most }).map(String),
        ]);
      }
      const request = fc
        .tuple(
          fc.subarray(parts.map(([name, values]) => values.map((value) => [name, value] as const))),
          fc.constantFrom('GET' as const, 'GET' as const, 'HEAD' as const),
        )
        .chain(([chosen, method]) =>
          fc
            .tuple(...chosen)
            .chain((pairs) => fc.shuffledSubarray(pairs, { minLength: pairs.length }))
            .map((pairs): Generated => ({ pairs, method })),
        );
      const pathOf = (generated: Generated) => {
        const query = generated.pairs
          .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
          .join('&');
        return query === '' ? collection.path : `${collection.path}?${query}`;
      };
      const property = fc.asyncProperty(request, async (generated) => {
        const exchange = await context.client.request({
          method: generated.method,
          path: pathOf(generated),
          as,
        });
        if (exchange.kind === 'no-response') throw new Error(describeResponse(exchange));
        const got = `got ${describeResponse(exchange)}`;
        const { status } = exchange.response;
        const values = new Map(generated.pairs);
        const verdicts = filters.flatMap((filter) => {
          const raw = values.get(filter.parameter);
          if (raw === undefined) return [];
          // An empty value is read as absent or as a value by services alike.
          return [
            raw === '' && judgeValue(filter.schema, raw) !== 'invalid'
              ? 'open'
              : judgeValue(filter.schema, raw),
          ];
        });
        if (verdicts.includes('invalid')) {
          if (status >= 400 && status < 500) return;
          throw new Error(`expected a 4xx for a value the spec refuses, ${got}`);
        }
        const asked = filters.flatMap((filter) => {
          const raw = values.get(filter.parameter);
          return raw === undefined ? [] : [[filter, raw] as const];
        });
        const strict = whole.filter((item) =>
          asked.every(([filter, raw]) => keeps(filter, valueOf(item, filter.field), raw)),
        );
        const loose = whole.filter((item) =>
          asked.every(([filter, raw]) => mayKeep(filter, valueOf(item, filter.field), raw)),
        );
        const window = windowOf(list, values, strict.length);
        if (status !== 200) {
          if (verdicts.includes('open') && status >= 400 && status < 500) return;
          // A page past the end may be a 404 (an open point of the interface's too).
          if (status === 404 && window.start > 0 && window.start >= loose.length) return;
          throw new Error(`expected 200 for a request the spec takes, ${got}`);
        }
        if (generated.method === 'HEAD' || verdicts.includes('open')) return;
        const page = readPage(exchange, collection.envelope);
        if (isFailure(page)) throw new Error(`${page.message}; ${got}`);
        const gotIds = idsOf(collection, page.data);
        if (page.data.length > window.size) {
          throw new Error(
            `${String(page.data.length)} items on a page of ${String(window.size)}; ${got}`,
          );
        }
        const looseIds = new Set(idsOf(collection, loose));
        const foreign = gotIds.filter((id) => !looseIds.has(id));
        if (foreign.length > 0) {
          throw new Error(`items the filters do not keep: ${someIds(foreign)}; ${got}`);
        }
        // Past the end the interface leaves a page open (empty, or a 404), as pagination.ts does.
        if (strict.length !== loose.length || (window.start > 0 && window.start >= loose.length)) {
          return;
        }
        const expected = idsOf(collection, strict.slice(window.start, window.start + window.size));
        if (JSON.stringify(gotIds) !== JSON.stringify(expected)) {
          throw new Error(
            `expected the items ${someIds(expected, 8)} (${String(expected.length)}), got ${someIds(gotIds, 8)} (${String(gotIds.length)})`,
          );
        }
      });
      const details = await fc.check(property, {
        seed: context.seed,
        numRuns: context.runs,
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
          url: context.client.prepare({ path: pathOf(counterexample), as }).url,
          as,
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
