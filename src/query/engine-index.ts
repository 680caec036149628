/** @module What the query engine derives from a collection's columns, once per load. */
import { packStrings, unpackStrings, type PackedStrings } from '../util/packed-strings.ts';
import { foldName } from './fold-name.ts';
import { orderValueOf } from './order-value.ts';
import {
  keyRanks,
  orderKeyOf,
  rankCount,
  rankValues,
  sortPositions,
  type RankedColumn,
  type RankKind,
  type SortKey,
} from './sort.ts';
import { buildNameIndexData, nameIndexBuffers, type NameIndexData } from './name-index.ts';
import type { Column } from './query.ts';

/**
 * The positions that hold each value of a column, ascending, value after value: value `v`'s
 * are `positions[starts[v]]` up to `starts[v + 1]`. One array, not one per value: a hundred
 * thousand names were a hundred thousand buffers to move and to collect.
 */
export interface Postings {
  readonly positions: Int32Array;
  readonly starts: Int32Array;
}

/**
 * A field that `exact`, `min` and `max` conditions read: the postings of its values, and its
 * values in two orders, so that the serving thread finds a value by binary search instead of
 * building a Map or sorting on the first request (a million distinct values: a stall of
 * hundreds of milliseconds).
 */
export interface ValueIndexData {
  readonly postings: Postings;
  /** The value numbers, ascending by their JSON text (code units). */
  readonly byText: Int32Array;
  /** The value numbers of the values in order (numbers, dates and date-times), ascending… */
  readonly byNumber: Int32Array;
  /** …and their places in order (order-value.ts). */
  readonly numbers: Float64Array;
}

/** A `contains` field: its distinct values folded, numbered, listed and indexed by trigram. */
export interface TextIndexData {
  /** Every distinct folded value, packed. */
  readonly folded: PackedStrings;
  /** For the record at each position, the number of its folded value; -1 where it has none. */
  readonly of: Int32Array;
  readonly postings: Postings;
  /** The trigram index of the folded values; none past its size limit (see name-index.ts). */
  readonly grams: NameIndexData | undefined;
}

/**
 * What is derived from the columns: typed arrays only, so that the loading worker builds it and
 * moves it to the serving thread. Private to the engine: the layouts may change with it.
 */
export interface EngineIndexData {
  /** Each field that an `exact`, `min` or `max` condition reads. */
  readonly exact: Readonly<Record<string, ValueIndexData>>;
  /** The text index of each field that a `contains` condition reads. */
  readonly contains: Readonly<Record<string, TextIndexData>>;
  /** The rank of each value of each field a list may be sorted by (sort.ts). */
  readonly ranks: Readonly<Record<string, Int32Array>>;
  /** Whole orders, by their names (orderKeyOf): the positions sorted by their keys. */
  readonly orders: Readonly<Record<string, Int32Array>>;
}

/** Which fields the declarations filter, and how, and sort by: what is worth indexing at load. */
export interface IndexPlan {
  readonly exact: readonly string[];
  readonly contains: readonly string[];
  readonly ranked?: Readonly<Record<string, RankKind>>;
  /**
   * Whole orders to build at load, each of ranked fields and perhaps the key (`key`): sorting a
   * million records on the first request that asks stalled the serving thread for 150–245 ms.
   */
  readonly orders?: readonly (readonly SortKey[])[];
  /** The key field, which orders may name. */
  readonly key?: string;
}

export function buildEngineIndexData(
  columns: Readonly<Record<string, Column>>,
  plan: IndexPlan,
): EngineIndexData {
  const exact: Record<string, ValueIndexData> = {};
  for (const field of plan.exact) {
    const column = columns[field];
    if (column !== undefined) exact[field] = valueIndexOf(column);
  }
  const contains: Record<string, TextIndexData> = {};
  for (const field of plan.contains) {
    const column = columns[field];
    if (column !== undefined) contains[field] = textIndexOf(column.values, column.of);
  }
  const ranks: Record<string, Int32Array> = {};
  for (const [field, kind] of Object.entries(plan.ranked ?? {})) {
    const column = columns[field];
    if (column !== undefined) ranks[field] = rankValues(column.values, kind);
  }
  return { exact, contains, ranks, orders: wholeOrders(columns, ranks, plan) };
}

function wholeOrders(
  columns: Readonly<Record<string, Column>>,
  ranks: Readonly<Record<string, Int32Array>>,
  plan: IndexPlan,
): Record<string, Int32Array> {
  const orders: Record<string, Int32Array> = {};
  for (const keys of plan.orders ?? []) {
    // Every order names a ranked field (the key alone needs no order built): its column says
    // how many records there are.
    const size = keys.flatMap(({ field }) => columns[field]?.of.length ?? [])[0];
    if (size === undefined) continue;
    const ranked = keys.map((key): readonly [RankedColumn, SortKey] | undefined => {
      if (key.field === plan.key) return [keyRanks(size), key];
      const of = columns[key.field]?.of;
      const values = ranks[key.field];
      return of === undefined || values === undefined
        ? undefined
        : [{ of, ranks: values, count: rankCount(values) }, key];
    });
    if (ranked.every((column) => column !== undefined)) {
      orders[orderKeyOf(keys)] = sortPositions(undefined, size, ranked);
    }
  }
  return orders;
}

/** Two passes over the numbers, a counting sort: positions stay ascending within each value. */
export function postingsOf(of: Int32Array, distinct: number): Postings {
  const starts = new Int32Array(distinct + 1);
  for (const number of of) if (number >= 0) starts[number + 1] = (starts[number + 1] as number) + 1;
  for (let value = 0; value < distinct; value++) {
    starts[value + 1] = (starts[value + 1] as number) + (starts[value] as number);
  }
  const positions = new Int32Array(starts[distinct] as number);
  const filled = starts.slice(0, distinct);
  of.forEach((number, position) => {
    if (number < 0) return;
    positions[filled[number] as number] = position;
    filled[number] = (filled[number] as number) + 1;
  });
  return { positions, starts };
}

function valueIndexOf(column: Column): ValueIndexData {
  const texts = unpackStrings(column.values);
  const byText = Int32Array.from(texts.keys()).sort((a, b) => {
    const [x, y] = [texts[a] as string, texts[b] as string];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const numeric: [value: number, number: number][] = [];
  texts.forEach((text, number) => {
    const value = orderValueOf(JSON.parse(text));
    if (value !== undefined) numeric.push([value, number]);
  });
  numeric.sort((a, b) => a[0] - b[0]);
  return {
    postings: postingsOf(column.of, texts.length),
    byText,
    byNumber: Int32Array.from(numeric, ([, number]) => number),
    numbers: Float64Array.from(numeric, ([value]) => value),
  };
}

/** Folds each distinct value once (values repeat a lot: names of a million products, ten thousand). */
function textIndexOf(values: PackedStrings, valueOf: Int32Array): TextIndexData {
  const numbers = new Map<string, number>();
  const foldedOfValue = unpackStrings(values).map((json) => {
    const value = JSON.parse(json) as unknown;
    if (typeof value !== 'string') return -1;
    const folded = foldName(value);
    let number = numbers.get(folded);
    if (number === undefined) {
      number = numbers.size;
      numbers.set(folded, number);
    }
    return number;
  });
  const of = valueOf.map((value) => (value < 0 ? -1 : (foldedOfValue[value] as number)));
  const folded = [...numbers.keys()];
  return {
    folded: packStrings(folded),
    of,
    postings: postingsOf(of, folded.length),
    grams: buildNameIndexData(folded),
  };
}

/** The buffers of the derived data, to move to another thread instead of copying them. */
export function engineIndexBuffers(data: EngineIndexData): ArrayBuffer[] {
  const postings = (p: Postings) => [p.positions, p.starts];
  return [
    ...Object.values(data.exact).flatMap((value) => [
      ...postings(value.postings),
      value.byText,
      value.byNumber,
      value.numbers,
    ]),
    ...Object.values(data.contains).flatMap((text) => [
      text.folded.ends,
      text.of,
      ...postings(text.postings),
    ]),
    ...Object.values(data.ranks),
    ...Object.values(data.orders),
  ]
    .map((array) => array.buffer as ArrayBuffer)
    .concat(
      Object.values(data.contains).flatMap((text) =>
        text.grams === undefined ? [] : nameIndexBuffers(text.grams),
      ),
    );
}
