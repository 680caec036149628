/**
 * The indexed engine on fields the shipped spec does not filter: `exact` on free text, and
 * conditions on records that lack the field. query-engines.test.ts holds it to the definition on
 * the shipped collection; these are the shapes only another spec declares.
 */
import { describe, expect, it } from 'vitest';
import { buildCollection, type RecordInput } from '../../src/dataset/build-collection.ts';
import { collectionFromData } from '../../src/dataset/collection.ts';
import { buildEngineIndexData } from '../../src/query/engine-index.ts';
import { createIndexedEngine, SERVING_TUNING } from '../../src/query/indexed-engine.ts';
import type { Condition } from '../../src/query/query.ts';
import { itemsDeclaration } from '../helpers/datasets.ts';

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
    return once.slice(0, once.total).map((position) => collection.keys[position]);
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
