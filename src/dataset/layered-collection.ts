/**
 * @module A collection with a session's changes over it, served without a copy: the loaded records
 * stay shared and immutable, and the session's records (those it created or changed) are a small
 * collection of their own. A list is the loaded list, less the records the session touched, with
 * the session's matches placed among them in the list's order (merged-selection.ts).
 *
 * Positions: the loaded records keep theirs (0 to n − 1); the session's follow (n + their own).
 */
import {
  crossOrderOf,
  type CrossOrder,
  type ListOrder,
  type OrderRules,
} from '../query/cross-order.ts';
import type { Key } from '../query/keys.ts';
import { applyListRules } from '../query/list-rules.ts';
import { countBelow, mergedSelection, type ListLayer } from '../query/merged-selection.ts';
import type { Condition } from '../query/query.ts';
import { slicesOf, type Selection } from '../query/selection.ts';
import type { SortKey } from '../query/sort.ts';
import { BoundedCache } from '../util/bounded-cache.ts';
import {
  loadedCollection,
  type IndexedCollection,
  type LoadedCollection,
  type ServedCollection,
} from './served-collection.ts';

/** What a session changed in one collection. */
export interface CollectionChanges {
  /** The session's records as they now are (none deleted), indexed as a load indexes them. */
  readonly written: IndexedCollection;
  /** Every key the session wrote or deleted. */
  readonly touched: ReadonlySet<Key>;
  /** How the collection's lists are ordered, to place the session's records among the loaded. */
  readonly rules: OrderRules;
}

/**
 * The lists' layers kept per collection, by request: a client pages through one list, and each
 * page would place the session's records anew. Bounded by the positions they hold.
 */
const KEPT_LAYER_POSITIONS = 250_000;

export function layeredCollection(
  loaded: LoadedCollection,
  changes: CollectionChanges,
): ServedCollection {
  const written = loadedCollection(changes.written);
  const { touched, rules } = changes;
  const offset = loaded.size;
  const hidden = Int32Array.from(
    [...touched].map((key) => loaded.positionOf(key)).filter((position) => position >= 0),
  ).sort();
  const layers = new BoundedCache<ListLayer & { readonly length: number }>({
    maxItems: KEPT_LAYER_POSITIONS,
  });
  const layerOf = (
    conditions: readonly Condition[],
    order: readonly SortKey[] | undefined,
    caseSensitive: boolean,
    loadedList: Selection,
  ): ListLayer => {
    const cacheKey = JSON.stringify([conditions, order ?? null, caseSensitive]);
    let layer = layers.get(cacheKey);
    if (layer === undefined) {
      const listOrder: ListOrder =
        order !== undefined
          ? { kind: 'sort', keys: order }
          : loaded.labelOrder !== undefined
            ? { kind: 'label', order: loaded.labelOrder }
            : { kind: 'key' };
      const compare = crossOrderOf(
        listOrder,
        loaded.records,
        loaded.indexes,
        written.records,
        rules,
      );
      const reader = placeReader(loadedList);
      const addedList = written.list(conditions, order, caseSensitive);
      const added = Int32Array.from(addedList.slice(0, addedList.total));
      const before = new Int32Array(added.length);
      let from = 0;
      added.forEach((position, index) => {
        from = reader.firstPlace(from, (other) => compare.added(position, other) < 0);
        before[index] = from;
        added[index] = offset + position;
      });
      const hiddenPlaces = placesOfHidden(
        loaded,
        hidden,
        conditions,
        caseSensitive,
        reader,
        compare,
      );
      layer = { hidden: hiddenPlaces, added, before, length: hiddenPlaces.length + added.length };
      layers.set(cacheKey, layer);
    }
    return layer;
  };
  return {
    name: loaded.name,
    size: loaded.size - hidden.length + written.size,
    keyType: loaded.keyType,
    labelOrdered: loaded.labelOrdered,
    positionOf(key) {
      const own = written.positionOf(key);
      if (own >= 0) return offset + own;
      return touched.has(key) ? -1 : loaded.positionOf(key);
    },
    keyAt: (position) =>
      position < offset ? loaded.keyAt(position) : written.keyAt(position - offset),
    at: (position, read) =>
      position < offset ? loaded.at(position, read) : written.at(position - offset, read),
    list(conditions, order, caseSensitive) {
      const loadedList = loaded.list(conditions, order, caseSensitive);
      if (hidden.length === 0 && written.size === 0) return loadedList;
      return mergedSelection(loadedList, layerOf(conditions, order, caseSensitive, loadedList));
    },
  };
}

/** Reads a loaded list's positions by place, a block at a time, and searches it in order. */
interface PlaceReader {
  readonly total: number;
  at(place: number): number;
  /**
   * The first place from `from` on at which `comesBefore` holds (it holds at every later one).
   * Galloping: the session's records go in order, mostly close to the one before.
   */
  firstPlace(from: number, comesBefore: (position: number) => boolean): number;
}

/** Positions read at a time: a lazily listed selection lists up to the block asked for. */
const BLOCK = 256;

function placeReader(list: Selection): PlaceReader {
  const blocks = new Map<number, readonly number[]>();
  const at = (place: number): number => {
    const index = Math.floor(place / BLOCK);
    let block = blocks.get(index);
    if (block === undefined) {
      block = list.slice(index * BLOCK, Math.min(list.total, (index + 1) * BLOCK));
      blocks.set(index, block);
    }
    return block[place - index * BLOCK] as number;
  };
  return {
    total: list.total,
    at,
    firstPlace(from, comesBefore) {
      let low = from;
      let step = 1;
      let high = from;
      while (high < list.total && !comesBefore(at(high))) {
        low = high + 1;
        high = from + step;
        step *= 2;
      }
      high = Math.min(high, list.total);
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (comesBefore(at(middle))) high = middle;
        else low = middle + 1;
      }
      return low;
    },
  };
}

/**
 * The places in the loaded list of the records the session touched, ascending: read off the
 * list where it is short beside them, else those that meet the conditions found and placed.
 */
function placesOfHidden(
  loaded: LoadedCollection,
  hidden: Int32Array,
  conditions: readonly Condition[],
  caseSensitive: boolean,
  reader: PlaceReader,
  compare: CrossOrder,
): Int32Array {
  if (hidden.length === 0) return hidden;
  if (reader.total <= SCAN_PER_HIDDEN * hidden.length) {
    const places: number[] = [];
    for (let place = 0; place < reader.total; place++) {
      const position = reader.at(place);
      if (hidden[countBelow(hidden, position)] === position) places.push(place);
    }
    return Int32Array.from(places);
  }
  const kept = applyListRules(
    slicesOf(loaded.engine.filter(conditions, hidden)),
    conditions,
    loaded.records,
    { caseSensitive },
  );
  const matches = Int32Array.from(kept.slice(0, kept.total)).sort((a, b) => compare.loaded(a, b));
  const places = new Int32Array(matches.length);
  let from = 0;
  matches.forEach((position, index) => {
    from = reader.firstPlace(from, (other) => compare.loaded(position, other) <= 0);
    places[index] = from;
  });
  return places;
}

/** A loaded list this many times as long as the touched records is searched, not read whole. */
const SCAN_PER_HIDDEN = 4;
