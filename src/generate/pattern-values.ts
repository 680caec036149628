/**
 * @module Text of a schema's `pattern`: what the field's name suggests where that fits, else
 * text made from the pattern's tree (read-pattern.ts, pattern-text.ts); either one only once
 * the pattern's own linear-time matcher and the schema's lengths accept it.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compilePattern, type PatternMatcher } from '../source/linear-pattern.ts';
import { seededRandom } from '../util/seeded-random.ts';
import { dateText, dateTimeText, DEFAULT_YEARS, spanOfYears } from './date-text.ts';
import { GENERATION_LIMITS, UngeneratableSchema } from './generation-limits.ts';
import { patternText } from './pattern-text.ts';
import { readPattern } from './read-pattern.ts';
import type { ValueMaker } from './text-by-name.ts';
import { uuidOf } from './uuid-text.ts';

type Schema = OpenAPIV3_1.SchemaObject;

const YEARS = spanOfYears(DEFAULT_YEARS.from, DEFAULT_YEARS.to);

/** Text of kinds that patterns often describe, tried against a pattern before its own text. */
const KINDS: readonly ValueMaker[] = [
  (random) => uuidOf(random),
  (random) => dateText(YEARS.start + random() * YEARS.length),
  (random) => dateTimeText(YEARS.start + random() * YEARS.length),
];

/**
 * Tries of a pattern's text before a value is given up on; each is checked by the matcher. Text
 * of a tree read with an assertion left out fits three times in four at worst (see below), so
 * that 32 tries all fail about once in 10^19 values.
 */
const TRIES = 32;

/**
 * Text of a pattern: what the field's name suggests where that fits (`country` and
 * `^[A-Z]{2}$`), else text made from the pattern's tree; either one only once the pattern's
 * matcher and the lengths accept it (as {@link isJudged} says which).
 */
export function patternMaker(schema: Schema, byName: ValueMaker): ValueMaker {
  const pattern = schema.pattern ?? '';
  const judge = textJudge(schema);
  const { accepts } = judge;
  const read = readPattern(pattern, 'ignore');
  let made: ValueMaker | undefined;
  if ('node' in read) {
    const { node } = read;
    if (node.least > GENERATION_LIMITS.text) {
      throw new UngeneratableSchema(
        `its pattern asks for at least ${String(node.least)} characters, more than the ${String(GENERATION_LIMITS.text)} the generator makes of one text`,
      );
    }
    const [lo, hi] = [
      schema.minLength ?? 0,
      Math.min(schema.maxLength ?? Infinity, GENERATION_LIMITS.text),
    ];
    made = (random) => patternText(node, random, lo, hi);
  }
  // What the field's name suggests, else text of a kind the pattern may describe (a date, an
  // instant, a UUID), where twenty samples fit: `2024-03-01` reads better than `8830-06-30`.
  const named = [byName, ...KINDS].find((maker) => samplesFit(maker, accepts));
  if (named === undefined && made === undefined) {
    const fallback: unknown = schema.default;
    if (accepts(fallback)) return () => fallback;
    throw new UngeneratableSchema(
      `its pattern has ${'unread' in read ? read.unread : 'nothing'}, which the generator does not read: give the field \`examples\``,
    );
  }
  // Most of the tree's texts must fit: all do where the tree is exact, and where it left out an
  // assertion (`(?!test)`), those the assertion excludes are drawn again.
  if (named === undefined && made !== undefined && !samplesFit(made, accepts, 15)) {
    throw new UngeneratableSchema(
      'no text the generator makes of its pattern fits the pattern and its lengths: give the field `examples`',
    );
  }
  // A tree read whole makes only text of the pattern; one read with an assertion left out is a
  // guide, and each of its texts goes to the matcher. What the field's name suggests passed
  // twenty samples, and is held to the matcher as often as RE2's cost allows.
  const exact = 'node' in read && read.exact;
  let count = 0;
  return (random, index) => {
    const place = count++;
    const judgedAs = (everyOne: boolean) => (text: unknown) =>
      isJudged(place, everyOne) ? accepts(text) : judge.fitsLengths(text);
    if (named !== undefined) {
      const text = named(random, index);
      if (judgedAs(judge.linear)(text)) return text;
    }
    const fits = judgedAs(judge.linear || !exact);
    for (let i = 0; made !== undefined && i < TRIES; i++) {
      const text = made(random, index);
      if (fits(text)) return text;
    }
    throw new Error(
      `generate made no text that the pattern ${JSON.stringify(pattern)} and its lengths accept in ${String(TRIES)} tries`,
    );
  };
}

/**
 * Whether the `index`th value made goes to the matcher: every one where `everyOne` (the matcher
 * is RE2's, about a microsecond a value, or the text was not made from an exact tree); else the
 * first thousand and one in a hundred after, as records are held to their schema: a pattern RE2
 * cannot run (a repeat past 1000) runs bounded, at about a millisecond a value.
 */
export function isJudged(index: number, everyOne: boolean): boolean {
  return everyOne || index < 1000 || index % 100 === 0;
}

/** Whether text fits a schema's pattern and lengths, and what that costs. */
export interface TextJudge {
  /**
   * The lengths in code points, and the pattern by the one matcher (src/source/linear-pattern.ts)
   * that judges requests and fixtures.
   */
  readonly accepts: (text: unknown) => boolean;
  readonly fitsLengths: (text: unknown) => boolean;
  /** Whether the matcher runs in linear time (RE2), not bounded by a time-out. */
  readonly linear: boolean;
}

export function textJudge(schema: Schema): TextJudge {
  let matcher: PatternMatcher | undefined;
  if (schema.pattern !== undefined) {
    try {
      matcher = compilePattern(schema.pattern);
    } catch {
      throw new UngeneratableSchema(
        `its pattern ${JSON.stringify(schema.pattern)} is not a regular expression`,
      );
    }
  }
  const [min, max] = [schema.minLength ?? 0, schema.maxLength ?? Infinity];
  const fitsLengths = (text: unknown): text is string => {
    if (typeof text !== 'string') return false;
    const length = codePoints(text);
    return length >= min && length <= max;
  };
  return {
    accepts: (text) => fitsLengths(text) && (matcher === undefined || matcher.test(text)),
    fitsLengths,
    linear: matcher?.linear ?? true,
  };
}

function codePoints(text: string): number {
  let surrogates = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) surrogates += 1;
  }
  return text.length - surrogates;
}

/** Whether `needed` of twenty of a maker's values pass (all of them unless told). */
function samplesFit(maker: ValueMaker, accepts: (text: unknown) => boolean, needed = 20): boolean {
  const random = seededRandom(1);
  const samples = Array.from({ length: 20 }, (_, index) => maker(random, index));
  return samples.filter((sample) => accepts(sample)).length >= needed;
}
