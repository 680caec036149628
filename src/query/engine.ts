/**
 * @module The query engine's one seam: a catalogue in, filtered selections out.
 *
 * Everything else reads a filter's result through this interface: how many products match
 * (`total`), and the positions on a page (`slice`, which paginate() calls). The indexes, their
 * layouts and the caches behind it are the engine's own, made with it and gone with it; a reload
 * is a new catalogue and a new engine.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { createIndexedEngine, SERVING_TUNING } from './indexed-engine.ts';
import type { ProductFilter } from './query.ts';
import type { Selection } from './selection.ts';

export interface QueryEngine {
  /** The products that match every given filter, as positions in id order. */
  select(filter: ProductFilter): Selection;
}

/** The engine a catalogue is served with; built at load, so no request pays for its indexes. */
export function createQueryEngine(catalog: Catalog): QueryEngine {
  return createIndexedEngine(catalog, SERVING_TUNING);
}
