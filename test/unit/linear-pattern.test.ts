/**
 * A spec's `pattern` matched in linear time: the same answers as ECMA-262's RegExp for every
 * pattern RegExp runs without trouble (RegExp is the oracle here, on inputs a seeded generator
 * picks from each pattern's own alphabet), and an answer at once where RegExp would backtrack
 * for ever.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compilePattern,
  patternsBeyondLinear,
  linearRegExpEngine,
} from '../../src/source/linear-pattern.ts';
import { createAjv } from '../../src/source/create-ajv.ts';

// Patterns of the kinds real specs write: anchors, classes, escapes, Unicode, counts, groups.
const PATTERNS = [
  '^[a-z0-9]+(-[a-z0-9]+)*$',
  '^\\d{3}-\\d{4}$',
  '^[A-Z]{2}$',
  '\\s',
  '^\\S+$',
  '^[^\\s@]+@[^\\s@]+$',
  '^[\\w.-]+$',
  '^\\p{L}+$',
  '^\\u00e9+',
  '^(?<year>\\d{4})-(?<month>\\d{2})$',
  '^[^]$',
  '^\\/v1\\/.*',
  'a|b|c',
  '^$',
  '^[\\s-]+$',
  '[[]',
  '^[\\]a]+$',
  '^\\x41\\cJ?$',
  '^.{2,5}$',
  '\\bcat\\b',
];

const ALPHABET = [
  'a',
  'Z',
  '0',
  '9',
  '-',
  ' ',
  '\t',
  '\u00a0',
  '\u2028',
  '\n',
  '@',
  '.',
  '/',
  '_',
  'é',
  '中',
  '🪑',
  '[',
  ']',
  'c',
  't',
  'A',
];

describe('compilePattern', () => {
  it.each(PATTERNS)('answers as RegExp does for %s', (source) => {
    const native = new RegExp(source, 'u');
    const linear = compilePattern(source);
    expect(linear.linear).toBe(true);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }), (chars) => {
        const input = chars.join('');
        expect(linear.test(input)).toBe(native.test(input));
      }),
      { seed: 48, numRuns: 400 },
    );
  });

  it('answers a catastrophic pattern at once, in both directions', () => {
    const nested = compilePattern('^(a+)+$');
    expect(nested.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(nested.test('a'.repeat(100_000))).toBe(true);
    expect(compilePattern('^([a-z]+)*$').test(`${'a'.repeat(5000)}1`)).toBe(false);
  });

  it('runs a lookahead or a backreference by RegExp, within a bound', () => {
    const password = compilePattern('^(?=.*\\d).{4,}$');
    expect(password.linear).toBe(false);
    expect(password.test('abc1')).toBe(true);
    expect(password.test('abcd')).toBe(false);
    // A repeat's upper count past RE2's 1000 too: said to be bounded, not linear.
    const long = compilePattern('^[a-z]{1,5000}$');
    expect(long.linear).toBe(false);
    expect(long.test('abc')).toBe(true);
    expect(long.test('ab1')).toBe(false);
    const repeated = compilePattern('^(a)\\1$');
    expect(repeated.test('aa')).toBe(true);
    // Catastrophic and beyond RE2: refused when the bound runs out, not the thread held.
    const hostile = compilePattern('^(?=a)(a+)+$');
    expect(hostile.test(`${'a'.repeat(40)}!`)).toBe(false);
  });

  it('refuses a pattern no engine reads, as RegExp does', () => {
    expect(() => compilePattern('(')).toThrow(SyntaxError);
  });
});

describe('Ajv with the linear engine', () => {
  it('validates patterns and pattern properties without backtracking', () => {
    const ajv = createAjv();
    const validate = ajv.compile({
      type: 'object',
      properties: { name: { type: 'string', pattern: '^(a+)+$' } },
      patternProperties: { '^(x+)+$': { type: 'integer' } },
    });
    expect(validate({ name: `${'a'.repeat(50)}!` })).toBe(false);
    expect(validate({ name: 'aaa' })).toBe(true);
    expect(validate({ name: 'aaa', ['x'.repeat(50)]: 'not an integer' })).toBe(false);
    expect(linearRegExpEngine.code).toBe('compilePattern');
  });
});

describe('patternsBeyondLinear', () => {
  it('names each pattern that needs the bounded engine, by its path', () => {
    const document = {
      paths: {
        '/a': {
          get: {
            parameters: [
              { name: 'p', schema: { type: 'string', pattern: '^(?=.*\\d).+$' } },
              { name: 'q', schema: { type: 'string', pattern: '^[a-z]+$' } },
            ],
          },
        },
      },
      components: { schemas: { S: { patternProperties: { '(x)\\1': {} } } } },
    };
    expect(patternsBeyondLinear(document)).toEqual([
      {
        path: ['paths', '/a', 'get', 'parameters', 0, 'schema', 'pattern'],
        pattern: '^(?=.*\\d).+$',
      },
      { path: ['components', 'schemas', 'S', 'patternProperties', '(x)\\1'], pattern: '(x)\\1' },
    ]);
  });
});
