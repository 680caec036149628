/**
 * @module One collection of records as one load made it: immutable, stored by column.
 *
 * Records are stored by column, each declared field as numbered distinct values: a million
 * record objects were a million objects for every full collection to mark, under load, in
 * pauses of 10–30 ms; the columns are a handful of typed arrays. Fields the declaration does not
 * name stay as each record's JSON text, read a page at a time.
 */
import { keyAt, keyBuffers, keyCount, keyLookup, type Key, type KeyColumn } from '../query/keys.ts';
import type { Column } from '../query/query.ts';
import { packedAt, type PackedStrings } from '../util/packed-strings.ts';

/** A field's values, as the query engine reads them too. */
export type ColumnData = Column;

/**
 * A collection as plain columns: what a loading worker builds and hands to the serving thread.
 * Typed arrays move across without a copy; strings are packed, so each list crosses as one.
 */
export interface CollectionData {
  readonly name: string;
  /** The key field. */
  readonly key: string;
  /** Where the records came from, for logs. */
  readonly source: string;
  /** Each record's key, ascending: a record's position is its place in this order. */
  readonly keys: KeyColumn;
  /** Every declared field but the key. */
  readonly columns: Readonly<Record<string, ColumnData>>;
  /**
   * Each record's undeclared fields, as the text of a JSON object (`{}` when none); absent where
   * the caller keeps them in a form of its own (generated data).
   */
  readonly rest?: PackedStrings;
}

/** The records of one load, read by position (0 to size − 1, ascending by key). */
export interface Collection {
  readonly name: string;
  /** The key field. */
  readonly key: string;
  readonly source: string;
  readonly size: number;
  readonly keys: KeyColumn;
  /** The position of the record with this key, or -1. */
  positionOf(key: Key): number;
  /** A declared field's column; undefined for the key and for fields not declared. */
  column(field: string): ColumnData | undefined;
  /** The record's undeclared fields at a position, as the text of a JSON object. */
  restAt(position: number): string;
  /** The columns, for the query engine to index and read. */
  readonly data: CollectionData;
}

/** The buffers of a CollectionData, to move to another thread instead of copying them. */
export function collectionBuffers(data: CollectionData): ArrayBuffer[] {
  return [
    ...keyBuffers(data.keys),
    ...[
      ...Object.values(data.columns).flatMap((column) => [column.of, column.values.ends]),
      ...(data.rest === undefined ? [] : [data.rest.ends]),
    ].map((array) => array.buffer as ArrayBuffer),
  ];
}

/** The text of no undeclared fields. */
export const NO_REST = '{}';

/**
 * The Collection over its columns. A caller that keeps the undeclared fields itself (generated
 * data) gives `restOf`, by key.
 */
export function collectionFromData(
  data: CollectionData,
  restOf?: (key: Key) => string,
): Collection {
  const { keys, columns, rest } = data;
  const restAt =
    restOf !== undefined
      ? (position: number) => restOf(keyAt(keys, position))
      : rest !== undefined
        ? (position: number) => packedAt(rest, position)
        : () => NO_REST;
  const columnOf = new Map(Object.entries(columns));
  return Object.freeze({
    name: data.name,
    key: data.key,
    source: data.source,
    size: keyCount(keys),
    keys,
    positionOf: keyLookup(keys),
    column: (field: string) => columnOf.get(field),
    restAt,
    data,
  });
}
