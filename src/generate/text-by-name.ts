/**
 * @module Text a field of a name holds where its schema says only "text": a city for `city`, an
 * address for `email`, a person's name for a `name` of a person, and a name made of words for a
 * `name` of anything else (a venue, a product). Faker's English word lists, copied out once and
 * picked from by the PRNG: a faker call per field was most of the time at a million records.
 */
import { Faker, base, en } from '@faker-js/faker';
import type { OpenAPIV3_1 } from 'openapi-types';
import { dateTimeText, DEFAULT_YEARS, spanOfYears } from './date-text.ts';

type Schema = OpenAPIV3_1.SchemaObject;

/** Makes one value; `random` is the record's PRNG, `index` the record's place (from 0). */
export type ValueMaker = (random: () => number, index: number) => unknown;

/** Where a field is: the collection of its record, which tells whose `name` it is. */
export interface FieldContext {
  readonly collection?: string;
}

interface Words {
  readonly first: readonly string[];
  readonly last: readonly string[];
  readonly cities: readonly string[];
  readonly countries: readonly string[];
  readonly countryCodes: readonly string[];
  readonly words: readonly string[];
  readonly adjectives: readonly string[];
  readonly nouns: readonly string[];
  readonly streets: readonly string[];
  readonly domains: readonly string[];
}

let words: Words | undefined;

/** Faker's English word lists, copied out of its proxies once: reading them is slow. */
export function wordsOf(): Words {
  if (words !== undefined) return words;
  const { definitions } = new Faker({ locale: [en, base] });
  const ascii = (list: readonly string[]) =>
    list.filter((word) => /^[A-Za-z][A-Za-z' -]*$/.test(word));
  const capitalized = (list: readonly string[]) =>
    ascii(list)
      .filter((word) => /^[a-z]+$/.test(word))
      .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`);
  words = {
    first: ascii(definitions.person.first_name.generic ?? []),
    last: ascii(definitions.person.last_name.generic ?? []),
    cities: ascii(definitions.location.city_name),
    countries: [...definitions.location.country],
    countryCodes: definitions.location.country_code.map((code) => code.alpha2),
    words: ascii(definitions.lorem.word),
    adjectives: capitalized(definitions.word.adjective),
    nouns: capitalized(definitions.word.noun),
    streets: ascii(definitions.person.last_name.generic ?? []),
    domains: ['example.com', 'example.org', 'example.net'],
  };
  return words;
}

export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

/** Whose a field is, in its name, its description or its collection's name. */
const PERSON =
  /customer|client|user|member|person|people|author|owner|holder|contact|employee|staff|student|patient|guest|attendee|passenger|recipient|sender/i;

/** Text a field of this name holds: a city for `city`, a person's name for a customer's `name`, … */
export function textByName(field: string, schema: Schema, context: FieldContext = {}): ValueMaker {
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
    const { start, length } = spanOfYears(DEFAULT_YEARS.from, DEFAULT_YEARS.to);
    return (random) => dateTimeText(start + random() * length);
  }
  if (/sku|code|reference|ref$/.test(name)) {
    return (random, index) =>
      `${pick(random, w.words).slice(0, 3).toUpperCase()}-${String(10000 + index)}`;
  }
  if (/user_?name|login|handle|nickname/.test(name)) {
    return (random, index) =>
      `${pick(random, w.first).toLowerCase()}.${pick(random, w.last).toLowerCase()}${String(index)}`;
  }
  if (/name|label/.test(name)) {
    // A person's name only where the field, its description or its collection says whose it
    // is: the `name` of a venue or a product is not a person's.
    const whose = [field, schema.description ?? '', context.collection ?? ''];
    if (whose.some((text) => PERSON.test(text))) return person;
    return (random) => `${pick(random, w.adjectives)} ${pick(random, w.nouns)}`;
  }
  if (/customer|owner|author|contact|user/.test(name)) return person;
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

export function emailMaker(): ValueMaker {
  const w = wordsOf();
  // Each name's local part made once: per address, the replace was a twelfth of the time.
  const local = (list: readonly string[]) =>
    list.map((text) => text.toLowerCase().replaceAll(/[^a-z]/g, ''));
  const [first, last] = [local(w.first), local(w.last)];
  return (random, index) =>
    `${pick(random, first)}.${pick(random, last)}${String(index)}@${pick(random, w.domains)}`;
}
