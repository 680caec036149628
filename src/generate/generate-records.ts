/**
 * @module Records for any declared collection, from its record schema: seeded, so the same seed
 * gives the same data; keys unique by construction; a field that `references` another
 * collection holds one of its keys. What `fixtures generate --spec`, a scenario's `generate:`
 * and `startStockmock` make for a spec of a team's own.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import { seededRandom } from '../util/seeded-random.ts';
import { UngeneratableSchema, uuidOf, valueMaker, type ValueMaker } from './schema-values.ts';
import { simplePattern } from './simple-pattern.ts';

type Schema = OpenAPIV3_1.SchemaObject;
type Key = number | string;

/** A record as a fixture holds it. */
export type GeneratedRecord = Record<string, unknown>;

/** A field whose values cannot be generated, and why. */
export interface GenerationIssue {
  readonly collection: string;
  /** The record schema's path to the field: `properties.vat_number`. */
  readonly path: readonly string[];
  readonly message: string;
}

export interface CollectionPlan {
  readonly declaration: CollectionDeclaration;
  readonly count: number;
}

/** Each collection's records, made on demand in key order: a million never need to be held. */
export type RecordSource = (name: string) => Iterable<GeneratedRecord>;

/**
 * The records of each collection, or every issue found. Keys are a function of the record's
 * place alone, so a reference draws a key of a collection not generated yet, or not at all.
 */
export function recordSources(
  plans: readonly CollectionPlan[],
  seed: number,
): { readonly records: RecordSource } | { readonly issues: readonly GenerationIssue[] } {
  const issues: GenerationIssue[] = [];
  const keys = new Map<string, { key: (index: number) => Key; count: number }>();
  for (const { declaration, count } of plans) {
    try {
      keys.set(declaration.name, { key: keyMaker(declaration, count, seed), count });
    } catch (error) {
      if (!(error instanceof UngeneratableSchema)) throw error;
      issues.push({
        collection: declaration.name,
        path: ['properties', declaration.key],
        message: `the key cannot be generated: ${error.message}`,
      });
    }
  }
  const makers = new Map<string, (random: () => number, index: number) => GeneratedRecord>();
  for (const { declaration } of plans) {
    const maker = recordMaker(declaration, keys, issues);
    if (maker !== undefined) makers.set(declaration.name, maker);
  }
  if (issues.length > 0) return { issues };
  return {
    *records(name: string) {
      const maker = makers.get(name);
      const count = keys.get(name)?.count ?? 0;
      if (maker === undefined) throw new Error(`${name} is not planned`);
      const random = seededRandom(mix(seed, nameHash(name)));
      for (let index = 0; index < count; index++) yield maker(random, index);
    },
  };
}

function recordMaker(
  declaration: CollectionDeclaration,
  keys: ReadonlyMap<string, { key: (index: number) => Key; count: number }>,
  issues: GenerationIssue[],
): ((random: () => number, index: number) => GeneratedRecord) | undefined {
  const record = declaration.record as Schema;
  const required = new Set(record.required ?? []);
  const derived = new Set(declaration.derived.map((derivation) => derivation.field));
  const ownKey = keys.get(declaration.name)?.key;
  const members: { name: string; always: boolean; make: ValueMaker }[] = [];
  for (const [name, schema] of Object.entries(
    (record.properties ?? {}) as Record<string, Schema>,
  )) {
    if (derived.has(name)) continue;
    if (name === declaration.key) {
      if (ownKey !== undefined)
        members.push({ name, always: true, make: (_r, index) => ownKey(index) });
      continue;
    }
    const target = declaration.references.get(name);
    if (target !== undefined) {
      const referred = keys.get(target);
      if (referred === undefined || referred.count === 0) {
        issues.push({
          collection: declaration.name,
          path: ['properties', name],
          message: `references ${target}, which is not generated here (name it too), or holds no records`,
        });
        continue;
      }
      members.push({
        name,
        always: required.has(name),
        make: (random) => referred.key(Math.floor(random() * referred.count)),
      });
      continue;
    }
    try {
      members.push({ name, always: required.has(name), make: valueMaker(schema, name) });
    } catch (error) {
      if (!(error instanceof UngeneratableSchema)) throw error;
      issues.push({
        collection: declaration.name,
        path: ['properties', name],
        message: error.message,
      });
    }
  }
  return (random, index) => {
    const generated: GeneratedRecord = {};
    for (const { name, always, make } of members) {
      if (always || random() < 0.7) generated[name] = make(random, index);
    }
    return generated;
  };
}

/**
 * The key of the record at each place, unique: integers count up from the schema's minimum (1
 * unless it says more); UUIDs are random by place; text of a simple pattern is the place
 * written in the pattern's characters, scattered by a multiplication that is a permutation;
 * other text is the collection's name and the place.
 */
function keyMaker(
  declaration: CollectionDeclaration,
  count: number,
  seed: number,
): (index: number) => Key {
  const schema = ((declaration.record as Schema).properties?.[declaration.key] ?? {}) as Schema;
  if (declaration.keyType === 'integer') {
    const start = Math.max(1, Math.ceil(schema.minimum ?? 1));
    if (schema.maximum !== undefined && start + count - 1 > schema.maximum) {
      throw new UngeneratableSchema(
        `${String(count)} keys do not fit between ${String(start)} and ${String(schema.maximum)}`,
      );
    }
    return (index) => start + index;
  }
  const base = mix(seed, nameHash(declaration.name));
  if (schema.format === 'uuid') return (index) => uuidOf(seededRandom(mix(base, index)));
  if (schema.pattern === undefined) {
    const min = schema.minLength ?? 0;
    return (index) => `${declaration.name}-${String(index + 1)}`.padEnd(min, '0');
  }
  const atoms = simplePattern(schema.pattern);
  if (atoms === undefined) {
    throw new UngeneratableSchema(
      'its pattern is more than the generator reads (literals, [classes], \\d, \\w, {n,m})',
    );
  }
  // Each atom at its largest fixed size, so that there are keys enough.
  const slots = atoms.flatMap((atom) => Array.from({ length: atom.max }, () => atom.characters));
  const capacity = slots.reduce((product, characters) => product * BigInt(characters.length), 1n);
  if (capacity < BigInt(count)) {
    throw new UngeneratableSchema(
      `its pattern has room for ${capacity.toString()} keys, not ${String(count)}`,
    );
  }
  let step = 1_000_003n;
  while (gcd(step, capacity) !== 1n) step += 2n;
  const offset = BigInt(base) % capacity;
  // In doubles where every product is exact (BigInt arithmetic was a twentieth of generating
  // a million invoices); the same keys either way.
  if (BigInt(count) * step + capacity < BigInt(Number.MAX_SAFE_INTEGER)) {
    const [small, stride, first] = [Number(capacity), Number(step), Number(offset)];
    return (index) => {
      let rest = (index * stride + first) % small;
      let text = '';
      for (const characters of slots) {
        text += characters[rest % characters.length] as string;
        rest = Math.floor(rest / characters.length);
      }
      return text;
    };
  }
  return (index) => {
    let rest = (BigInt(index) * step + offset) % capacity;
    let text = '';
    for (const characters of slots) {
      const size = BigInt(characters.length);
      text += characters[Number(rest % size)] as string;
      rest /= size;
    }
    return text;
  };
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}

/** Two numbers mixed into a 32-bit seed (murmur3's finalizer). */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
