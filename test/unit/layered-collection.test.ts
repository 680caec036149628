/**
 * A session's changes layered over loaded records list exactly as a load of the changed records
 * does: every filter, sort, label order and slice, for generated changes and requests (fast-check,
 * a fixed seed; a failure prints its seed and path). The expected lists come from a fresh load of
 * the changed records, which the engine's own equivalence suites hold to the plain definition.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RecordInput } from '../../src/dataset/build-collection.ts';
import { createDataset, type Dataset } from '../../src/dataset/dataset.ts';
import type { Compatibility } from '../../src/compatibility/compatibility.ts';
import type { Key } from '../../src/query/keys.ts';
import type { Condition } from '../../src/query/query.ts';
import type { SortKey } from '../../src/query/sort.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { indexedCollectionOf, loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';

const root = fileURLToPath(new URL('../../examples/billing/', import.meta.url));
const declarations = readDeclarations(await loadSpec(`${root}openapi.yaml`));
const fixture = parse(await readFile(`${root}billing.yaml`, 'utf8')) as Record<
  string,
  RecordInput[]
>;

/** What a request may ask of each collection: its filters and the fields it sorts by. */
const ASKED = {
  customers: {
    exact: ['country'],
    contains: ['name'],
    min: ['created_at'],
    max: [] as string[],
    sort: ['name', 'created_at', 'id'],
  },
  invoices: {
    exact: ['status', 'customer_id', 'recurring'],
    contains: [] as string[],
    min: ['amount', 'issued_at'],
    max: ['amount', 'due_on'],
    sort: ['issued_at', 'amount', 'due_on', 'status', 'id'],
  },
} as const;

type Name = keyof typeof ASKED;

/** A change: delete a record, give it another record's value of a field, or copy it anew. */
type Change =
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'replace'; readonly at: number; readonly from: number; readonly field: string }
  | { readonly kind: 'shift'; readonly at: number; readonly field: string }
  | { readonly kind: 'create'; readonly from: number; readonly suffix: string };

function changesArbitrary(name: Name): fc.Arbitrary<Change[]> {
  const size = (fixture[name] as RecordInput[]).length;
  const at = fc.nat(size - 1);
  const fields = Object.keys((fixture[name] as RecordInput[])[0] as object).filter(
    (field) => field !== 'id',
  );
  return fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('delete' as const), at }),
      fc.record({
        kind: fc.constant('replace' as const),
        at,
        from: at,
        field: fc.constantFrom(...fields),
      }),
      // A value between the loaded ones (a number or a name no record has).
      fc.record({
        kind: fc.constant('shift' as const),
        at,
        field: fc.constantFrom(...(name === 'customers' ? ['name'] : ['amount'])),
      }),
      // A new key next to a loaded one: `0` sorts right before most, `~` right after.
      fc.record({
        kind: fc.constant('create' as const),
        from: at,
        suffix: fc.constantFrom('0', '~', '-a', ''),
      }),
    ),
    { maxLength: 24 },
  );
}

/** The records after the changes, by key, and the keys the changes touched. */
function applied(name: Name, changes: readonly Change[]) {
  const loaded = fixture[name] as RecordInput[];
  const records = new Map<Key, RecordInput>(loaded.map((record) => [record['id'] as Key, record]));
  const written = new Map<Key, RecordInput | null>();
  const keyOf = (index: number) => (loaded[index] as RecordInput)['id'] as string;
  for (const change of changes) {
    if (change.kind === 'create') {
      const key =
        change.suffix === '' ? `z${keyOf(change.from)}` : `${keyOf(change.from)}${change.suffix}`;
      const record = { ...(loaded[change.from] as RecordInput), id: key };
      records.set(key, record);
      written.set(key, record);
      continue;
    }
    const key = keyOf(change.at);
    const current = records.get(key);
    if (change.kind === 'delete' || current === undefined) {
      records.delete(key);
      written.set(key, null);
      continue;
    }
    const value =
      change.kind === 'replace'
        ? (loaded[change.from] as RecordInput)[change.field]
        : typeof current[change.field] === 'number'
          ? (current[change.field] as number) + 0.5
          : `${String(current[change.field])} B`;
    const record = { ...current, [change.field]: value };
    records.set(key, record);
    written.set(key, record);
  }
  return { records: [...records.values()], written };
}

/** A request's conditions, order and case rule, from values the records hold. */
function requestArbitrary(name: Name) {
  const asked = ASKED[name];
  const records = fixture[name] as RecordInput[];
  const valuesOf = (field: string) => [...new Set(records.map((record) => record[field]))];
  const condition = fc.oneof(
    ...asked.exact.map((field) =>
      fc.record({
        field: fc.constant(field),
        match: fc.constant('exact' as const),
        value: fc.constantFrom(...(valuesOf(field) as (string | boolean)[])),
      }),
    ),
    ...asked.contains.map((field) =>
      fc.record({
        field: fc.constant(field),
        match: fc.constant('contains' as const),
        value: fc
          .tuple(fc.constantFrom(...(valuesOf(field) as string[]), 'B'), fc.nat(6), fc.nat(3))
          .map(([text, start, length]) => text.slice(start, start + 1 + length)),
      }),
    ),
    ...(['min', 'max'] as const).flatMap((match) =>
      asked[match].map((field) =>
        fc.record({
          field: fc.constant(field),
          match: fc.constant(match),
          value: fc.constantFrom(...(valuesOf(field) as (string | number)[])),
        }),
      ),
    ),
    // Conditions on the key: a range, or keys by name (loaded ones, and one made anew).
    ...(['min', 'max'] as const).map((match) =>
      fc.record({
        field: fc.constant('id'),
        match: fc.constant(match),
        value: fc.constantFrom(...(valuesOf('id') as string[])),
      }),
    ),
    fc.record({
      field: fc.constant('id'),
      match: fc.constant('exact' as const),
      value: fc.uniqueArray(
        fc.constantFrom(...(valuesOf('id') as string[]).flatMap((key) => [key, `${key}~`])),
        { minLength: 1, maxLength: 6 },
      ),
    }),
  );
  const order = fc.option(
    fc.uniqueArray(fc.record({ field: fc.constantFrom(...asked.sort), descending: fc.boolean() }), {
      minLength: 1,
      maxLength: 2,
      selector: (key) => key.field,
    }),
    { nil: undefined },
  );
  return fc.record({
    conditions: fc.array(condition, { maxLength: 2 }),
    order,
    caseSensitive: fc.boolean(),
    start: fc.nat(80),
    length: fc.integer({ min: 1, max: 30 }),
  });
}

function keysOf(dataset: Dataset, name: string, positions: readonly number[]): Key[] {
  const served = dataset.collection(name);
  return positions.map((position) => served.keyAt(position));
}

describe.each(['id', 'name', 'name-locale'] as const)(
  'a session’s changes layered over the loaded records, ordered by %s',
  (order: Compatibility['order']) => {
    const plan = loadPlanOf(declarations, { order });
    const collectionOf = (name: string, records: readonly RecordInput[]) => {
      const declaration = declarations.collections.get(name);
      if (declaration === undefined) throw new Error(name);
      return indexedCollectionOf(declaration, 'test', records, plan);
    };
    const loaded = createDataset(
      (['customers', 'invoices'] as const).map((name) =>
        collectionOf(name, fixture[name] as RecordInput[]),
      ),
    );

    it.each(['customers', 'invoices'] as const)(
      '%s: lists, slices and lookups as a load of the changed records',
      (name) => {
        const declaration = declarations.collections.get(name);
        if (declaration === undefined) throw new Error(name);
        fc.assert(
          fc.property(
            changesArbitrary(name),
            fc.array(requestArbitrary(name), { minLength: 1, maxLength: 8 }),
            (changes, requests) => {
              const { records, written } = applied(name, changes);
              const writtenRecords = [...written.values()].filter((record) => record !== null);
              const layered = loaded.withChanges(
                new Map([
                  [
                    name,
                    {
                      written: collectionOf(name, writtenRecords),
                      touched: new Set(written.keys()),
                      rules: {
                        key: declaration.key,
                        ranked: plan.indexes[name]?.ranked ?? {},
                        ...(plan.labelCollation === undefined || declaration.label === undefined
                          ? {}
                          : {
                              label: { field: declaration.label, collation: plan.labelCollation },
                            }),
                      },
                    },
                  ],
                ]),
              );
              const fresh = createDataset([collectionOf(name, records)]);
              expect(layered.sizes.get(name)).toBe(records.length);
              for (const request of requests) {
                const conditions = request.conditions as Condition[];
                const sort = request.order as SortKey[] | undefined;
                const expected = fresh
                  .collection(name)
                  .list(conditions, sort, request.caseSensitive);
                const actual = layered
                  .collection(name)
                  .list(conditions, sort, request.caseSensitive);
                const all = keysOf(fresh, name, expected.slice(0, expected.total));
                expect(actual.total).toBe(expected.total);
                expect(keysOf(layered, name, actual.slice(0, actual.total))).toEqual(all);
                const end = request.start + request.length;
                expect(keysOf(layered, name, actual.slice(request.start, end))).toEqual(
                  all.slice(request.start, end),
                );
              }
              const served = layered.collection(name);
              for (const key of [
                ...written.keys(),
                ...records.map((record) => record['id'] as Key),
              ]) {
                const position = served.positionOf(key);
                const there = fresh.collection(name).positionOf(key) >= 0;
                expect(position >= 0 ? served.keyAt(position) : undefined).toBe(
                  there ? key : undefined,
                );
              }
            },
          ),
          { seed: 51, numRuns: 60, endOnFailure: true },
        );
      },
    );
  },
);
