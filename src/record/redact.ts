/**
 * @module Fields replaced before a recording is shared: each value by one the data generator
 * makes for the field's schema, the same for the same value throughout a recording.
 *
 * The replacement is drawn from an HMAC of the value under a key: with a key drawn afresh for
 * each run (the default), no one can confirm a guessed original by redacting it again, since the
 * generator is public. `--redact-key` keeps the mapping across runs.
 */
import { createHmac } from 'node:crypto';
import type { OpenAPIV3_1 } from 'openapi-types';
import { UngeneratableSchema, valueMaker, type ValueMaker } from '../generate/schema-values.ts';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import { seededRandom } from '../util/seeded-random.ts';
import type { Fields } from './read-view.ts';

type Schema = OpenAPIV3_1.SchemaObject;

/** Replaces the named fields of a record's fields; the others are kept as they are. */
export type Redactor = (fields: Fields) => Fields;

/** Why a `--redact` name cannot be honoured, in words. */
export class RedactionRefused extends Error {}

/**
 * The redactor of a collection for the names given: `field` (in every collection that has one)
 * or `collection.field`. A key is refused: records are found by it, and other records refer to
 * it.
 */
export function redactorOf(
  collection: CollectionDeclaration,
  names: readonly string[],
  key: string,
): Redactor | undefined {
  const fields = names.flatMap((name) => {
    const dot = name.indexOf('.');
    if (dot < 0) return [name];
    return name.slice(0, dot) === collection.name ? [name.slice(dot + 1)] : [];
  });
  if (fields.length === 0) return undefined;
  if (fields.includes(collection.key)) {
    throw new RedactionRefused(
      `${collection.key} is the key of ${collection.name}: records are found by it, so it cannot be redacted`,
    );
  }
  const declared = (collection.record as Schema).properties ?? {};
  // A declared field's maker is made now: a schema the generator cannot follow is refused
  // before any request is sent.
  const makers = new Map<string, ValueMaker>();
  for (const field of fields) {
    const schema = declared[field] as Schema | undefined;
    if (schema === undefined) continue;
    try {
      makers.set(field, valueMaker(withoutNull(schema), field));
    } catch (error) {
      if (!(error instanceof UngeneratableSchema)) throw error;
      throw new RedactionRefused(`${collection.name}.${field}: ${error.message}`);
    }
  }
  const makerOf = (field: string, value: unknown): ValueMaker =>
    makers.get(field) ?? valueMaker(schemaOfValue(value), field);
  return (shown) => {
    const redacted = new Map(shown);
    for (const field of fields) {
      const value = shown.get(field);
      // Nothing to hide in a value that is not there.
      if (value === undefined || value === null) continue;
      const digest = createHmac('sha256', key).update(JSON.stringify(value)).digest();
      const random = seededRandom(digest.readUInt32LE(0));
      redacted.set(field, makerOf(field, value)(random, digest.readUInt32LE(4) % 1_000_000));
    }
    return redacted;
  };
}

/**
 * The redactor of each collection, by its name; `COLLECTION.FIELD` must name one of them.
 * Throws RedactionRefused for a name nothing can honour.
 */
export function redactorsFor(
  collections: readonly CollectionDeclaration[],
  names: readonly string[],
  key: string,
): ReadonlyMap<string, Redactor | undefined> {
  const owners = new Set(collections.map((collection) => collection.name));
  for (const name of names) {
    const dot = name.indexOf('.');
    if (dot >= 0 && !owners.has(name.slice(0, dot))) {
      throw new RedactionRefused(`${name}: no collection ${name.slice(0, dot)} is recorded`);
    }
  }
  return new Map(
    collections.map((collection) => [collection.name, redactorOf(collection, names, key)]),
  );
}

/**
 * The `--redact` names of no declared field that no record holds either: a typo there would
 * share what it meant to hide, so the recording is not written for them.
 */
export function unheldNames(
  collections: readonly {
    readonly declaration: Pick<CollectionDeclaration, 'name' | 'fields'>;
    holds(field: string): boolean;
  }[],
  names: readonly string[],
): string[] {
  return names.filter((name) => {
    const dot = name.indexOf('.');
    const owner = dot < 0 ? undefined : name.slice(0, dot);
    const field = dot < 0 ? name : name.slice(dot + 1);
    return !collections.some(
      (collection) =>
        (owner === undefined || owner === collection.declaration.name) &&
        (collection.declaration.fields.has(field) || collection.holds(field)),
    );
  });
}

/** The schema without `null` among its types: a value redacted is never made absent. */
function withoutNull(schema: Schema): Schema {
  if (!Array.isArray(schema.type)) return schema;
  const types = schema.type.filter((type) => type !== 'null');
  return { ...schema, type: types.length === 1 ? types[0] : types } as Schema;
}

/** A schema that a field no declaration names holds, read off the value itself. */
function schemaOfValue(value: unknown): Schema {
  if (typeof value === 'string') return { type: 'string' };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (Array.isArray(value)) {
    return {
      type: 'array',
      items: value.length === 0 ? {} : schemaOfValue(value[0]),
      minItems: value.length,
      maxItems: value.length,
    };
  }
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value);
    return {
      type: 'object',
      properties: Object.fromEntries(
        members.map(([name, member]) => [name, schemaOfValue(member)]),
      ),
      required: members.map(([name]) => name),
    };
  }
  return {};
}
