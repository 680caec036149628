/**
 * The indexed engine on fields the shipped spec does not filter: `exact` on free text, and
 * conditions on records that lack the field. query-engines.test.ts holds it to the definition on
 * the shipped collection; these are the shapes only another spec declares.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCollection, type RecordInput } from '../../src/dataset/build-collection.ts';
import { collectionFromData } from '../../src/dataset/collection.ts';
import { keyAt } from '../../src/query/keys.ts';
import { buildEngineIndexData } from '../../src/query/engine-index.ts';
import {
  createIndexedEngine,
  SERVING_TUNING,
  type EngineTuning,
} from '../../src/query/indexed-engine.ts';
import type { Condition } from '../../src/query/query.ts';
import { itemsDeclaration } from '../helpers/datasets.ts';

/** Every way the engine lists a set of matches, with prefixes small enough to outgrow. */
const TUNINGS: readonly EngineTuning[] = [
  SERVING_TUNING,
  { strategy: 'scan', firstPrefix: 1, cachedPrefixLimit: 0 },
  { strategy: 'collect', firstPrefix: 2, cachedPrefixLimit: 5 },
];

const ITEMS = itemsDeclaration({ tag: 'string', note: 'string' });

/** The keys an engine over these records selects, asked twice (cold, then as kept). */
function engineOf(records: readonly RecordInput[]) {
  const collection = collectionFromData(buildCollection(ITEMS, 'i.yaml', records));
  const engine = createIndexedEngine(
    collection,
    buildEngineIndexData(collection.data.columns, { exact: ['tag'], contains: ['note'] }),
    SERVING_TUNING,
  );
  return (conditions: readonly Condition[]) => {
    const once = engine.select(conditions);
    const twice = engine.select(conditions);
    expect(twice.slice(0, twice.total)).toEqual(once.slice(0, once.total));
    return once.slice(0, once.total).map((position) => keyAt(collection.keys, position));
  };
}

const tag = (value: string): Condition => ({ field: 'tag', match: 'exact', value });
const note = (value: string): Condition => ({ field: 'note', match: 'contains', value });
const id = (value: number): Condition => ({ field: 'id', match: 'exact', value });

describe('the indexed engine on other fields', () => {
  it('an exact match on text is case-sensitive, each value asked in turn', () => {
    const select = engineOf([
      { id: 1, tag: 'Oak', note: 'x' },
      { id: 2, tag: 'oak', note: 'x' },
      { id: 3, tag: 'OAK' },
      { id: 4, note: 'oak' },
    ]);
    // Twice over: the second round is answered from what the first kept.
    for (let round = 0; round < 2; round++) {
      expect(select([tag('Oak')])).toEqual([1]);
      expect(select([tag('oak')])).toEqual([2]);
      expect(select([tag('OAK')])).toEqual([3]);
      expect(select([tag('Oak'), note('X')])).toEqual([1]);
      expect(select([tag('oak'), note('X')])).toEqual([2]);
      expect(select([tag('OAK'), note('')])).toEqual([]);
    }
  });

  it('a record without the field meets no condition on it, with its one value elsewhere', () => {
    // One distinct value in each column: a missing value must not read as that one.
    const select = engineOf([{ id: 1, tag: 'a', note: 'oak' }, { id: 2 }]);
    expect(select([id(2), tag('a')])).toEqual([]);
    expect(select([id(2), note('oak')])).toEqual([]);
    expect(select([id(1), tag('a'), note('oak')])).toEqual([1]);
  });

  it('a condition on a field the load did not index is a wiring error, not an answer', () => {
    const collection = collectionFromData(buildCollection(ITEMS, 'i.yaml', [{ id: 1, tag: 'a' }]));
    const engine = createIndexedEngine(
      collection,
      buildEngineIndexData(collection.data.columns, { exact: [], contains: [] }),
      SERVING_TUNING,
    );
    expect(() => engine.select([tag('a')])).toThrow(new Error('tag has no value index'));
    expect(() => engine.select([note('a')])).toThrow(new Error('note has no text index'));
    expect(() => engine.select([id(1), note('a')])).toThrow(new Error('note has no text index'));
    const other = { field: 'other', match: 'exact', value: 1 } as const;
    expect(() => engine.select([id(1), other])).toThrow(new Error('other has no column'));
  });
});

describe('the indexed engine on any-of, boolean and date conditions', () => {
  const TYPED = itemsDeclaration({ state: 'string', paid: 'boolean', at: 'date' });
  const STATES = ['open', 'paid', 'sent', 'void'] as const;
  /** Instants as RFC 3339 text with assorted offsets, within a few days. */
  const arbitraryAt = fc
    .tuple(fc.integer({ min: 0, max: 4 * 24 * 60 }), fc.constantFrom('Z', '+02:00', '-05:30'))
    .map(([minutes, offset]) => {
      const utc = Date.UTC(2024, 1, 28) + minutes * 60_000;
      const shift =
        offset === 'Z' ? 0 : (offset.startsWith('+') ? 1 : -1) * (offset === '+02:00' ? 120 : 330);
      const local = new Date(utc + shift * 60_000).toISOString().slice(0, 19);
      return `${local}${offset}`;
    });
  const arbitraryRecords = fc
    .array(
      fc.record(
        {
          state: fc.constantFrom(...STATES),
          paid: fc.boolean(),
          at: arbitraryAt,
        },
        { requiredKeys: [] },
      ),
      { maxLength: 60 },
    )
    .map((records) => records.map((record, index) => ({ id: index + 1, ...record })));
  const arbitraryConditions = fc.array(
    fc.oneof(
      fc
        .uniqueArray(fc.constantFrom(...STATES), { minLength: 1 })
        .map((value): Condition => ({ field: 'state', match: 'exact', value })),
      fc.boolean().map((value): Condition => ({ field: 'paid', match: 'exact', value })),
      fc
        .tuple(fc.constantFrom('min' as const, 'max' as const), arbitraryAt, fc.boolean())
        .map(([match, at, dayOnly]): Condition => ({
          field: 'at',
          match,
          value: dayOnly ? at.slice(0, 10) : at,
        })),
      fc
        .uniqueArray(fc.integer({ min: 0, max: 70 }), { minLength: 1, maxLength: 5 })
        .map((value): Condition => ({ field: 'id', match: 'exact', value })),
    ),
    { minLength: 1, maxLength: 3 },
  );

  /** The definition: each condition read plainly off the record. */
  function holds(record: Record<string, unknown>, condition: Condition): boolean {
    const value = record[condition.field];
    if (value === undefined) return false;
    if (condition.match === 'exact') {
      const wanted = Array.isArray(condition.value) ? condition.value : [condition.value];
      return wanted.includes(value);
    }
    const text = String(condition.value);
    const instant = Date.parse(value as string);
    if (condition.match === 'min') return instant >= Date.parse(text);
    // A day alone as the upper bound runs to the day's end.
    const end = text.length === 10 ? Date.parse(text) + 86_400_000 : Date.parse(text) + 1;
    return instant < end;
  }

  it.each(TUNINGS)('selects what the definition keeps (%o)', (tuning) => {
    fc.assert(
      fc.property(arbitraryRecords, arbitraryConditions, (records, conditions) => {
        const collection = collectionFromData(buildCollection(TYPED, 'i.yaml', records));
        const engine = createIndexedEngine(
          collection,
          buildEngineIndexData(collection.data.columns, {
            exact: ['state', 'paid', 'at'],
            contains: [],
          }),
          tuning,
        );
        const expected = records
          .filter((record) => conditions.every((condition) => holds(record, condition)))
          .map((record) => record.id);
        for (let round = 0; round < 2; round++) {
          const selection = engine.select(conditions);
          const keys = selection
            .slice(0, selection.total)
            .map((position) => keyAt(collection.keys, position));
          expect(keys).toStrictEqual(expected);
          expect(selection.total).toBe(expected.length);
        }
      }),
      { numRuns: 150 },
    );
  });
});
