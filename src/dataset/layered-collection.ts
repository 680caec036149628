/**
 * @module A collection with a session's changes over it, served without a copy: the loaded records
 * stay shared and immutable, and the session's records (those it created or changed) are a small
 * collection of their own. A list is the loaded list, less the records the session touched, with
 * the session's matches placed among them in the list's order (merged-selection.ts).
 *
 * Positions: the loaded records keep theirs (0 to n − 1); the session's follow (n + their own).
 */
import { crossOrderOf, type ListOrder, type OrderRules } from '../query/cross-order.ts';
import type { Key } from '../query/keys.ts';
import { mergedSelection, type ListLayer } from '../query/merged-selection.ts';
import type { Condition } from '../query/query.ts';
import type { Selection } from '../query/selection.ts';
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
  const hiddenKeys = [...touched].filter((key) => loaded.positionOf(key) >= 0);
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
      const at = (place: number) => loadedList.slice(place, place + 1)[0] as number;
      // The first place in the loaded list at or past which `comesBefore` holds.
      const firstPlace = (from: number, comesBefore: (position: number) => boolean): number => {
        let low = from;
        let high = loadedList.total;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (comesBefore(at(middle))) high = middle;
          else low = middle + 1;
        }
        return low;
      };
      const hidden = hiddenMatches(loaded, hiddenKeys, conditions, caseSensitive).map((position) =>
        firstPlace(0, (other) => compare.loaded(position, other) <= 0),
      );
      const addedList = written.list(conditions, order, caseSensitive);
      const added = Int32Array.from(addedList.slice(0, addedList.total));
      const before = new Int32Array(added.length);
      let from = 0;
      added.forEach((position, index) => {
        from = firstPlace(from, (other) => compare.added(position, other) < 0);
        before[index] = from;
        added[index] = offset + position;
      });
      layer = {
        hidden: Int32Array.from(hidden).sort(),
        added,
        before,
        length: hidden.length + added.length,
      };
      layers.set(cacheKey, layer);
    }
    return layer;
  };
  return {
    name: loaded.name,
    size: loaded.size - hiddenKeys.length + written.size,
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
      if (hiddenKeys.length === 0 && written.size === 0) return loadedList;
      return mergedSelection(loadedList, layerOf(conditions, order, caseSensitive, loadedList));
    },
  };
}

/** The loaded records the session touched that meet the conditions, by the loaded engine. */
function hiddenMatches(
  loaded: LoadedCollection,
  hiddenKeys: readonly Key[],
  conditions: readonly Condition[],
  caseSensitive: boolean,
): readonly number[] {
  if (hiddenKeys.length === 0) return [];
  const touched: Condition = { field: loaded.records.key, match: 'exact', value: hiddenKeys };
  const matches = loaded.list([...conditions, touched], undefined, caseSensitive);
  return matches.slice(0, matches.total);
}
