/**
 * @module The query engine's one seam: a collection's columns in, filtered selections out.
 *
 * Everything else reads a filter's result through this interface: how many records match
 * (`total`), and the positions on a page (`slice`, which paginate() calls). The indexes, their
 * layouts and the caches behind it are the engine's own, made with it and gone with it; a reload
 * is a new collection and a new engine.
 */
import {
  buildEngineIndexData,
  engineIndexBuffers,
  type EngineIndexData,
  type IndexPlan,
} from './engine-index.ts';
import { createIndexedEngine, SERVING_TUNING } from './indexed-engine.ts';
import type { Column, Condition, EngineSource } from './query.ts';
import type { Selection } from './selection.ts';
import type { SortKey } from './sort.ts';

export type { IndexPlan } from './engine-index.ts';

export interface QueryEngine {
  /** The records that meet every condition, as positions in key order. */
  select(conditions: readonly Condition[]): Selection;
  /**
   * The records that meet every condition, ordered by the keys (ties in key order). Selected
   * and sorted together: many matches are read off a whole order built at load, without being
   * listed first.
   */
  sort(conditions: readonly Condition[], keys: readonly SortKey[]): Selection;
  /** Those of the positions (ascending) that meet every condition: a few records, tested. */
  filter(conditions: readonly Condition[], positions: Int32Array): Int32Array;
}

/**
 * The engine's indexes over a collection, built where the collection is loaded (the loading
 * worker) and handed over with it. Opaque outside src/query/: only moved, never read.
 */
export type EngineData = EngineIndexData & { readonly __engineData: unique symbol };

export function buildEngineData(
  columns: Readonly<Record<string, Column>>,
  plan: IndexPlan,
): EngineData {
  return buildEngineIndexData(columns, plan) as EngineData;
}

/** The buffers of EngineData, to move to another thread instead of copying them. */
export function engineDataBuffers(data: EngineData): ArrayBuffer[] {
  return engineIndexBuffers(data);
}

/**
 * The engine a collection is served with, over indexes built at load, so that no request pays
 * for them.
 */
export function createQueryEngine(source: EngineSource, data: EngineData): QueryEngine {
  return createIndexedEngine(source, data, SERVING_TUNING);
}
