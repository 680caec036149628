/** @module What a write reads of its collection: the records its session sees, by key. */
import type { RecordInput } from '../dataset/build-collection.ts';
import type { Key } from '../query/keys.ts';

/** A collection's records as a session sees them: the loaded ones, with its writes over them. */
export interface SessionRecords {
  /** The record with this key, whole; undefined where there is none (or it was deleted). */
  get(key: Key): RecordInput | undefined;
  /** The highest key the collection has held, deleted ones too: a new integer key goes above. */
  highestKey(): Key | undefined;
}

/** The collection a write changes, as its session sees it now. */
export interface WriteTarget {
  readonly records: SessionRecords;
  /** Another collection's records as the session sees them: what an embedded record is. */
  recordsOf(collection: string): SessionRecords;
  /** What seeds the values made for a new record: the session's name and its count of writes. */
  readonly seed: string;
  readonly now: Date;
}
