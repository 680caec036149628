/**
 * @module Values a JSON Schema accepts, made from a seeded PRNG: the spec's own values first
 * (`const`, `enum`, `examples`, `example`), then numbers within their bounds, text of its format
 * (email, uri, uuid, date, date-time), of its pattern (read-pattern.ts), of its length; and,
 * where the schema says only "text" or "number", something a field of that name would hold (a
 * `city` a city, a `price` a price: text-by-name.ts). Text of a pattern is held to the pattern's
 * linear-time matcher before it is used.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../source/create-ajv.ts';
import { decimalsOf } from '../util/decimals.ts';
import { dateText, dateTimeText, DEFAULT_YEARS, spanOfYears } from './date-text.ts';
import { GENERATION_LIMITS, UngeneratableSchema } from './generation-limits.ts';
import { patternMaker } from './pattern-values.ts';
import { uuidOf } from './uuid-text.ts';
import { readPattern } from './read-pattern.ts';
import {
  emailMaker,
  pick,
  textByName,
  wordsOf,
  type FieldContext,
  type ValueMaker,
} from './text-by-name.ts';

export type { FieldContext, ValueMaker } from './text-by-name.ts';
export { UngeneratableSchema } from './generation-limits.ts';

type Schema = OpenAPIV3_1.SchemaObject;

/** Types a schema lets through, `null` apart. */
/** Types a schema lets through, `null` apart. */
function typesOf(schema: Schema): { types: string[]; nullable: boolean } {
  const declared = Array.isArray(schema.type)
    ? schema.type
    : schema.type === undefined
      ? []
      : [schema.type];
  return {
    types: declared.filter((type) => type !== 'null'),
    nullable: declared.includes('null') || (schema as { nullable?: boolean }).nullable === true,
  };
}

/**
 * The maker of a schema's values, for a field of this name (in a record of the context's
 * collection). Throws UngeneratableSchema where the schema asks for what the generator cannot
 * make within its limits, or for text of a pattern it cannot read and gives no examples.
 */
export function valueMaker(schema: Schema, field: string, context: FieldContext = {}): ValueMaker {
  const smallest = smallestSize(schema, 0);
  if (smallest > GENERATION_LIMITS.size) {
    throw new UngeneratableSchema(
      `its smallest value is over ${String(GENERATION_LIMITS.size)} characters, more than the generator makes of one value`,
    );
  }
  return makerOf(schema, field, 0, { schemas: GENERATION_LIMITS.schemas, context });
}

/** How many more schemas one field's maker may read, and where the field is. */
interface Budget {
  schemas: number;
  readonly context: FieldContext;
}

function makerOf(schema: Schema, field: string, depth: number, budget: Budget): ValueMaker {
  budget.schemas -= 1;
  if (budget.schemas < 0) {
    throw new UngeneratableSchema(
      `it is made of more than ${String(GENERATION_LIMITS.schemas)} schemas, more than the generator reads for one field`,
    );
  }
  if (depth > GENERATION_LIMITS.depth) {
    throw new UngeneratableSchema(
      `it nests more than ${String(GENERATION_LIMITS.depth)} arrays and objects deep, more than the generator makes`,
    );
  }
  const given = givenValues(schema);
  if (given !== undefined) return (random) => pick(random, given);
  // The spec's own examples before anything made up: they say what the field holds (an
  // event's `name` is "Jazz at the Mill", not a person's). Dates are spread over the years
  // their examples name instead: a list of one day sorts as nothing.
  const examples = examplesOf(schema);
  if (examples.length > 0 && !isTemporal(schema)) return (random) => pick(random, examples);
  // One of several shapes: the first, as a client most often meets it.
  const [first] = (schema.oneOf ?? schema.anyOf ?? []) as Schema[];
  if (first !== undefined) return makerOf(first, field, depth, budget);
  const { types, nullable } = typesOf(schema);
  const type = types[0] ?? (schema.properties !== undefined ? 'object' : 'string');
  const maker = typedMaker(schema, type, field, depth, budget);
  return nullable ? (random, index) => (random() < 0.1 ? null : maker(random, index)) : maker;
}

/** The values a schema lists itself: its `const`, or its `enum`. */
function givenValues(schema: Schema): readonly unknown[] | undefined {
  if ('const' in schema) return [schema.const as unknown];
  const listed: unknown = schema.enum;
  return Array.isArray(listed) && listed.length > 0 ? (listed as unknown[]) : undefined;
}

let ajv: ReturnType<typeof createAjv> | undefined;
const validators = new WeakMap<Schema, ValidateFunction | undefined>();

/**
 * A schema's own examples (`examples`, then `example`) that it accepts, each once: an example
 * that the schema refuses is a slip of the spec's author, not a value to serve. Only a scalar's
 * examples are read: an object's would be judged member by member, which its members' do.
 */
export function examplesOf(schema: Schema): readonly unknown[] {
  const listed: unknown[] = [
    ...(Array.isArray(schema.examples) ? (schema.examples as unknown[]) : []),
    ...('example' in schema && schema.example !== undefined ? [schema.example as unknown] : []),
  ];
  if (listed.length === 0 || !isScalar(schema)) return [];
  if (!validators.has(schema)) {
    ajv ??= createAjv();
    let validate: ValidateFunction | undefined;
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = undefined;
    }
    validators.set(schema, validate);
  }
  const validate = validators.get(schema);
  if (validate === undefined) return [];
  return [...new Set(listed)].filter((value) => validate(value));
}

function isScalar(schema: Schema): boolean {
  const composite = ['properties', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'if', '$ref'];
  return (
    typesOf(schema).types.every((type) => type !== 'object' && type !== 'array') &&
    composite.every((keyword) => !(keyword in schema))
  );
}

function isTemporal(schema: Schema): boolean {
  return schema.format === 'date' || schema.format === 'date-time';
}

/**
 * The size of a schema's smallest value, in characters of JSON, as far as it can pass the
 * limit: the required members of an object, `minItems` items, `minLength` characters, or a
 * pattern's least. Counting stops past the limit, so that a schema cannot make it slow.
 */
function smallestSize(schema: Schema, depth: number): number {
  if (depth > GENERATION_LIMITS.depth || givenValues(schema) !== undefined) return 1;
  const [first] = (schema.oneOf ?? schema.anyOf ?? []) as Schema[];
  if (first !== undefined) return smallestSize(first, depth);
  const { types } = typesOf(schema);
  const type = types[0] ?? (schema.properties !== undefined ? 'object' : 'string');
  if (type === 'array') {
    const items = 'items' in schema ? schema.items : {};
    return 2 + (schema.minItems ?? 0) * (smallestSize(items, depth + 1) + 1);
  }
  if (type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    let size = 2;
    for (const name of schema.required ?? []) {
      const member = properties[name];
      size += name.length + 4 + (member === undefined ? 1 : smallestSize(member, depth + 1));
      if (size > GENERATION_LIMITS.size) return size;
    }
    return size;
  }
  if (type === 'string') return 2 + Math.max(schema.minLength ?? 0, patternLeast(schema));
  return 1;
}

/** The length of the shortest text of a schema's pattern, where the generator reads it. */
function patternLeast(schema: Schema): number {
  if (schema.pattern === undefined) return 0;
  const read = readPattern(schema.pattern, 'ignore');
  return 'node' in read ? read.node.least : 0;
}

function typedMaker(
  schema: Schema,
  type: string,
  field: string,
  depth: number,
  budget: Budget,
): ValueMaker {
  switch (type) {
    case 'integer':
    case 'number':
      return numberMaker(schema, type, field);
    case 'boolean':
      return (random) => random() < 0.5;
    case 'array': {
      const items = makerOf('items' in schema ? schema.items : {}, field, depth + 1, budget);
      const min = schema.minItems ?? 0;
      if (min > GENERATION_LIMITS.items) {
        throw new UngeneratableSchema(
          `its minItems ${String(min)} is more than the ${String(GENERATION_LIMITS.items)} items the generator makes of one array`,
        );
      }
      const max = Math.max(
        min,
        Math.min(schema.maxItems ?? min + 3, min + 3, GENERATION_LIMITS.items),
      );
      return (random, index) =>
        Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () =>
          items(random, index),
        );
    }
    case 'object':
      return objectMaker(schema, depth, budget);
    default:
      return textMaker(schema, field, budget.context);
  }
}

/** An object's properties: the required always, the others seven times in ten. */
function objectMaker(schema: Schema, depth: number, budget: Budget): ValueMaker {
  const required = new Set(schema.required ?? []);
  const members = Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(
    ([name, member]) => ({
      name,
      always: required.has(name),
      make: makerOf(member, name, depth + 1, budget),
    }),
  );
  return (random, index) => {
    const object: Record<string, unknown> = {};
    for (const { name, always, make } of members) {
      if (always || random() < 0.7) object[name] = make(random, index);
    }
    return object;
  };
}

/** A number within the schema's bounds, of a size a field of this name holds. */
function numberMaker(schema: Schema, type: 'integer' | 'number', field: string): ValueMaker {
  const [low, high] = rangeByName(field);
  const exclusiveMin =
    typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMax =
    typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  const step = schema.multipleOf ?? (type === 'integer' ? 1 : 0.01);
  const lowest = schema.minimum ?? (exclusiveMin === undefined ? -Infinity : exclusiveMin + step);
  const highest = schema.maximum ?? (exclusiveMax === undefined ? Infinity : exclusiveMax - step);
  // The name's usual range where it fits the bounds (a price of 1 to 2 000 within 0 to a
  // million), else the bounds, else a hundred steps from the one bound given.
  let [min, max] = [Math.max(lowest, low), Math.min(highest, high)];
  if (min > max) {
    min = Number.isFinite(lowest) ? lowest : highest - step * 100;
    max = Number.isFinite(highest) ? highest : lowest + step * 100;
  }
  const [from, to] = [Math.ceil(min / step), Math.floor(max / step)];
  if (to < from)
    throw new UngeneratableSchema(`no multiple of ${String(step)} lies between its bounds`);
  // In whole units of the step's last decimal, divided once: 0.1 × 3 is 0.30000000000000004
  // in binary, and 3 / 10 is 0.3 (toFixed and Number were a twentieth of the time).
  const scale = 10 ** decimalsOf(step);
  const units = Math.round(step * scale);
  return (random) => ((from + Math.floor(random() * (to - from + 1))) * units) / scale;
}

/** What a number of this name usually is, where the schema gives no bounds. */
function rangeByName(field: string): [number, number] {
  const name = field.toLowerCase();
  if (/price|amount|total|cost|fee|balance|salary|revenue/.test(name)) return [1, 2000];
  if (/quantity|qty|count|stock|units/.test(name)) return [0, 500];
  if (/age/.test(name)) return [18, 90];
  if (/rating|score|stars/.test(name)) return [1, 5];
  if (/^lat|latitude/.test(name)) return [-90, 90];
  if (/^lon|^lng|longitude/.test(name)) return [-180, 180];
  if (/year/.test(name)) return [1990, 2030];
  if (/percent|ratio/.test(name)) return [0, 100];
  return [0, 1000];
}

function textMaker(schema: Schema, field: string, context: FieldContext): ValueMaker {
  if ((schema.minLength ?? 0) > GENERATION_LIMITS.text) {
    throw new UngeneratableSchema(
      `its minLength ${String(schema.minLength)} is more than the ${String(GENERATION_LIMITS.text)} characters the generator makes of one text`,
    );
  }
  const format = schema.format;
  if (format === 'uuid') return (random) => uuidOf(random);
  if (format === 'date-time' || format === 'date') {
    const { start, length } = yearsOf(examplesOf(schema));
    const text = format === 'date' ? dateText : dateTimeText;
    return (random) => text(start + random() * length);
  }
  if (format === 'email') return emailMaker();
  if (format === 'uri' || format === 'url' || format === 'uri-reference' || format === 'iri') {
    return (random) =>
      `https://www.${pick(random, wordsOf().words)}.example.com/${pick(random, wordsOf().words)}`;
  }
  if (format === 'hostname') return (random) => `${pick(random, wordsOf().words)}.example.com`;
  if (format === 'ipv4') {
    return (random) =>
      Array.from({ length: 4 }, () => String(Math.floor(random() * 256))).join('.');
  }
  const byName = textByName(field, schema, context);
  if (schema.pattern !== undefined) return patternMaker(schema, byName);
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  if (min === 0 && max === Infinity) return byName;
  return (random, index) => fitLength(byName(random, index), min, max, random);
}

/** The span of the years a date field's examples name; 2023 to 2025 without examples. */
function yearsOf(examples: readonly unknown[]): { start: number; length: number } {
  const years = examples
    .map((example) => (typeof example === 'string' ? Date.parse(example) : NaN))
    .filter((ms) => !Number.isNaN(ms))
    .map((ms) => new Date(ms).getUTCFullYear());
  return years.length === 0
    ? spanOfYears(DEFAULT_YEARS.from, DEFAULT_YEARS.to)
    : spanOfYears(Math.min(...years), Math.max(...years));
}

/** Text padded with words up to `min` characters, cut to `max`. */
function fitLength(text: unknown, min: number, max: number, random: () => number): string {
  const given = String(text);
  // Counted in code units first: for text without surrogates, as all of the word lists', they
  // are the code points JSON Schema counts.
  if (given.length >= min && given.length <= max && !/[\uD800-\uDFFF]/.test(given)) return given;
  // Counted as it grows: counting the whole text after each word was quadratic, seconds for
  // a minLength of 65 536.
  const parts = [given];
  let length = Array.from(given).length;
  while (length < min) {
    const word = ` ${pick(random, wordsOf().words)}`;
    parts.push(word);
    length += Array.from(word).length;
  }
  const value = parts.join('');
  const characters = Array.from(value);
  return characters.length > max
    ? characters.slice(0, max).join('').trimEnd().padEnd(Math.min(max, min), 'x')
    : value;
}
