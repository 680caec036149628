/**
 * @module How a session's records compare with the loaded ones in a list's order, to be placed
 * among them: the order a load of both together would give (sort.ts, list-rules.ts), read
 * without ranking the two together.
 *
 * A session's value is placed among the loaded values' ranks once, as a doubled rank (2r where it
 * equals rank r, 2r − 1 where it falls between r − 1 and r), so that each comparison after is
 * one of integers.
 */
import { packedAt } from '../util/packed-strings.ts';
import type { EngineData } from './engine.ts';
import { compareKeys, keyAt, type KeyColumn } from './keys.ts';
import { collationOf, type LabelCollation, type LabelOrder } from './list-rules.ts';
import type { Column } from './query.ts';
import { compareSortValues, rankCount, sortValueOf, type RankKind, type SortKey } from './sort.ts';

/** A collection as the order reads it. */
export interface OrderedRecords {
  readonly keys: KeyColumn;
  column(field: string): Column | undefined;
}

/** How a list is ordered: by key, by the fields a request names, or by label. */
export type ListOrder =
  | { readonly kind: 'key' }
  | { readonly kind: 'sort'; readonly keys: readonly SortKey[] }
  | { readonly kind: 'label'; readonly order: LabelOrder };

/** What ordering needs to know of the loaded records beyond their columns. */
export interface OrderRules {
  /** The key field. */
  readonly key: string;
  /** How each sortable field's values rank. */
  readonly ranked: Readonly<Record<string, RankKind>>;
  /** The label field and how labels compare, where lists are ordered by label. */
  readonly label?: { readonly field: string; readonly collation: LabelCollation };
}

/** Comparisons in one order: negative when the first record comes first. */
export interface CrossOrder {
  /** Two loaded records, by position. */
  loaded(a: number, b: number): number;
  /** A session's record (its position among the session's) against a loaded one. */
  added(a: number, b: number): number;
}

export function crossOrderOf(
  order: ListOrder,
  loaded: OrderedRecords,
  indexes: EngineData,
  added: OrderedRecords,
  rules: OrderRules,
): CrossOrder {
  const byKey = (a: number, b: number) => compareKeys(keyAt(added.keys, a), keyAt(loaded.keys, b));
  if (order.kind === 'key') return { loaded: (a, b) => a - b, added: byKey };
  if (order.kind === 'label') return labelOrder(order.order, loaded, added, rules, byKey);
  const fields = order.keys.map((key) => {
    if (key.field === rules.key) {
      const sign = key.descending ? -1 : 1;
      return {
        loaded: (a: number, b: number) => sign * (a - b),
        added: (a: number, b: number) => sign * byKey(a, b),
      };
    }
    return fieldOrder(key, loaded, indexes, added, rules);
  });
  return {
    loaded(a, b) {
      for (const field of fields) {
        const order = field.loaded(a, b);
        if (order !== 0) return order;
      }
      return a - b;
    },
    added(a, b) {
      for (const field of fields) {
        const order = field.added(a, b);
        if (order !== 0) return order;
      }
      return byKey(a, b);
    },
  };
}

/** No rank: after every value, in either direction (sort.ts). A doubled rank may be −1. */
const NO_RANK = Number.NEGATIVE_INFINITY;

function fieldOrder(
  key: SortKey,
  loaded: OrderedRecords,
  indexes: EngineData,
  added: OrderedRecords,
  rules: OrderRules,
): CrossOrder {
  const ranks = indexes.ranks[key.field];
  const kind = rules.ranked[key.field];
  const loadedColumn = loaded.column(key.field);
  const addedColumn = added.column(key.field);
  if (ranks === undefined || kind === undefined || loadedColumn === undefined) {
    throw new Error(`${key.field} has no ranks`);
  }
  const count = rankCount(ranks);
  const valueOfRank = valuesByRank(ranks, count);
  // Each session value's doubled rank, placed on first use.
  const doubled = new Map<number, number>();
  const doubledRankOf = (number: number): number => {
    let rank = doubled.get(number);
    if (rank === undefined) {
      rank = placeAmongRanks(
        sortValueOf(packedAt((addedColumn as Column).values, number), kind),
        (r) => sortValueOf(packedAt(loadedColumn.values, valueOfRank[r] as number), kind),
        count,
      );
      doubled.set(number, rank);
    }
    return rank;
  };
  // A record's place by this field, in doubled ranks: after every value without one.
  const place = (rank: number) =>
    rank === NO_RANK ? 2 * count : key.descending ? 2 * (count - 1) - rank : rank;
  const loadedPlace = (position: number) => {
    const number = loadedColumn.of[position] as number;
    const rank = number < 0 ? NO_RANK : (ranks[number] as number);
    return place(rank < 0 ? NO_RANK : 2 * rank);
  };
  const addedPlace = (position: number) => {
    const number = addedColumn?.of[position] ?? -1;
    return place(number < 0 ? NO_RANK : doubledRankOf(number));
  };
  return {
    loaded: (a, b) => loadedPlace(a) - loadedPlace(b),
    added: (a, b) => addedPlace(a) - loadedPlace(b),
  };
}

/** A value number of each rank: the loaded values in order, once each. */
const valuesByRankOf = new WeakMap<Int32Array, Int32Array>();

function valuesByRank(ranks: Int32Array, count: number): Int32Array {
  let values = valuesByRankOf.get(ranks);
  if (values === undefined) {
    values = new Int32Array(count);
    ranks.forEach((rank, number) => {
      if (rank >= 0) (values as Int32Array)[rank] = number;
    });
    valuesByRankOf.set(ranks, values);
  }
  return values;
}

/** A value's doubled rank among `count` ranked values; NO_RANK for a value of no rank. */
function placeAmongRanks(
  value: number | string | undefined,
  valueOfRank: (rank: number) => number | string | undefined,
  count: number,
): number {
  if (value === undefined) return NO_RANK;
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareSortValues(valueOfRank(middle) as number | string, value) < 0) low = middle + 1;
    else high = middle;
  }
  const equal = low < count && compareSortValues(valueOfRank(low) as number | string, value) === 0;
  return equal ? 2 * low : 2 * low - 1;
}

/**
 * Label order: a session's record is placed once in the loaded records' whole label order (labels
 * by the collation, ties by key, no label last, as labelOrderOf orders them), and compared
 * after by that place.
 */
function labelOrder(
  order: LabelOrder,
  loaded: OrderedRecords,
  added: OrderedRecords,
  rules: OrderRules,
  byKey: (a: number, b: number) => number,
): CrossOrder {
  if (rules.label === undefined) throw new Error('A label order needs its label field');
  const { key, compare } = collationOf(rules.label.collation);
  const field = rules.label.field;
  const loadedLabel = loaded.column(field);
  const addedLabel = added.column(field);
  // A label as its order reads it: undefined for none, which comes after every label.
  const labelOf = (column: Column | undefined, position: number): string | undefined => {
    const number = column?.of[position] ?? -1;
    if (column === undefined || number < 0) return undefined;
    const value = JSON.parse(packedAt(column.values, number)) as unknown;
    return key(typeof value === 'string' ? value : '');
  };
  const places = new Map<number, number>();
  const placeOf = (a: number): number => {
    let place = places.get(a);
    if (place === undefined) {
      const label = labelOf(addedLabel, a);
      const before = (b: number): boolean => {
        const other = labelOf(loadedLabel, b);
        const byLabel =
          label === undefined
            ? other === undefined
              ? 0
              : 1
            : other === undefined
              ? -1
              : compare(label, other);
        return (byLabel === 0 ? byKey(a, b) : byLabel) < 0;
      };
      let low = 0;
      let high = order.order.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (before(order.order[middle] as number)) high = middle;
        else low = middle + 1;
      }
      place = low;
      places.set(a, place);
    }
    return place;
  };
  const { rank } = order;
  return {
    loaded: (a, b) => (rank[a] as number) - (rank[b] as number),
    added: (a, b) => (placeOf(a) <= (rank[b] as number) ? -1 : 1),
  };
}
