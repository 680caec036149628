/**
 * @module The key of a created record, as its schema says: the next integer; a UUID; a slug of
 * the record's label where the key's schema takes one; else a value made from the key's schema
 * (its pattern), seeded so that a replayed test gets the same keys. Never one already taken.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import { ProblemError } from '../problems/problem-error.ts';
import { WRITE_PROBLEMS } from '../problems/problem-types.ts';
import type { Key } from '../query/keys.ts';
import type { SessionRecords } from './session-records.ts';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import { valueMaker, type ValueMaker } from '../generate/schema-values.ts';
import { createAjv } from '../source/create-ajv.ts';
import { seededRandom } from '../util/seeded-random.ts';
import { seedOf } from './seed-of.ts';

type Schema = OpenAPIV3_1.SchemaObject;

/** How many made values are tried before a create is refused: keys of a narrow pattern run out. */
const TRIES = 64;

const ajv = createAjv();
const keyValidators = new WeakMap<object, ValidateFunction>();
/** Made once per key schema: reading a pattern costs more than a create. */
const keyMakers = new WeakMap<object, ValueMaker>();

export function assignKey(
  declaration: CollectionDeclaration,
  records: SessionRecords,
  seed: string,
  given: Readonly<Record<string, unknown>>,
): Key {
  const schema = ((declaration.record as Schema).properties?.[declaration.key] ?? {}) as Schema;
  if (declaration.keyType === 'integer') {
    const last = records.highestKey();
    const minimum = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
    return Math.max(typeof last === 'number' ? last + 1 : minimum, minimum);
  }
  let validate = keyValidators.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    keyValidators.set(schema, validate);
  }
  const free = (key: unknown): key is string =>
    typeof key === 'string' && validate(key) && records.get(key) === undefined;
  const label = declaration.label === undefined ? undefined : given[declaration.label];
  if (schema.format !== 'uuid' && typeof label === 'string') {
    const slug = slugOf(label);
    for (let n = 1; n <= TRIES; n++) {
      const key = n === 1 ? slug : `${slug}-${String(n)}`;
      if (free(key)) return key;
      // Numbered slugs differ by their number only: where the second is not a key either,
      // none is (a pattern such as `^evt_…` takes no slug; 64 checks were half a create).
      if (n >= 2 && !validate(key)) break;
    }
  }
  let make = keyMakers.get(schema);
  if (make === undefined) {
    make = valueMaker(schema, declaration.key);
    keyMakers.set(schema, make);
  }
  const random = seededRandom(seedOf(seed));
  for (let n = 0; n < TRIES; n++) {
    const key = make(random, n);
    if (free(key)) return key;
  }
  throw ProblemError.from(
    WRITE_PROBLEMS.CONFLICT,
    `No free ${declaration.key} was found for a new record of ${declaration.name} in ${String(TRIES)} tries; give one in the body.`,
  );
}

/** `Harbour Lights!` → `harbour-lights`. */
function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}
