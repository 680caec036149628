/**
 * @module A collection's keys: integers or strings (codes, UUIDs, slugs), held ascending (numbers
 * by value, text by code point) so that a key's position is found at once and a key range is a
 * run of positions.
 */
import { compareCodePoints } from '../util/code-point-order.ts';
import { packedAt, packStrings, type PackedStrings } from '../util/packed-strings.ts';
import { buildStringTable, indexInTable, type StringTable } from '../util/string-table.ts';

export type Key = number | string;

/** The keys in ascending order: a record's position is its key's place in it. */
export type KeyColumn =
  | { readonly type: 'integer'; readonly values: Float64Array }
  | {
      readonly type: 'string';
      readonly values: PackedStrings;
      /** Each key's position by hash (string-table.ts). */
      readonly table: StringTable;
    };

/** Ascending order of two keys of one type. */
export function compareKeys(a: Key, b: Key): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareCodePoints(String(a), String(b));
}

/** The column of keys already in ascending order and distinct (the loader checks both). */
export function keyColumnOf(type: KeyColumn['type'], sorted: readonly Key[]): KeyColumn {
  if (type === 'integer') return { type, values: Float64Array.from(sorted as readonly number[]) };
  const values = packStrings(sorted as readonly string[]);
  return { type, values, table: buildStringTable(values) };
}

export function keyCount(keys: KeyColumn): number {
  return keys.type === 'integer' ? keys.values.length : keys.values.ends.length;
}

export function keyAt(keys: KeyColumn, position: number): Key {
  return keys.type === 'integer'
    ? (keys.values[position] as number)
    : packedAt(keys.values, position);
}

/** The key at a position as JSON text. */
export function keyJsonAt(keys: KeyColumn, position: number): string {
  return keys.type === 'integer'
    ? String(keys.values[position])
    : JSON.stringify(packedAt(keys.values, position));
}

/**
 * The position of a key, or -1; a key of the other type is none. Integer keys that run without
 * gaps (generated data, most fixtures) are their offset from the first; others are found by
 * binary search; strings by their hash table.
 */
export function keyLookup(keys: KeyColumn): (key: Key) => number {
  if (keys.type === 'string') {
    const { values, table } = keys;
    return (key) => (typeof key === 'string' ? indexInTable(table, values, key) : -1);
  }
  const numbers = keys.values;
  const first = numbers[0] ?? 0;
  const gapless = numbers.every((key, position) => key === first + position);
  return (key) => {
    if (typeof key !== 'number' || !Number.isInteger(key)) return -1;
    if (gapless) return key >= first && key - first < numbers.length ? key - first : -1;
    const position = firstKeyAbove(keys, key, 'or-equal');
    return numbers[position] === key ? position : -1;
  };
}

/**
 * The first position whose key is at least (`or-equal`) or above (`strictly`) the value; the
 * count of keys where none is. A value of the other type is above every key.
 */
export function firstKeyAbove(keys: KeyColumn, value: Key, bound: 'or-equal' | 'strictly'): number {
  const count = keyCount(keys);
  if ((keys.type === 'integer') !== (typeof value === 'number')) return count;
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareKeys(keyAt(keys, middle), value);
    if (bound === 'or-equal' ? order < 0 : order <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The buffers of a key column, to move to another thread instead of copying them. */
export function keyBuffers(keys: KeyColumn): ArrayBuffer[] {
  const arrays = keys.type === 'integer' ? [keys.values] : [keys.values.ends, keys.table];
  return arrays.map((array) => array.buffer as ArrayBuffer);
}
