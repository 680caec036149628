/**
 * @module A record read back whole from its collection's columns, as a fixture would hold it:
 * what a write starts from, and what a session's data is kept as.
 */
import { keyAt } from '../query/keys.ts';
import { packedAt } from '../util/packed-strings.ts';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import type { RecordInput } from './build-collection.ts';
import { NO_REST, type Collection } from './collection.ts';

/** The record at a position: its key, its declared fields in their order, then the rest. */
export function recordAt(
  collection: Collection,
  declaration: CollectionDeclaration,
  position: number,
): RecordInput {
  const record: Record<string, unknown> = {};
  for (const field of declaration.fields.keys()) {
    if (field === declaration.key) {
      record[field] = keyAt(collection.keys, position);
      continue;
    }
    const column = collection.column(field);
    const number = column?.of[position] ?? -1;
    if (column !== undefined && number >= 0) {
      own(record, field, JSON.parse(packedAt(column.values, number)) as unknown);
    }
  }
  const rest = collection.restAt(position);
  if (rest !== NO_REST) {
    for (const [field, value] of Object.entries(JSON.parse(rest) as object)) {
      own(record, field, value);
    }
  }
  return record;
}

/** Defined, not assigned: a field named `__proto__` stays a field. */
function own(record: Record<string, unknown>, field: string, value: unknown): void {
  Object.defineProperty(record, field, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
