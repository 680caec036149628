/**
 * Sorting a list by declared fields (issue 38, item 4), held to its definition: compare the first
 * key's values (numbers by value, dates as instants, text by code point, false before true),
 * reversed when descending, records without a value last either way; then the next key; then
 * the key order. The definition is written here, apart from the ranks the engine sorts by.
 */
import fc from 'fast-check';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { byCodePoints } from '../helpers/code-points.ts';
import { buildCollection } from '../../src/dataset/build-collection.ts';
import { collectionFromData } from '../../src/dataset/collection.ts';
import { buildEngineIndexData } from '../../src/query/engine-index.ts';
import { createIndexedEngine, SERVING_TUNING } from '../../src/query/indexed-engine.ts';
import { keyAt } from '../../src/query/keys.ts';
import type { Condition } from '../../src/query/query.ts';
import { rankCount, sortPositions, type SortKey } from '../../src/query/sort.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { itemsDeclaration } from '../helpers/datasets.ts';

const DECLARATION = itemsDeclaration({
  amount: 'number',
  at: 'date',
  name: 'string',
  paid: 'boolean',
  group: 'integer',
  tag: 'string',
});
type Field = 'amount' | 'at' | 'name' | 'paid' | 'id';

const arbitraryAt = fc
  .tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom('Z', '+01:00', '-02:30'))
  .map(([minutes, offset]) => {
    const shift = offset === 'Z' ? 0 : offset === '+01:00' ? 60 : -150;
    const local = new Date(Date.UTC(2024, 0, 1) + (minutes + shift) * 60_000);
    return `${local.toISOString().slice(0, 19)}${offset}`;
  });

const arbitraryRecords = fc
  .array(
    fc.record(
      {
        // Few distinct values, so that ties are common and the next key decides.
        amount: fc.constantFrom(0, 1.5, 2, 10, -3, 2.25),
        at: arbitraryAt,
        name: fc.constantFrom('a', 'B', 'b', 'é', '\u{1f600}', '\uff5e', 'ab', ''),
        paid: fc.boolean(),
        // Filtered on: groups of a few records each (a filter of few matches is sorted on its
        // own, one of many read off the whole order), and tags a `contains` needle finds in part.
        group: fc.integer({ min: 0, max: 39 }),
        tag: fc.constantFrom('red', 'Red oak', 'green', 'oaken', ''),
      },
      { requiredKeys: [] },
    ),
    { minLength: 20, maxLength: 120 },
  )
  .map((records) => records.map((record, index) => ({ id: (index * 7) % 211, ...record })))
  .map((records) => [...new Map(records.map((record) => [record.id, record])).values()]);

const arbitraryKeys = fc
  .uniqueArray(fc.constantFrom<Field>('amount', 'at', 'name', 'paid', 'id'), {
    minLength: 1,
    maxLength: 3,
  })
  .chain((fields) =>
    fc.tuple(...fields.map((field) => fc.boolean().map((descending) => ({ field, descending })))),
  );

/** A filter as a list declares one, and whether a record meets it, by definition. */
interface Filter {
  readonly condition: Condition;
  readonly holds: (row: Row) => boolean;
}

const arbitraryFilters: fc.Arbitrary<Filter[]> = fc.array(
  fc.oneof(
    fc.integer({ min: 0, max: 39 }).map((group): Filter => ({
      condition: { field: 'group', match: 'exact', value: group },
      holds: (row) => row['group'] === group,
    })),
    fc.integer({ min: 0, max: 39 }).map((group): Filter => ({
      condition: { field: 'group', match: 'min', value: group },
      holds: (row) => typeof row['group'] === 'number' && row['group'] >= group,
    })),
    fc.constantFrom('oak', 'RED', 'e').map((needle): Filter => ({
      condition: { field: 'tag', match: 'contains', value: needle },
      holds: (row) =>
        typeof row['tag'] === 'string' && row['tag'].toLowerCase().includes(needle.toLowerCase()),
    })),
    fc.integer({ min: 0, max: 120 }).map((id): Filter => ({
      condition: { field: 'id', match: 'max', value: id },
      holds: (row) => row.id <= id,
    })),
  ),
  { maxLength: 2 },
);

type Row = Readonly<Record<string, unknown>> & { readonly id: number };

function compareValues(field: Field, a: unknown, b: unknown): number {
  if (field === 'at') return Date.parse(a as string) - Date.parse(b as string);
  if (field === 'name') return byCodePoints(a as string, b as string);
  return Number(a) - Number(b);
}

function definition(rows: readonly Row[], keys: readonly SortKey[]): number[] {
  return [...rows]
    .sort((a, b) => {
      for (const { field, descending } of keys) {
        const [x, y] = [a[field], b[field]];
        if (x === undefined || y === undefined) {
          if (x !== y) return x === undefined ? 1 : -1;
          continue;
        }
        const order = compareValues(field as Field, x, y);
        if (order !== 0) return descending ? -order : order;
      }
      return a.id - b.id;
    })
    .map((row) => row.id);
}

describe('sorting by declared fields', () => {
  it('orders as the definition does, the whole list and filtered ones, twice over', () => {
    fc.assert(
      fc.property(
        arbitraryRecords,
        arbitraryKeys,
        arbitraryFilters,
        fc.boolean(),
        (rows, keys, filters, builtAtLoad) => {
          const collection = collectionFromData(buildCollection(DECLARATION, 's.yaml', rows));
          // Whole orders built at load as a declaration's are (each field both ways, and a
          // default of several), or none: every order sorted when first asked for.
          const fields = ['amount', 'at', 'name', 'paid', 'id'] as const;
          const orders = builtAtLoad
            ? [
                ...fields.flatMap((field) =>
                  [false, true].map((descending) => [{ field, descending }]),
                ),
                [
                  { field: 'paid', descending: true },
                  { field: 'amount', descending: false },
                ],
              ]
            : undefined;
          const plan = {
            exact: ['group'],
            contains: ['tag'],
            ranked: { amount: 'number', at: 'date', name: 'text', paid: 'boolean' } as const,
            ...(orders === undefined ? {} : { orders, key: 'id' }),
          };
          const data = buildEngineIndexData(collection.data.columns, plan);
          const engine = createIndexedEngine(collection, data, SERVING_TUNING);
          const sortedIds = (conditions: readonly Condition[]) => {
            const sorted = engine.sort(conditions, keys);
            return sorted
              .slice(0, sorted.total)
              .map((position) => keyAt(collection.keys, position));
          };
          // Each way of sorting, forced: counting, and comparing.
          const columns = keys.map((key) => {
            if (key.field === 'id') {
              const identity = Int32Array.from({ length: collection.size }, (_, i) => i);
              return [{ of: identity, ranks: identity, count: collection.size }, key] as const;
            }
            const ranks = data.ranks[key.field] ?? new Int32Array(0);
            const of = collection.column(key.field)?.of ?? new Int32Array(0);
            return [{ of, ranks, count: rankCount(ranks) }, key] as const;
          });
          for (const strategy of ['count', 'compare'] as const) {
            const sorted = sortPositions(undefined, collection.size, columns, strategy);
            expect(
              Array.from(sorted, (position) => keyAt(collection.keys, position)),
            ).toStrictEqual(definition(rows, keys));
          }
          const conditions = filters.map(({ condition }) => condition);
          const matching = rows.filter((row) => filters.every((filter) => filter.holds(row)));
          // Twice: the second time from what the first kept.
          for (let round = 0; round < 2; round++) {
            expect(sortedIds([])).toStrictEqual(definition(rows, keys));
            expect(sortedIds(conditions)).toStrictEqual(definition(matching, keys));
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('a sort declaration that cannot be served is refused at start', () => {
  function specWith(sort: string, parameter = '{ type: string }'): string {
    return [
      'openapi: 3.1.0',
      "info: { title: sorts, version: '1' }",
      'x-stockmock-collections:',
      '  trees:',
      '    key: id',
      '    record:',
      '      type: object',
      '      required: [id]',
      '      properties: { id: { type: integer }, name: { type: string }, tags: { type: array } }',
      'paths:',
      '  /trees:',
      '    get:',
      '      security: []',
      `      x-stockmock: { collection: trees, sort: ${sort} }`,
      '      parameters:',
      `        - { name: sort, in: query, schema: ${parameter} }`,
      '        - { name: limit, in: query, schema: { type: integer, minimum: 1, default: 2 } }',
      '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
      "      responses: { '200': { description: a page } }",
      '',
    ].join('\n');
  }
  const AT = 'paths./trees.get.x-stockmock.sort';
  it.each([
    [
      'an undeclared field',
      '{ parameter: sort, fields: [name, size] }',
      undefined,
      `${AT}.fields[1]`,
      'size is not a field',
    ],
    [
      'a field that cannot be sorted',
      '{ parameter: sort, fields: [tags] }',
      undefined,
      `${AT}.fields[0]`,
      'cannot be sorted',
    ],
    [
      'an unknown parameter',
      '{ parameter: order, fields: [name] }',
      undefined,
      `${AT}.parameter`,
      'names no query parameter',
    ],
    [
      'a parameter that is not text',
      '{ parameter: sort, fields: [name] }',
      '{ type: integer }',
      `${AT}.parameter`,
      'must be a string',
    ],
    [
      'a default of an unlisted field',
      '{ parameter: sort, fields: [name], default: -id }',
      undefined,
      `${AT}.default`,
      'not "-id"',
    ],
  ])('%s', async (_title, sort, parameter, field, message) => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-sort-'));
    await writeFile(join(dir, 'openapi.yaml'), specWith(sort, parameter));
    let issues: SourceError['issues'] = [];
    try {
      readDeclarations(await loadSpec(join(dir, 'openapi.yaml')));
    } catch (error) {
      if (error instanceof SourceError) issues = error.issues;
    }
    const issue = issues.find((candidate) => candidate.field === field);
    expect(issue?.message, JSON.stringify(issues)).toContain(message);
    expect(issue?.at?.line).toBe(14);
  });
});

describe('whole orders built at load', () => {
  it("are each sort field's, both ways, and the default order, once each", async () => {
    const spec = await loadSpec(
      join(fileURLToPath(new URL('../../', import.meta.url)), 'examples/billing/openapi.yaml'),
    );
    const plan = loadPlanOf(readDeclarations(spec), { order: 'id' });
    const names = (plan.indexes['invoices']?.orders ?? []).map((keys) =>
      keys.map(({ field, descending }) => `${descending ? '-' : ''}${field}`).join(','),
    );
    // The example's list sorts by issued_at, amount, due_on and status, -issued_at by default.
    expect(names.sort()).toStrictEqual(
      [
        'issued_at',
        '-issued_at',
        'amount',
        '-amount',
        'due_on',
        '-due_on',
        'status',
        '-status',
      ].sort(),
    );
    // Customers sort by name and created_at, with no default.
    expect(plan.indexes['customers']?.orders?.length).toBe(4);
  });
});
