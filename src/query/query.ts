/** @module The shapes the query engine takes and gives. */
import type { PackedStrings } from '../util/packed-strings.ts';
import type { CursorPosition } from './cursor.ts';
import type { Key, KeyColumn } from './keys.ts';

/** A field's values: each distinct one once, as JSON text, and each record's number. */
export interface Column {
  /** The JSON text of each distinct value, in the order first seen. */
  readonly values: PackedStrings;
  /** For the record at each position, the number of its value; -1 where it has none. */
  readonly of: Int32Array;
}

/** What the engine reads of a collection: its positions (in key order), key and columns. */
export interface EngineSource {
  /** The key field: conditions on it are lookups, not indexes. */
  readonly key: string;
  readonly size: number;
  /** Each record's key, ascending: a condition on the key is a run of positions. */
  readonly keys: KeyColumn;
  /** The position of the record with this key, or -1. */
  positionOf(key: Key): number;
  column(field: string): Column | undefined;
}

/**
 * How a condition matches its field: `exact`, the value itself; `contains`, a case-insensitive,
 * literal substring (Unicode case folding, no wildcards).
 */
export const MATCHES = ['exact', 'contains', 'min', 'max'] as const;
export type Match = (typeof MATCHES)[number];

/** One value a condition asks for. */
export type ConditionScalar = string | number | boolean;

/**
 * One filter of a list request: a field, how it matches, and the value asked for; an `exact`
 * condition given several values keeps a record that equals any of them.
 */
export interface Condition {
  readonly field: string;
  readonly match: Match;
  readonly value: ConditionScalar | readonly ConditionScalar[];
}

/** A page request, already validated against the spec's bounds. */
export interface PageRequest {
  /** The first item's place in the list, from 0. */
  readonly start: number;
  /** From 1; undefined for the whole list. */
  readonly limit: number | undefined;
  /**
   * Where a cursor (given in `parameter`) says the page is: right after an item, or right before
   * it; then `start` is not read.
   */
  readonly cursor?: { readonly position: CursorPosition; readonly parameter: string };
}

/** One page of a filtered, ordered list. */
export interface Page<T> {
  readonly items: readonly T[];
  /** The first item's place in the list, from 0. */
  readonly start: number;
  /** The page size: the total, at least 1, for a whole list. */
  readonly limit: number;
  /** Items matching the filter, over all pages. */
  readonly total: number;
  /** The page's number from 1 (pages counted from the first item). */
  readonly page: number;
  /** max(1, ceil(total / limit)): an empty list still has one (empty) page. */
  readonly lastPage: number;
}
