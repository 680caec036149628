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
import { describe, expect, it } from 'vitest';
import { byCodePoints } from '../helpers/code-points.ts';
import { buildCollection } from '../../src/dataset/build-collection.ts';
import { collectionFromData } from '../../src/dataset/collection.ts';
import { buildEngineIndexData } from '../../src/query/engine-index.ts';
import { createIndexedEngine, SERVING_TUNING } from '../../src/query/indexed-engine.ts';
import { keyAt } from '../../src/query/keys.ts';
import { slicesOf } from '../../src/query/selection.ts';
import { rankCount, sortPositions, type SortKey } from '../../src/query/sort.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { itemsDeclaration } from '../helpers/datasets.ts';

const DECLARATION = itemsDeclaration({
  amount: 'number',
  at: 'date',
  name: 'string',
  paid: 'boolean',
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
      },
      { requiredKeys: [] },
    ),
    { maxLength: 80 },
  )
  .map((records) => records.map((record, index) => ({ id: (index * 7) % 101, ...record })))
  .map((records) => [...new Map(records.map((record) => [record.id, record])).values()]);

const arbitraryKeys = fc
  .uniqueArray(fc.constantFrom<Field>('amount', 'at', 'name', 'paid', 'id'), {
    minLength: 1,
    maxLength: 3,
  })
  .chain((fields) =>
    fc.tuple(...fields.map((field) => fc.boolean().map((descending) => ({ field, descending })))),
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
  it('orders as the definition does, the whole list and a part of it, twice over', () => {
    fc.assert(
      fc.property(
        arbitraryRecords,
        arbitraryKeys,
        fc.integer({ min: 0, max: 24 }),
        (rows, keys, every) => {
          const collection = collectionFromData(buildCollection(DECLARATION, 's.yaml', rows));
          const engine = createIndexedEngine(
            collection,
            buildEngineIndexData(collection.data.columns, {
              exact: [],
              contains: [],
              ranked: { amount: 'number', at: 'date', name: 'text', paid: 'boolean' },
            }),
            SERVING_TUNING,
          );
          const sortedIds = (positions: readonly number[] | undefined) => {
            const selection =
              positions === undefined
                ? slicesOf(Array.from({ length: collection.size }, (_, i) => i))
                : slicesOf(positions);
            // The part's name: the same name must mean the same positions (it is kept by it).
            const part = positions === undefined ? 'all' : `every ${String(every + 1)}`;
            const sorted = engine.sort(() => selection, keys, part);
            return sorted
              .slice(0, sorted.total)
              .map((position) => keyAt(collection.keys, position));
          };
          const inOrder = [...rows].sort((a, b) => a.id - b.id);
          // Each way of sorting, forced: counting, and comparing.
          const data = buildEngineIndexData(collection.data.columns, {
            exact: [],
            contains: [],
            ranked: { amount: 'number', at: 'date', name: 'text', paid: 'boolean' },
          });
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
          for (let round = 0; round < 2; round++) {
            expect(sortedIds(undefined)).toStrictEqual(definition(rows, keys));
            // Every `every`-th record: a part read off the whole order, or, a sixteenth or less of
            // the list, sorted on its own.
            const part = inOrder.flatMap((_, position) =>
              every > 0 && position % (every + 1) === 0 ? [position] : [],
            );
            expect(sortedIds(part)).toStrictEqual(
              definition(
                part.map((position) => inOrder[position] as Row),
                keys,
              ),
            );
          }
        },
      ),
      { numRuns: 300 },
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
