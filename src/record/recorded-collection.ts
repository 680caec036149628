/**
 * @module The records of one collection as the reads assemble them: each key's fields from every
 * view that showed it, the fuller view first; then written as the stand-in will read them.
 */
import { deriveValue } from '../dataset/derive.ts';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import type { Fields } from './read-view.ts';
import type { Redactor } from './redact.ts';

export type Key = number | string;

/** A field that two reads of one record showed with different values. */
export interface Disagreement {
  readonly key: Key;
  readonly field: string;
  readonly kept: unknown;
  readonly other: unknown;
}

export interface RecordedCollection {
  readonly declaration: CollectionDeclaration;
  /** The key an item's fields hold, if it is one of the collection's type. */
  keyOf(fields: Fields): Key | undefined;
  has(key: Key): boolean;
  /** Adds what a read showed; a field already held with another value stays as it was. */
  add(key: Key, fields: Fields): Disagreement | undefined;
  readonly size: number;
  keys(): IterableIterator<Key>;
  /** Whether some record holds this field. */
  holds(field: string): boolean;
  /**
   * Each record as the fixture holds it, in the order first met: the key, the declared fields,
   * then the others as shown; a derived field only where it is not what the stand-in derives.
   * Redacted fields are replaced first, so a derived field follows what is written.
   */
  records(redact?: Redactor): Iterable<Readonly<Record<string, unknown>>>;
}

export function createRecordedCollection(declaration: CollectionDeclaration): RecordedCollection {
  // A record is held as one flat array, [field number, value, …] in the order shown: a Map per
  // record took twice the memory, and a million records are held until the fixture is written.
  const names: string[] = [];
  const numbers = new Map<string, number>();
  const numberOf = (field: string): number => {
    let number = numbers.get(field);
    if (number === undefined) {
      number = names.length;
      names.push(field);
      numbers.set(field, number);
    }
    return number;
  };
  const records = new Map<Key, unknown[]>();
  const declared = [...declaration.fields.keys()];
  const fieldsOf = (flat: readonly unknown[]): Map<string, unknown> => {
    const fields = new Map<string, unknown>();
    for (let at = 0; at < flat.length; at += 2) {
      fields.set(names[flat[at] as number] as string, flat[at + 1]);
    }
    return fields;
  };
  return {
    declaration,
    keyOf(fields) {
      const key = fields.get(declaration.key);
      if (declaration.keyType === 'string') return typeof key === 'string' ? key : undefined;
      return typeof key === 'number' && Number.isSafeInteger(key) ? key : undefined;
    },
    has: (key) => records.has(key),
    add(key, fields) {
      const record = records.get(key);
      if (record === undefined) {
        const flat: unknown[] = [];
        for (const [field, value] of fields) flat.push(numberOf(field), value);
        records.set(key, flat);
        return undefined;
      }
      let disagreement: Disagreement | undefined;
      for (const [field, value] of fields) {
        const number = numberOf(field);
        let at = 0;
        while (at < record.length && record[at] !== number) at += 2;
        if (at >= record.length) record.push(number, value);
        else if (disagreement === undefined && !sameJson(record[at + 1], value)) {
          disagreement = { key, field, kept: record[at + 1], other: value };
        }
      }
      return disagreement;
    },
    get size() {
      return records.size;
    },
    keys: () => records.keys(),
    holds: (field) => numbers.has(field),
    *records(redact) {
      for (const flat of records.values()) {
        const fields = fieldsOf(flat);
        yield fixtureRecord(redact === undefined ? fields : redact(fields), declaration, declared);
      }
    },
  };
}

function fixtureRecord(
  fields: ReadonlyMap<string, unknown>,
  declaration: CollectionDeclaration,
  declared: readonly string[],
): Record<string, unknown> {
  // A derived field is data only where it is not what the stand-in derives from its source.
  const derivedAlike = new Set(
    declaration.derived
      .filter(
        (derivation) =>
          fields.has(derivation.field) &&
          fields.get(derivation.field) === deriveValue(derivation, fields.get(derivation.from)),
      )
      .map(({ field }) => field),
  );
  // No prototype: a field named `__proto__` is a field like any other.
  const record = Object.create(null) as Record<string, unknown>;
  const put = (field: string) => {
    if (fields.has(field) && !derivedAlike.has(field)) record[field] = fields.get(field);
  };
  put(declaration.key);
  for (const field of declared) put(field);
  for (const field of fields.keys()) put(field);
  return record;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
