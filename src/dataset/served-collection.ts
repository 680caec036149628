/**
 * @module A collection as requests read it: its records by position, and its lists (conditions →
 * engine → list rules). Either the loaded records, or those with a session's changes over them
 * (layered-collection.ts), read alike.
 */
import { createQueryEngine, type EngineData, type QueryEngine } from '../query/engine.ts';
import { keyAt, type Key, type KeyColumn } from '../query/keys.ts';
import { applyListRules, labelOrdering, type LabelOrder } from '../query/list-rules.ts';
import type { Condition } from '../query/query.ts';
import type { Selection } from '../query/selection.ts';
import type { SortKey } from '../query/sort.ts';
import type { Collection } from './collection.ts';

/** A collection as a load hands it over: its records, the engine's indexes, its label order. */
export interface IndexedCollection {
  readonly collection: Collection;
  readonly indexes: EngineData;
  /** The positions in label order, made only where lists are ordered by label. */
  readonly labelOrder?: Int32Array;
}

export interface ServedCollection {
  readonly name: string;
  /** How many records it holds. */
  readonly size: number;
  readonly keyType: KeyColumn['type'];
  /** Whether a list without a sort is in label order (the `order` setting); else key order. */
  readonly labelOrdered: boolean;
  /** The position of the record with this key, or -1. */
  positionOf(key: Key): number;
  keyAt(position: number): Key;
  /** Reads the record at a position from the records that hold it. */
  at<T>(position: number, read: (records: Collection, position: number) => T): T;
  /** The records that meet every condition, in the order asked for (or the list's own). */
  list(
    conditions: readonly Condition[],
    order: readonly SortKey[] | undefined,
    caseSensitive: boolean,
  ): Selection;
}

/** The loaded records, served as they are: what a session's changes are layered over. */
export interface LoadedCollection extends ServedCollection {
  readonly records: Collection;
  readonly engine: QueryEngine;
  readonly indexes: EngineData;
  readonly labelOrder: LabelOrder | undefined;
}

export function loadedCollection({
  collection,
  indexes,
  labelOrder,
}: IndexedCollection): LoadedCollection {
  const engine = createQueryEngine(collection, indexes);
  const ordering = labelOrder === undefined ? undefined : labelOrdering(labelOrder);
  return {
    name: collection.name,
    size: collection.size,
    keyType: collection.keys.type,
    labelOrdered: ordering !== undefined,
    records: collection,
    engine,
    indexes,
    labelOrder: ordering,
    positionOf: (key) => collection.positionOf(key),
    keyAt: (position) => keyAt(collection.keys, position),
    at: (position, read) => read(collection, position),
    list(conditions, order, caseSensitive) {
      // The rules keep the order they are given: a declared sort's, or key order; a dataset
      // holds a label order only where the order setting asks for one, and a sort comes first.
      return applyListRules(
        order === undefined ? engine.select(conditions) : engine.sort(conditions, order),
        conditions,
        collection,
        {
          caseSensitive,
          ...(ordering === undefined || order !== undefined ? {} : { order: ordering }),
        },
      );
    },
  };
}
