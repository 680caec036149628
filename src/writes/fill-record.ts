/**
 * @module A written record made whole: every field the record schema requires and the write did
 * not give, filled as the declaration or the schema says, and the times a write stamps.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { deriveValue } from '../dataset/derive.ts';
import { examplesOf, valueMaker } from '../generate/schema-values.ts';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import { seededRandom } from '../util/seeded-random.ts';
import { seedOf } from './seed-of.ts';

type Schema = OpenAPIV3_1.SchemaObject;

/**
 * Fills each required field the record lacks: a derived one from its source; else the schema's
 * `default`, `const` or first example; else a value made from the schema, seeded by `seed` (the
 * new key's), so a replayed test gets the same record.
 */
export function fillRequired(
  declaration: CollectionDeclaration,
  record: Record<string, unknown>,
  seed: string,
): void {
  const schema = declaration.record as Schema;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const derivations = new Map(declaration.derived.map((one) => [one.field, one]));
  for (const field of schema.required ?? []) {
    if (Object.hasOwn(record, field)) continue;
    const derivation = derivations.get(field);
    if (derivation !== undefined) {
      record[field] = deriveValue(derivation, record[derivation.from]);
      continue;
    }
    const property = properties[field] ?? {};
    if (property.default !== undefined) record[field] = property.default as unknown;
    else if ('const' in property) record[field] = property.const as unknown;
    else {
      const [example] = examplesOf(property);
      record[field] =
        example ?? valueMaker(property, field)(seededRandom(seedOf(`${seed}:${field}`)), 0);
    }
  }
}

/**
 * Sets the read-only date-time fields to the time of the write: each of them on a create, and on
 * a replace or a merge those whose name says they tell the last change (`updatedAt`,
 * `modified_at`), as a client expects them to move.
 */
export function stampTimes(
  schema: Schema,
  record: Record<string, unknown>,
  now: Date,
  which: 'every' | 'updated',
): void {
  for (const [field, property] of Object.entries(
    (schema.properties ?? {}) as Record<string, Schema>,
  )) {
    if (property.readOnly !== true || property.format !== 'date-time') continue;
    if (which === 'updated' && !/updated|modified/i.test(field)) continue;
    record[field] = now.toISOString();
  }
}

/**
 * Why a create's record cannot be made whole, field by field: a required field that the body
 * schema does not name, nothing derives or the path gives, and no value can be made for
 * (`validate` and the start log name them). Empty where every record can be.
 */
export function unfillableFields(
  declaration: CollectionDeclaration,
  body: Schema | undefined,
  implied: ReadonlySet<string>,
): string[] {
  const schema = declaration.record as Schema;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const given = new Set(Object.keys(body?.properties ?? {}));
  const derived = new Set(declaration.derived.map(({ field }) => field));
  const reasons: string[] = [];
  for (const field of schema.required ?? []) {
    if (given.has(field) || derived.has(field) || implied.has(field)) continue;
    if (declaration.embeds.has(field)) continue;
    const property = properties[field] ?? {};
    if (field === declaration.key && declaration.keyType === 'integer') continue;
    if (property.default !== undefined || 'const' in property) continue;
    try {
      valueMaker(property, field);
    } catch (error) {
      reasons.push(`${field}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return reasons;
}
