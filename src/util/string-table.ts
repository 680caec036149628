/**
 * @module A hash table of packed strings to their places: constant-time lookups of a million
 * string keys in typed arrays that a worker builds and moves, where a Map of them would be
 * built again on the serving thread (hundreds of milliseconds) and hold some 60 MB.
 */
import { packedAt, type PackedStrings } from './packed-strings.ts';

/**
 * Open addressing with linear probing, at most half full: each slot holds a string's index + 1,
 * or 0 when empty.
 */
export type StringTable = Int32Array;

/** The table of distinct strings (the caller makes them distinct). */
export function buildStringTable(strings: PackedStrings): StringTable {
  const count = strings.ends.length;
  let size = 2;
  while (size < count * 2) size *= 2;
  const table = new Int32Array(size);
  const mask = size - 1;
  for (let index = 0; index < count; index++) {
    let slot = hashOf(packedAt(strings, index)) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = index + 1;
  }
  return table;
}

/** The index of `key` among the strings, or -1. */
export function indexInTable(table: StringTable, strings: PackedStrings, key: string): number {
  const mask = table.length - 1;
  let slot = hashOf(key) & mask;
  for (;;) {
    const entry = table[slot] as number;
    if (entry === 0) return -1;
    if (packedAt(strings, entry - 1) === key) return entry - 1;
    slot = (slot + 1) & mask;
  }
}

/** FNV-1a over the UTF-16 code units: no allocation, and good spread for codes and UUIDs. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
