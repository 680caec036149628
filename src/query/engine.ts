/**
 * @module The query engine's one seam: a catalogue in, filtered selections out.
 *
 * Everything else reads a filter's result through this interface: how many products match
 * (`total`), and the positions on a page (`slice`, which paginate() calls). The indexes, their
 * layouts and the caches behind it are the engine's own, made with it and gone with it; a reload
 * is a new catalogue and a new engine.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { buildEngineIndexData, engineIndexBuffers, type EngineIndexData } from './engine-index.ts';
import { createIndexedEngine, SERVING_TUNING } from './indexed-engine.ts';
import type { ProductFilter } from './query.ts';
import type { Selection } from './selection.ts';

export interface QueryEngine {
  /** The products that match every given filter, as positions in id order. */
  select(filter: ProductFilter): Selection;
}

/**
 * The engine's indexes over a catalogue, built where the catalogue is loaded (the loading
 * worker) and handed over with it. Opaque outside src/query/: only moved, never read.
 */
export type EngineData = EngineIndexData & { readonly __engineData: unique symbol };

export function buildEngineData(catalog: Catalog): EngineData {
  return buildEngineIndexData(catalog.columns) as EngineData;
}

/** The buffers of EngineData, to move to another thread instead of copying them. */
export function engineDataBuffers(data: EngineData): ArrayBuffer[] {
  return engineIndexBuffers(data);
}

/**
 * The engine a catalogue is served with, over indexes built at load (given, or built here), so
 * that no request pays for them.
 */
export function createQueryEngine(catalog: Catalog, data?: EngineData): QueryEngine {
  return createIndexedEngine(catalog, SERVING_TUNING, data);
}
