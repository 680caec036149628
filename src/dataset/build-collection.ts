/** @module Validated records → a collection's columns (what a loading worker builds). */
import { compareKeys, keyColumnOf, type Key } from '../query/keys.ts';
import { packStrings } from '../util/packed-strings.ts';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import { NO_REST, type ColumnData, type CollectionData } from './collection.ts';
import { deriveValue } from './derive.ts';

/** A record as a fixture gives it, already valid by the collection's schema. */
export type RecordInput = Readonly<Record<string, unknown>>;

/**
 * A record's own value of a field: a field named like a member of Object.prototype
 * (`toString`, `constructor`) that the record lacks is absent, not the inherited member.
 */
export function fieldOf(record: RecordInput, field: string): unknown {
  return Object.hasOwn(record, field) ? record[field] : undefined;
}

/**
 * The columns of records in any order; keys must be unique (the loader checks). With
 * `rest: 'elsewhere'` the caller keeps the undeclared fields itself (see collectionFromData).
 */
export function buildCollection(
  declaration: CollectionDeclaration,
  source: string,
  records: readonly RecordInput[],
  rest: 'keep' | 'elsewhere' = 'keep',
): CollectionData {
  const { key } = declaration;
  const keyOf = (record: RecordInput) => fieldOf(record, key) as Key;
  // Hand-written and generated fixtures usually come sorted: check in one pass before sorting.
  let sorted = true;
  for (let i = 1; i < records.length && sorted; i++) {
    sorted =
      compareKeys(keyOf(records[i - 1] as RecordInput), keyOf(records[i] as RecordInput)) < 0;
  }
  const ordered = sorted ? records : [...records].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  const size = ordered.length;
  const derivations = new Map(
    declaration.derived.map((derivation) => [derivation.field, derivation]),
  );
  const fields = [...declaration.fields.keys()].filter((field) => field !== key);
  // A field at a time over every record: one derivation lookup a field, not a record.
  const numberings = fields.map((field) => {
    const numbered = numbering(size);
    const derivation = derivations.get(field);
    for (let position = 0; position < size; position++) {
      const record = ordered[position] as RecordInput;
      let value = fieldOf(record, field);
      if (value === undefined && derivation !== undefined) {
        value = deriveValue(derivation, fieldOf(record, derivation.from));
      }
      numbered.add(position, value);
    }
    return numbered;
  });
  const restTexts =
    rest === 'keep' ? ordered.map((record) => restOf(record, declaration.fields)) : undefined;
  return {
    name: declaration.name,
    key,
    source,
    keys: keyColumnOf(declaration.keyType, ordered.map(keyOf)),
    columns: Object.fromEntries(
      fields.map((field, index) => [field, (numberings[index] as Numbering).column()]),
    ),
    ...(restTexts === undefined ? {} : { rest: packStrings(restTexts) }),
  };
}

/** A record's undeclared fields, in their order, as JSON object text. */
function restOf(record: RecordInput, declared: ReadonlyMap<string, unknown>): string {
  // A plain object, not one without a prototype: JSON.stringify writes those twice as fast.
  let rest: Record<string, unknown> | undefined;
  for (const field of Object.keys(record)) {
    if (declared.has(field)) continue;
    rest ??= {};
    // Defined, not assigned: a field named `__proto__` is kept as a field.
    if (field === '__proto__') Object.defineProperty(rest, field, ownField(record[field]));
    else rest[field] = record[field];
  }
  return rest === undefined ? NO_REST : JSON.stringify(rest);
}

function ownField(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}

interface Numbering {
  add(position: number, value: unknown): void;
  column(): ColumnData;
}

/**
 * Numbers each distinct value in the order first seen. Strings, numbers, booleans and null are
 * told apart by the value itself (a Map keeps 1 and "1" apart), objects by their JSON text, in
 * a Map of their own so that no string can read the same; each distinct value is written as JSON
 * once.
 */
function numbering(size: number): Numbering {
  const numbers = new Map<unknown, number>();
  const objectNumbers = new Map<string, number>();
  const texts: string[] = [];
  const of = new Int32Array(size).fill(-1);
  const numberOf = <K>(known: Map<K, number>, identity: K, json: () => string): number => {
    let number = known.get(identity);
    if (number === undefined) {
      number = texts.length;
      known.set(identity, number);
      texts.push(json());
    }
    return number;
  };
  return {
    add(position, value) {
      if (value === undefined) return;
      if (typeof value === 'object' && value !== null) {
        const json = JSON.stringify(value);
        of[position] = numberOf(objectNumbers, json, () => json);
      } else {
        of[position] = numberOf(numbers, value, () => JSON.stringify(value));
      }
    },
    column: () => ({ values: packStrings(texts), of }),
  };
}
