/**
 * @module Records for any declared collection, from its record schema: seeded, so the same seed
 * gives the same data; keys unique by construction (words such as `riverside-hall-2` where the
 * spec gives names to make them of, else the record's place written in the key's pattern); a
 * field that `references` another collection holds one of its keys. What `fixtures generate
 * --spec`, a scenario's `generate:` and `startStockmock` make for a spec of a team's own.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import { seededRandom } from '../util/seeded-random.ts';
import { GENERATION_LIMITS, UngeneratableSchema } from './generation-limits.ts';
import { mix, nameHash } from './mix-seed.ts';
import { patternKeys } from './pattern-keys.ts';
import { isJudged, textJudge } from './pattern-values.ts';
import { readPattern } from './read-pattern.ts';
import { examplesOf, valueMaker, type ValueMaker } from './schema-values.ts';
import { uuidOf } from './uuid-text.ts';
import { textByName } from './text-by-name.ts';
import { wordKeys } from './word-keys.ts';

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
  const keys = new Map<string, Keys>();
  for (const { declaration, count } of plans) {
    try {
      keys.set(declaration.name, keyMaker(declaration, count, seed));
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
  keys: ReadonlyMap<string, Keys>,
  issues: GenerationIssue[],
): ((random: () => number, index: number) => GeneratedRecord) | undefined {
  const record = declaration.record as Schema;
  const required = new Set(record.required ?? []);
  const derived = new Set(declaration.derived.map((derivation) => derivation.field));
  const own = keys.get(declaration.name);
  const members: { name: string; always: boolean; make: ValueMaker }[] = [];
  for (const [name, schema] of Object.entries(
    (record.properties ?? {}) as Record<string, Schema>,
  )) {
    if (derived.has(name)) continue;
    if (name === declaration.key) {
      if (own !== undefined) members.push({ name, always: true, make: (_r, i) => own.key(i) });
      continue;
    }
    // Named as the key was made: the venue keyed `riverside-hall-2` is the Riverside Hall.
    const label = own?.label;
    if (name === declaration.label && label !== undefined) {
      members.push({ name, always: required.has(name), make: (_r, i) => label(i) });
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
      const context = { collection: declaration.name };
      members.push({ name, always: required.has(name), make: valueMaker(schema, name, context) });
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

/** The keys of a collection by place, and the label each key was made from, if any. */
interface Keys {
  readonly key: (index: number) => Key;
  readonly count: number;
  readonly label?: (index: number) => string;
}

/**
 * The key of the record at each place, unique: integers count up from the schema's minimum (1
 * unless it says more); UUIDs are random by place; text is made of words where the spec gives
 * some (word-keys.ts), else of the key's pattern (pattern-keys.ts), else it is the collection's
 * name and the place. Every text key is held to the key's pattern and lengths as it is made.
 */
function keyMaker(declaration: CollectionDeclaration, count: number, seed: number): Keys {
  const schema = ((declaration.record as Schema).properties?.[declaration.key] ?? {}) as Schema;
  if (declaration.keyType === 'integer') {
    const start = Math.max(1, Math.ceil(schema.minimum ?? 1));
    if (schema.maximum !== undefined && start + count - 1 > schema.maximum) {
      throw new UngeneratableSchema(
        `${String(count)} keys do not fit between ${String(start)} and ${String(schema.maximum)}`,
      );
    }
    return { key: (index) => start + index, count };
  }
  const base = mix(seed, nameHash(declaration.name));
  if (schema.format === 'uuid') {
    return { key: (index) => uuidOf(seededRandom(mix(base, index))), count };
  }
  const judge = textJudge(schema);
  const { accepts } = judge;
  const checked = (key: (index: number) => string) => (index: number) => {
    const made = key(index);
    if (!(isJudged(index, judge.linear) ? accepts(made) : judge.fitsLengths(made))) {
      throw new Error(
        `generate made the key ${JSON.stringify(made)} of ${declaration.name}, which its schema refuses`,
      );
    }
    return made;
  };
  const sources = wordSources(declaration, schema, base);
  const words = sources === undefined ? undefined : wordKeys(sources.texts, count, accepts);
  if (words !== undefined) {
    return sources?.label === true
      ? { key: checked(words.key), count, label: words.source }
      : { key: checked(words.key), count };
  }
  if (schema.pattern === undefined) {
    const min = schema.minLength ?? 0;
    return {
      key: checked((index) => `${declaration.name}-${String(index + 1)}`.padEnd(min, '0')),
      count,
    };
  }
  const read = readPattern(schema.pattern);
  if ('unread' in read) {
    throw new UngeneratableSchema(
      `its pattern has ${read.unread}, which the generator does not read: give the key or the label \`examples\``,
    );
  }
  const lo = schema.minLength ?? 0;
  const hi = Math.min(schema.maxLength ?? Infinity, GENERATION_LIMITS.text);
  return { key: checked(patternKeys(read.node, { count, lo, hi, seed: base, accepts })), count };
}

/**
 * Texts to make keys of words from: the label's examples (each record is then named by the one
 * its key was made from), else the key's own examples; else, for a key of a pattern, names the
 * label's own maker makes, or two words (so that a slug reads `riverside-hall` or
 * `brave-window`, not `k3`).
 */
function wordSources(
  declaration: CollectionDeclaration,
  keySchema: Schema,
  seed: number,
): { readonly texts: readonly string[]; readonly label: boolean } | undefined {
  const strings = (values: readonly unknown[]) =>
    values.filter((value): value is string => typeof value === 'string');
  const { label } = declaration;
  const labelSchema =
    label === undefined
      ? undefined
      : ((declaration.record as Schema).properties?.[label] as Schema | undefined);
  const named = labelSchema === undefined ? [] : strings(examplesOf(labelSchema));
  if (named.length > 0) return { texts: named, label: true };
  const own = strings(examplesOf(keySchema));
  if (own.length > 0) return { texts: own, label: false };
  if (keySchema.pattern === undefined) return undefined;
  const random = seededRandom(seed);
  const draw = (make: ValueMaker) => strings(Array.from({ length: 64 }, (_, i) => make(random, i)));
  if (label !== undefined && labelSchema !== undefined) {
    try {
      return {
        texts: draw(valueMaker(labelSchema, label, { collection: declaration.name })),
        label: true,
      };
    } catch (error) {
      if (!(error instanceof UngeneratableSchema)) throw error;
    }
  }
  // Named as a thing, not a person: two words.
  return { texts: draw(textByName('name', {}, {})), label: false };
}
