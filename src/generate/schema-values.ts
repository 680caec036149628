/**
 * @module Values a JSON Schema accepts, made from a seeded PRNG and faker's word lists: enums,
 * consts and examples as given; numbers within their bounds; text of its format (email, uri,
 * uuid, date, date-time), of a simple pattern, of its length; and, where the schema says only
 * "text" or "number", something a field of that name would hold (a `city` a city, a `price` a
 * price). Faker's definitions are copied out once and picked from by the PRNG: a faker call per
 * field was most of the time at a million records.
 */
import { Faker, base, en } from '@faker-js/faker';
import type { OpenAPIV3_1 } from 'openapi-types';
import { seededRandom } from '../util/seeded-random.ts';
import { simplePattern, type PatternAtom } from './simple-pattern.ts';
import { decimalsOf } from '../util/decimals.ts';
import { compilePattern, type PatternMatcher } from '../source/linear-pattern.ts';

type Schema = OpenAPIV3_1.SchemaObject;

/** Makes one value; `random` is the record's PRNG, `index` the record's place (from 0). */
export type ValueMaker = (random: () => number, index: number) => unknown;

/** Why a schema's values cannot be made, in words. */
export class UngeneratableSchema extends Error {}

/**
 * What one generated value may cost (docs/fixtures.md, "Limits"): a spec is another team's, and
 * `minLength: 400000000` or `minItems` nested three deep would otherwise fill the memory before
 * the first record is written. A schema whose smallest value passes one is refused at once.
 */
export const GENERATION_LIMITS = {
  /** Characters of one text value. */
  text: 65_536,
  /** Items of one array. */
  items: 10_000,
  /** Arrays and objects nested in one value. */
  depth: 32,
  /** The smallest value's size, estimated in characters of JSON. */
  size: 1024 * 1024,
  /** Schemas read to make one field's values (a `$ref` shared by many members counts each time). */
  schemas: 10_000,
} as const;

/** How many more schemas one field's maker may read. */
interface Budget {
  schemas: number;
}

interface Words {
  readonly first: readonly string[];
  readonly last: readonly string[];
  readonly cities: readonly string[];
  readonly countries: readonly string[];
  readonly countryCodes: readonly string[];
  readonly words: readonly string[];
  readonly streets: readonly string[];
  readonly domains: readonly string[];
}

let words: Words | undefined;

/** Faker's English word lists, copied out of its proxies once: reading them is slow. */
function wordsOf(): Words {
  if (words !== undefined) return words;
  const { definitions } = new Faker({ locale: [en, base] });
  const ascii = (list: readonly string[]) =>
    list.filter((word) => /^[A-Za-z][A-Za-z' -]*$/.test(word));
  words = {
    first: ascii(definitions.person.first_name.generic ?? []),
    last: ascii(definitions.person.last_name.generic ?? []),
    cities: ascii(definitions.location.city_name),
    countries: [...definitions.location.country],
    countryCodes: definitions.location.country_code.map((code) => code.alpha2),
    words: ascii(definitions.lorem.word),
    streets: ascii(definitions.person.last_name.generic ?? []),
    domains: ['example.com', 'example.org', 'example.net'],
  };
  return words;
}

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

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
 * The maker of a schema's values, for a field of this name. Throws UngeneratableSchema where the
 * schema asks for text of a pattern too complex to read and gives no examples.
 */
export function valueMaker(schema: Schema, field: string): ValueMaker {
  const smallest = smallestSize(schema, 0);
  if (smallest > GENERATION_LIMITS.size) {
    throw new UngeneratableSchema(
      `its smallest value is over ${String(GENERATION_LIMITS.size)} characters, more than the generator makes of one value`,
    );
  }
  return makerOf(schema, field, 0, { schemas: GENERATION_LIMITS.schemas });
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
  if (type === 'string') {
    const atoms = schema.pattern === undefined ? undefined : simplePattern(schema.pattern);
    const least = atoms === undefined ? 0 : leastLength(atoms);
    return 2 + Math.max(schema.minLength ?? 0, least);
  }
  return 1;
}

function leastLength(atoms: readonly PatternAtom[]): number {
  return atoms.reduce((sum, atom) => sum + atom.min, 0);
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
      return textMaker(schema, field);
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

const START = Date.UTC(2023, 0, 1);
const SPAN = Date.UTC(2026, 0, 1) - START;

function textMaker(schema: Schema, field: string): ValueMaker {
  if ((schema.minLength ?? 0) > GENERATION_LIMITS.text) {
    throw new UngeneratableSchema(
      `its minLength ${String(schema.minLength)} is more than the ${String(GENERATION_LIMITS.text)} characters the generator makes of one text`,
    );
  }
  const format = schema.format;
  if (format === 'uuid') return (random) => uuidOf(random);
  if (format === 'date-time') return (random) => dateTimeText(START + random() * SPAN);
  if (format === 'date') return (random) => dateText(START + random() * SPAN);
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
  const byName = textByName(field, schema);
  if (schema.pattern !== undefined) {
    const atoms = simplePattern(schema.pattern);
    if (atoms !== undefined && leastLength(atoms) > GENERATION_LIMITS.text) {
      throw new UngeneratableSchema(
        `its pattern asks for at least ${String(leastLength(atoms))} characters, more than the ${String(GENERATION_LIMITS.text)} the generator makes of one text`,
      );
    }
    // A value the field's name suggests where it fits the pattern (`country` and `^[A-Z]{2}$`).
    if (fits(byName, schema)) return byName;
    if (atoms === undefined) {
      const examples: unknown = schema.examples;
      const known: unknown[] = [
        ...(Array.isArray(examples) ? (examples as unknown[]) : []),
        ...('example' in schema ? [(schema as { example: unknown }).example] : []),
        ...(schema.default === undefined ? [] : [schema.default as unknown]),
      ];
      if (known.length > 0) return (random) => pick(random, known);
      throw new UngeneratableSchema(
        `its pattern is more than the generator reads (literals, [classes], \\d, \\w, {n,m}, ?, *, +); give it \`examples\``,
      );
    }
    return (random) => patternText(atoms, random);
  }
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  if (min === 0 && max === Infinity) return byName;
  return (random, index) => fitLength(byName(random, index), min, max, random);
}

/** Whether a maker's values, sampled, all fit the schema's pattern and lengths. */
function fits(maker: ValueMaker, schema: Schema): boolean {
  let pattern: PatternMatcher;
  try {
    pattern = compilePattern(schema.pattern ?? '');
  } catch {
    return false;
  }
  const random = seededRandom(1);
  return Array.from({ length: 20 }, (_, index) => String(maker(random, index))).every((text) => {
    const length = Array.from(text).length;
    return (
      pattern.test(text) &&
      length >= (schema.minLength ?? 0) &&
      length <= (schema.maxLength ?? Infinity)
    );
  });
}

/** Text a field of this name holds: a city for `city`, a person's name for `name`, … */
function textByName(field: string, schema: Schema): ValueMaker {
  const name = field.toLowerCase();
  const w = wordsOf();
  const person = (random: () => number) => `${pick(random, w.first)} ${pick(random, w.last)}`;
  if (/e-?mail/.test(name)) return emailMaker();
  if (/first_?name|given_?name|forename/.test(name)) return (random) => pick(random, w.first);
  if (/last_?name|family_?name|surname/.test(name)) return (random) => pick(random, w.last);
  if (/company|organi[sz]ation|business|vendor|supplier|merchant|brand/.test(name)) {
    return (random) =>
      `${pick(random, w.last)} ${pick(random, ['Ltd', 'Inc', 'GmbH', '& Co', 'Group'])}`;
  }
  if (/city|town/.test(name)) return (random) => pick(random, w.cities);
  if (/country/.test(name)) {
    // A code where the schema wants one (`^[A-Z]{2}$`, `maxLength: 2`), else the country's name.
    const code =
      (schema.maxLength ?? Infinity) <= 3 || /\{2\}|\[A-Z\]\[A-Z\]/.test(schema.pattern ?? '');
    return (random) => pick(random, code ? w.countryCodes : w.countries);
  }
  if (/street|address/.test(name)) {
    return (random) =>
      `${String(1 + Math.floor(random() * 200))} ${pick(random, w.streets)} Street`;
  }
  if (/phone|mobile|tel/.test(name)) {
    return (random) => `+1 555 ${String(1000000 + Math.floor(random() * 9000000)).slice(1)}`;
  }
  if (/url|uri|website|link/.test(name))
    return (random) => `https://www.${pick(random, w.words)}.example.com`;
  if (/currency/.test(name)) return (random) => pick(random, ['EUR', 'USD', 'GBP', 'JPY']);
  if (/_at$|date|created|updated|time/.test(name)) {
    return (random) => dateTimeText(START + random() * SPAN);
  }
  if (/sku|code|reference|ref$/.test(name)) {
    return (random, index) =>
      `${pick(random, w.words).slice(0, 3).toUpperCase()}-${String(10000 + index)}`;
  }
  if (/name|customer|owner|author|contact|user/.test(name)) return person;
  if (/description|memo|note|comment|summary|bio|text|message|title/.test(name)) {
    const capitalized = w.words.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`);
    return (random) => {
      const count = 3 + Math.floor(random() * 6);
      let sentence = pick(random, capitalized);
      for (let i = 1; i < count; i++) sentence += ` ${pick(random, w.words)}`;
      return `${sentence}.`;
    };
  }
  return (random) => pick(random, w.words);
}

function emailMaker(): ValueMaker {
  const w = wordsOf();
  // Each name's local part made once: per address, the replace was a twelfth of the time.
  const local = (list: readonly string[]) =>
    list.map((text) => text.toLowerCase().replaceAll(/[^a-z]/g, ''));
  const [first, last] = [local(w.first), local(w.last)];
  return (random, index) =>
    `${pick(random, first)}.${pick(random, last)}${String(index)}@${pick(random, w.domains)}`;
}

/** Two digits of each number below 100. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));

/**
 * An instant as RFC 3339 UTC to the second, `2024-03-01T10:00:00Z`, by arithmetic: Date's
 * toISOString was a fifth of the time.
 */
export function dateTimeText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  const inDay = seconds - days * 86_400;
  const two = (n: number) => TWO_DIGITS[n] ?? '';
  const hour = Math.floor(inDay / 3600);
  const minute = Math.floor((inDay % 3600) / 60);
  return `${civilDate(days)}T${two(hour)}:${two(minute)}:${two(inDay % 60)}Z`;
}

/** The day of an instant, `2024-03-01`. */
export function dateText(ms: number): string {
  return civilDate(Math.floor(Math.floor(ms / 1000) / 86_400));
}

/** The date of a count of days since 1970-01-01 (H. Hinnant's algorithm). */
function civilDate(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year)}-${TWO_DIGITS[month] ?? ''}-${TWO_DIGITS[day] ?? ''}`;
}

/** Text padded with words up to `min` characters, cut to `max`. */
function fitLength(text: unknown, min: number, max: number, random: () => number): string {
  const given = String(text);
  // Counted in code units first: for text without surrogates, as all of the word lists', they
  // are the code points JSON Schema counts.
  if (given.length >= min && given.length <= max && !/[\uD800-\uDFFF]/.test(given)) return given;
  let value = given;
  while (Array.from(value).length < min) value += ` ${pick(random, wordsOf().words)}`;
  const characters = Array.from(value);
  return characters.length > max
    ? characters.slice(0, max).join('').trimEnd().padEnd(Math.min(max, min), 'x')
    : value;
}

function patternText(atoms: readonly PatternAtom[], random: () => number): string {
  // What each atom may add past its least stays within the limit (`{1,1000000000}`).
  const slack = GENERATION_LIMITS.text - leastLength(atoms);
  let text = '';
  for (const atom of atoms) {
    const max = Math.min(atom.max, atom.min + slack);
    const count = atom.min + Math.floor(random() * (max - atom.min + 1));
    for (let i = 0; i < count; i++) text += pick(random, atom.characters);
  }
  return text;
}

/** Each byte as two hex digits: four lookups a word instead of toString(16) and padStart. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hexOf(word: number): string {
  return `${HEX[word >>> 24] ?? ''}${HEX[(word >>> 16) & 0xff] ?? ''}${HEX[(word >>> 8) & 0xff] ?? ''}${HEX[word & 0xff] ?? ''}`;
}

/** A version 4 UUID from the PRNG: four 32-bit draws, the version and variant bits set. */
export function uuidOf(random: () => number): string {
  const word = () => Math.floor(random() * 0x1_0000_0000) >>> 0;
  const a = hexOf(word());
  const b = hexOf(((word() & 0xffff0fff) | 0x00004000) >>> 0);
  const c = hexOf(((word() & 0x3fffffff) | 0x80000000) >>> 0);
  const d = hexOf(word());
  return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}
