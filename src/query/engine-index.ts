/** @module What the query engine derives from a catalogue's columns, once per catalogue. */
import type { Catalog } from '../catalog/catalog.ts';
import { STOCK_STATUSES } from '../catalog/stock-status.ts';

/**
 * Lookups built once per catalogue, so that a request never scans more than it must. Private to
 * the engine: the layouts (such as `counts[name * 4 + status]`) may change with it.
 */
export interface EngineIndex {
  /** How many products. */
  readonly size: number;
  /** For each STOCK_STATUSES index, the positions of its products, ascending. */
  readonly byStatus: readonly Int32Array[];
  /** Every distinct folded name (the catalogue's). */
  readonly names: readonly string[];
  /** For the product at each position, the index of its name in `names` (the catalogue's). */
  readonly nameOf: Int32Array;
  /** For the product at each position, its STOCK_STATUSES index (the catalogue's). */
  readonly statusOf: Uint8Array;
  /** For each distinct name, the positions of its products, ascending. */
  readonly postings: readonly Int32Array[];
  /** How many products have each name and status: `counts[name * STATUSES + status]`. */
  readonly counts: Int32Array;
  /** How many products have each name, whatever their status: the sum of its `counts`. */
  readonly nameSizes: Int32Array;
}

export const STATUSES = STOCK_STATUSES.length;

/** Two passes over the columns, at load: the work a request would otherwise repeat. */
export function buildEngineIndex(catalog: Catalog): EngineIndex {
  const { foldedNames: names, foldedNameOf: nameOf, statusOf } = catalog.columns;
  const size = nameOf.length;
  const statusSizes = new Int32Array(STATUSES);
  const counts = new Int32Array(names.length * STATUSES);
  const nameSizes = new Int32Array(names.length);
  for (let position = 0; position < size; position++) {
    const status = statusOf[position] as number;
    const name = nameOf[position] as number;
    statusSizes[status] = (statusSizes[status] as number) + 1;
    nameSizes[name] = (nameSizes[name] as number) + 1;
    const cell = name * STATUSES + status;
    counts[cell] = (counts[cell] as number) + 1;
  }
  const byStatus = Array.from(statusSizes, (count) => new Int32Array(count));
  const postings = Array.from(nameSizes, (count) => new Int32Array(count));
  const statusFilled = new Int32Array(STATUSES);
  const nameFilled = new Int32Array(names.length);
  for (let position = 0; position < size; position++) {
    const status = statusOf[position] as number;
    const name = nameOf[position] as number;
    (byStatus[status] as Int32Array)[statusFilled[status] as number] = position;
    statusFilled[status] = (statusFilled[status] as number) + 1;
    (postings[name] as Int32Array)[nameFilled[name] as number] = position;
    nameFilled[name] = (nameFilled[name] as number) + 1;
  }
  return Object.freeze({ size, byStatus, names, nameOf, statusOf, postings, counts, nameSizes });
}
