/**
 * The patterns the generator reads (issue 49, item 4): text and keys made from the usual key,
 * slug, code, version and date patterns match them, as judged by the JavaScript engine's own
 * RegExp with the `u` flag that JSON Schema uses (apart from both the reader and the matcher the
 * generator checks with); keys are unique; lengths hold; a pattern past the reader is named with
 * what stops it; hostile patterns stay cheap.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UngeneratableSchema } from '../../src/generate/generation-limits.ts';
import { patternKeys } from '../../src/generate/pattern-keys.ts';
import { PATTERN_STEPS, patternText } from '../../src/generate/pattern-text.ts';
import { readPattern, type PatternNode } from '../../src/generate/read-pattern.ts';
import { seededRandom } from '../../src/util/seeded-random.ts';

const SEMVER =
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$';

const READ: readonly (readonly [string, string])[] = [
  ['a slug', '^[a-z0-9]+(-[a-z0-9]+)*$'],
  ['a prefixed code', '^inv_[a-z0-9]{6}$'],
  ['a relaxed slug', '^[a-z0-9-]{3,40}$'],
  ['a UUID', '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'],
  ['a version (semver.org)', SEMVER],
  ['a date', '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$'],
  ['a time', '^([01]\\d|2[0-3]):[0-5]\\d$'],
  ['an account number', '^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$'],
  ['named and non-capturing groups', '^(?<year>\\d{4})/(?:Q[1-4])$'],
  ['negated classes', '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$'],
  ['escapes', '^\\w+\\.\\d{2}\\x41\\u0042\\u{43}\\t?$'],
  ['accented letters', '^[a-zà-ÿ]+$'],
  ['characters past the BMP', '^[😀-😂]{2,4}$'],
  ['properties', '^\\p{Lu}\\p{Ll}{2,}$'],
  ['no anchors', 'ab?c*\\.\\w{2}'],
  ['lazy repeats', '^a+?b{2,3}?$'],
  ['alternatives at the top', '^foo$|^bar-\\d$'],
  ['a class holding ] and -', '^[\\]\\-a]{3}$'],
  ['groups in groups', '^((ab|c){1,3}-)+x$'],
  ['a dot', '^.{5}$'],
];

function read(pattern: string): PatternNode {
  const result = readPattern(pattern);
  if (!('node' in result)) throw new Error(`${pattern}: ${result.unread}`);
  return result.node;
}

const length = (text: string) => Array.from(text).length;

describe('readPattern and patternText', () => {
  it.each(READ)('read %s, and every text made of it matches it', (_, pattern) => {
    const node = read(pattern);
    const judge = new RegExp(pattern, 'u');
    const random = seededRandom(7);
    for (let i = 0; i < 300; i++) {
      const text = patternText(node, random, 0, 65_536);
      expect(judge.test(text), `${pattern} ~ ${text}`).toBe(true);
    }
  });

  it.each([
    ['^[a-z0-9]+(-[a-z0-9]+)*$', 10, 12],
    ['^[a-z]+$', 20, 20],
    ['^[a-z0-9-]{3,40}$', 3, 5],
    ['^(ab)+c?$', 7, 9],
    [SEMVER, 30, 40],
  ] as const)('make text of %s between %i and %i characters', (pattern, lo, hi) => {
    const node = read(pattern);
    const judge = new RegExp(pattern, 'u');
    const random = seededRandom(11);
    for (let i = 0; i < 200; i++) {
      const text = patternText(node, random, lo, hi);
      expect(judge.test(text), `${pattern} ~ ${text}`).toBe(true);
      expect(length(text), text).toBeGreaterThanOrEqual(lo);
      expect(length(text), text).toBeLessThanOrEqual(hi);
    }
  });

  it.each([
    ['(a)\\1', 'a backreference'],
    ['^a{2,1}$', 'a repeat {2,1}'],
    ['^[z-a]$', 'a range out of order'],
    ['^(ab', 'an unclosed group'],
    ['^ab)$', 'an unmatched )'],
    ['^[^\\s\\S]$', 'a class no character fits'],
    ['^\\k<name>$', 'the escape \\k'],
    ['^(?=a)a$', 'a lookaround'],
    ['^a\\bb$', 'a word boundary'],
    ['^a*+$', 'a repeat of a repeat'],
    ['^\\p{Script=Greek}$', 'the property'],
    [`^${'('.repeat(33)}a${')'.repeat(33)}$`, 'groups nested more than 32 deep'],
    [`^${'a'.repeat(5000)}$`, 'more than 4096 characters'],
  ])('name what stops them in %s', (pattern, what) => {
    const result = readPattern(pattern);
    expect('unread' in result ? result.unread : 'read').toContain(what);
  });

  it('read assertions as the empty text where told to, for the matcher to judge', () => {
    const result = readPattern('^(?!admin$)(?<=^)[a-z]{5}\\b$', 'ignore');
    expect('node' in result).toBe(true);
    if ('node' in result) expect([result.node.least, result.node.most]).toEqual([5, 5]);
  });

  it('stay within their steps where optional repeats nest deep', () => {
    const node = read(`^${'('.repeat(30)}a{0,1000}${'){0,1000}'.repeat(30)}$`);
    const random = seededRandom(3);
    for (let i = 0; i < 20; i++) {
      // Each text visits at most the step budget for what it may leave out: it is short.
      expect(length(patternText(node, random, 0, 65_536))).toBeLessThanOrEqual(PATTERN_STEPS);
    }
  });
});

describe('patternKeys', () => {
  const KEYED: readonly string[] = [
    '^[a-z0-9]+(-[a-z0-9]+)*$',
    '^inv_[a-z0-9]{6}$',
    '^[a-z0-9-]{3,40}$',
    '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
    SEMVER,
    '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
    '^(AB|CD|EF)-\\d{3,}$',
    '^[😀-😂]+$',
  ];

  it.each(KEYED)('make unique keys of %s, each matching it, for any seed', (pattern) => {
    const node = read(pattern);
    const judge = new RegExp(pattern, 'u');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (seed) => {
        const count = 2000;
        const key = patternKeys(node, { count, lo: 0, hi: 64, seed, accepts: () => true });
        const keys = Array.from({ length: count }, (_, i) => key(i));
        expect(new Set(keys).size).toBe(count);
        for (const made of keys) expect(judge.test(made), `${pattern} ~ ${made}`).toBe(true);
      }),
      { numRuns: 5 },
    );
  });

  it('make keys as long as minLength asks', () => {
    const key = patternKeys(read('^[a-z]+$'), {
      count: 10,
      lo: 12,
      hi: 20,
      seed: 1,
      accepts: () => true,
    });
    expect(Array.from({ length: 10 }, (_, i) => length(key(i)) >= 12)).not.toContain(false);
  });

  it.each([
    ['^[ab]{3}$', 9, 64, 'room for 8 keys'],
    ['^[a-z]+$', 1000, 2, 'room for 676 keys of at most 2 characters'],
    ['^(ab)*$', 2, 64, 'room for 1 keys'],
    ['^[a-z]{10}$', 1, 5, 'shortest text is 10 characters'],
  ] as const)('refuse %s for %i keys of at most %i characters', (pattern, count, hi, message) => {
    const make = () =>
      patternKeys(read(pattern), { count, lo: 0, hi, seed: 1, accepts: () => true });
    expect(make).toThrow(UngeneratableSchema);
    expect(make).toThrow(message);
  });

  it('refuse where the matcher refuses the keys made, rather than use them', () => {
    const make = () =>
      patternKeys(read('^[a-z]{4}$'), { count: 5, lo: 0, hi: 64, seed: 1, accepts: () => false });
    expect(make).toThrow('the generator misread its pattern');
  });
});
