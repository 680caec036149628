/** @module What the query engine derives from a catalogue's columns, once per catalogue. */
import type { CatalogColumns } from '../catalog/catalog.ts';
import { STOCK_STATUSES } from '../catalog/stock-status.ts';
import { unpackStrings, type PackedStrings } from '../util/packed-strings.ts';
import { buildNameIndexData, nameIndexBuffers, type NameIndexData } from './name-index.ts';

/**
 * What is derived from the columns: typed arrays only, so that the loading worker builds it and
 * moves it to the serving thread (see scenarios/load-scenarios.ts). Private to the engine: the
 * layouts (such as `counts[name * 4 + status]`) may change with it.
 */
export interface EngineIndexData {
  /** For each STOCK_STATUSES index, the positions of its products, ascending. */
  readonly byStatus: readonly Int32Array[];
  /**
   * The positions of each distinct name's products, ascending, name after name: name `n`'s are
   * `postings[postingStarts[n]]` up to `postingStarts[n + 1]`. One array, not one per name: a
   * hundred thousand names were a hundred thousand buffers to move and to collect.
   */
  readonly postings: Int32Array;
  readonly postingStarts: Int32Array;
  /** How many products have each name and status: `counts[name * STATUSES + status]`. */
  readonly counts: Int32Array;
  /** How many products have each name, whatever their status: the sum of its `counts`. */
  readonly nameSizes: Int32Array;
  /** The trigram index of the distinct names; none past its size limit (see name-index.ts). */
  readonly grams: NameIndexData | undefined;
}

/** The derived data with the catalogue's own columns: what the engine reads. */
export interface EngineIndex extends EngineIndexData {
  /** How many products. */
  readonly size: number;
  /** Every distinct folded name, packed (the catalogue's). */
  readonly names: PackedStrings;
  /** For the product at each position, the index of its name in `names` (the catalogue's). */
  readonly nameOf: Int32Array;
  /** For the product at each position, its STOCK_STATUSES index (the catalogue's). */
  readonly statusOf: Uint8Array;
}

export const STATUSES = STOCK_STATUSES.length;

/** Two passes over the columns, and the trigram index: the work a request would otherwise do. */
export function buildEngineIndexData(columns: CatalogColumns): EngineIndexData {
  const { foldedNameOf: nameOf, statusOf } = columns;
  const nameCount = columns.foldedNames.ends.length;
  const size = nameOf.length;
  const statusSizes = new Int32Array(STATUSES);
  const counts = new Int32Array(nameCount * STATUSES);
  const nameSizes = new Int32Array(nameCount);
  for (let position = 0; position < size; position++) {
    const status = statusOf[position] as number;
    const name = nameOf[position] as number;
    statusSizes[status] = (statusSizes[status] as number) + 1;
    nameSizes[name] = (nameSizes[name] as number) + 1;
    const cell = name * STATUSES + status;
    counts[cell] = (counts[cell] as number) + 1;
  }
  const byStatus = Array.from(statusSizes, (count) => new Int32Array(count));
  const postingStarts = new Int32Array(nameCount + 1);
  for (let name = 0; name < nameCount; name++) {
    postingStarts[name + 1] = (postingStarts[name] as number) + (nameSizes[name] as number);
  }
  const postings = new Int32Array(size);
  const statusFilled = new Int32Array(STATUSES);
  const nameFilled = postingStarts.slice(0, nameCount);
  for (let position = 0; position < size; position++) {
    const status = statusOf[position] as number;
    const name = nameOf[position] as number;
    (byStatus[status] as Int32Array)[statusFilled[status] as number] = position;
    statusFilled[status] = (statusFilled[status] as number) + 1;
    postings[nameFilled[name] as number] = position;
    nameFilled[name] = (nameFilled[name] as number) + 1;
  }
  return {
    byStatus,
    postings,
    postingStarts,
    counts,
    nameSizes,
    grams: buildNameIndexData(unpackStrings(columns.foldedNames)),
  };
}

/** The buffers of the derived data, to move to another thread instead of copying them. */
export function engineIndexBuffers(data: EngineIndexData): ArrayBuffer[] {
  return [...data.byStatus, data.postings, data.postingStarts, data.counts, data.nameSizes]
    .map((array) => array.buffer as ArrayBuffer)
    .concat(data.grams === undefined ? [] : nameIndexBuffers(data.grams));
}

export function engineIndexOf(columns: CatalogColumns, data: EngineIndexData): EngineIndex {
  const { foldedNames: names, foldedNameOf: nameOf, statusOf } = columns;
  return Object.freeze({ ...data, size: nameOf.length, names, nameOf, statusOf });
}
