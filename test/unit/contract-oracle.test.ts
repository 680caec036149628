/**
 * The contract checker's own rules, pinned to literal values: the folding from CaseFolding.txt
 * and PRODUCT.md, the parameter verdicts from the interface's Limits and each parameter's schema.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { answerRuleFindings } from '../../src/contract/checks/http-rules.ts';
import { remainderSizes } from '../../src/contract/checks/generated.ts';
import { foldCase, foldLoosely } from '../../src/contract/oracle/fold-case.ts';
import { instantsOf } from '../../src/contract/oracle/instants.ts';
import {
  judgeQuery,
  judgeValue,
  queryRules,
  type Validity,
} from '../../src/contract/oracle/parameter-rules.ts';

describe('foldCase', () => {
  it.each([
    ['Oak TABLE 100%', 'oak table 100%'],
    ['Straße', 'strasse'], // CaseFolding.txt 00DF; F; 0073 0073
    ['STRAẞE', 'strasse'], // 1E9E; F; 0073 0073
    ['ς', 'σ'], // 03C2; C; 03C3
    ['ΣΟΦΟΣ σοφος', 'σοφοσ σοφοσ'],
    ['µ', 'μ'], // 00B5; C; 03BC
    ['ﬁ', 'fi'], // FB01; F
    ['Cafe\u0301', 'caf\u00e9'], // composed first
    ['\u0390', '\u0390'], // upper-cased it comes apart; composed again last
    ['', ''],
  ])('folds %j to %j', (text, folded) => {
    expect(foldCase(text)).toBe(folded);
  });
});

describe('foldLoosely', () => {
  it.each([
    ['Café', 'cafe'],
    ['CAFE\u0301', 'cafe'],
    ['ﬁne', 'fine'],
    ['①', '1'],
    ['Ǆ', 'dz'],
    ['STRAẞE', 'strasse'],
    ['\u0390', '\u03b9'],
  ])('reads %j as %j', (text, folded) => {
    expect(foldLoosely(text)).toBe(folded);
  });
});

describe('judgeValue of typed parameters (issue 38)', () => {
  it.each([
    [{ type: 'number' }, '99.99', 'valid'],
    [{ type: 'number' }, '1e3', 'valid'],
    [{ type: 'number', minimum: 0 }, '-0.5', 'invalid'],
    [{ type: 'number' }, 'ten', 'invalid'],
    [{ type: 'number' }, '1.', 'open'],
    [{ type: 'boolean' }, 'false', 'valid'],
    [{ type: 'boolean' }, 'TRUE', 'open'],
    [{ type: 'boolean' }, 'maybe', 'invalid'],
    [{ type: 'string', format: 'date' }, '2024-02-29', 'valid'],
    // A format is an annotation unless the validator asserts it: either answer is correct.
    [{ type: 'string', format: 'date' }, '2023-02-29', 'open'],
    [{ type: 'string', format: 'date-time' }, '2024-03-01T10:00:00+02:00', 'valid'],
    [{ type: 'string', format: 'date-time' }, '2024-03-01', 'open'],
    [{ type: 'string', format: 'uuid' }, '0b7c6a8e-5f7e-4d3a-9a51-6a2f4f0d9c11', 'valid'],
    [{ type: 'array', items: { type: 'integer' } }, '7', 'valid'],
    [{ type: 'array', items: { type: 'integer' } }, 'x', 'invalid'],
    // Two items or one, by the style: the checker does not guess.
    [{ type: 'array', items: { type: 'string' } }, 'a,b', 'open'],
    [{ type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, 'c', 'invalid'],
  ] as const)('%o %j is %s', (schema, raw, verdict) => {
    expect(judgeValue(schema as OpenAPIV3_1.SchemaObject, raw)).toBe(verdict);
  });
});

describe('instantsOf', () => {
  it('reads a date-time as its instant, whatever the offset', () => {
    const utc = instantsOf('2024-03-01T08:00:00Z');
    expect(utc).toEqual({ kind: 'date-time', at: Date.UTC(2024, 2, 1, 8) });
    expect(instantsOf('2024-03-01T10:00:00+02:00')).toEqual(utc);
    expect(instantsOf('2024-02-29T21:30:00.250-10:30')).toEqual({
      kind: 'date-time',
      at: Date.UTC(2024, 2, 1, 8, 0, 0, 250),
    });
  });
  it('keeps fraction digits past the millisecond', () => {
    const at = (text: string) => {
      const read = instantsOf(text);
      return read?.kind === 'date-time' ? read.at : Number.NaN;
    };
    expect(at('2026-05-01T10:00:48.6431Z')).toBeGreaterThan(at('2026-05-01T10:00:48.643Z'));
    expect(at('2026-05-01T10:00:48.6429Z')).toBeLessThan(at('2026-05-01T10:00:48.643Z'));
  });
  it('reads a date as its day, in UTC', () => {
    expect(instantsOf('2024-02-29')).toEqual({
      kind: 'date',
      from: Date.UTC(2024, 1, 29),
      to: Date.UTC(2024, 2, 1),
    });
  });
  it.each(['2023-02-29', '2024-13-01', '2024-03-01T24:00:00Z', '2024-03-01T10:00:00', 'soon'])(
    'reads %j as nothing',
    (text) => {
      expect(instantsOf(text)).toBeUndefined();
    },
  );
});

describe('judgeValue', () => {
  const limit: OpenAPIV3_1.SchemaObject = { type: 'integer', minimum: 1, maximum: 100 };
  it.each<[string, Validity]>([
    ['5', 'valid'],
    ['1', 'valid'],
    ['100', 'valid'],
    ['0', 'invalid'],
    ['-1', 'invalid'],
    ['101', 'open'],
    ['05', 'open'],
    [' 5', 'open'],
    ['+5', 'open'],
    ['-0', 'open'],
    ['', 'open'],
    ['99999999999999999999', 'open'],
    ['abc', 'invalid'],
    ['1.5', 'invalid'],
    ['1e2', 'invalid'],
    ['5a', 'invalid'],
  ])('limit %j is %s', (raw, verdict) => {
    expect(judgeValue(limit, raw)).toBe(verdict);
  });

  it('without bounds, any canonical integer is valid', () => {
    expect(judgeValue({ type: 'integer' }, '-5')).toBe('valid');
    expect(judgeValue({ type: 'integer' }, '1000000')).toBe('valid');
    // Past 2^53 a service may read another number than was sent: either answer is correct.
    expect(judgeValue({ type: 'integer', minimum: 1 }, '9007199254740993')).toBe('open');
  });

  it('an enum takes its values only; an empty string value is judged like any other', () => {
    const status: OpenAPIV3_1.SchemaObject = { type: 'string', enum: ['in_stock', 'out_of_stock'] };
    expect(judgeValue(status, 'in_stock')).toBe('valid');
    expect(judgeValue(status, 'In_Stock')).toBe('invalid');
    expect(judgeValue(status, '')).toBe('invalid');
    expect(judgeValue({ type: 'string' }, '')).toBe('valid');
    expect(judgeValue({ type: 'string' }, 'anything')).toBe('valid');
    expect(judgeValue({}, '')).toBe('open');
    expect(judgeValue({}, 'x')).toBe('valid');
  });
});

describe('queryRules and judgeQuery', () => {
  const limitSchema: OpenAPIV3_1.SchemaObject = { type: 'integer', minimum: 1, maximum: 100 };
  const statusSchema: OpenAPIV3_1.SchemaObject = { type: 'string', enum: ['in_stock'] };
  const spec = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/v1/stock': {
        get: {
          parameters: [
            { in: 'query', name: 'limit', schema: limitSchema },
            { in: 'header', name: 'X-Trace' },
            { in: 'query', name: 'status', schema: statusSchema },
            { in: 'query', name: 'q' },
          ],
          responses: {},
        },
      },
      '/v1/other': { post: { responses: {} } },
    },
  } as OpenAPIV3_1.Document;

  it('reads the query parameters of a GET, a missing schema as the empty one', () => {
    expect(queryRules(spec, '/v1/stock')).toStrictEqual([
      { name: 'limit', schema: limitSchema, items: { explode: true } },
      { name: 'status', schema: statusSchema, items: { explode: true } },
      { name: 'q', schema: {}, items: { explode: true } },
    ]);
    expect(queryRules(spec, '/v1/other')).toStrictEqual([]);
    expect(queryRules(spec, '/v1/missing')).toStrictEqual([]);
    const pathless = { openapi: '3.1.0', info: spec.info } as OpenAPIV3_1.Document;
    expect(queryRules(pathless, '/v1/stock')).toStrictEqual([]);
  });

  it('invalid if any value is, else open if any is, else valid', () => {
    const rules = queryRules(spec, '/v1/stock');
    expect(judgeQuery(rules, {})).toBe('valid');
    expect(judgeQuery(rules, { limit: '5', status: 'in_stock' })).toBe('valid');
    expect(judgeQuery(rules, { limit: '101' })).toBe('open');
    expect(judgeQuery(rules, { unknown: 'x' })).toBe('open');
    expect(judgeQuery(rules, { limit: '101', status: 'bad' })).toBe('invalid');
    expect(judgeQuery(rules, { status: 'in_stock', limit: '0' })).toBe('invalid');
  });
});

describe('caching an answer that depends on the token (RFC 9111 §3.5, §4.1)', () => {
  const answer = (headers: Record<string, string>, as: 'none' | 'quantity' = 'quantity') =>
    answerRuleFindings({
      method: 'GET',
      url: 'http://127.0.0.1/v1/stock',
      as,
      kind: 'response',
      bytes: 2,
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', ...headers },
        body: {},
      },
    }).filter((finding) => finding.includes('shared cache'));

  it.each([
    [{ 'cache-control': 'public, max-age=300' }],
    [{ 'cache-control': 'PUBLIC, Max-Age=300', vary: 'Accept' }],
    [{ 'cache-control': 's-maxage=60' }],
    [{ 'cache-control': 'max-age=60, must-revalidate', vary: 'Accept-Encoding, Origin' }],
  ])('fails what a shared cache may give to another token: %j', (headers) => {
    expect(answer(headers)).toHaveLength(1);
  });

  it.each([
    [{}],
    [{ 'cache-control': 'max-age=300' }],
    [{ 'cache-control': 'private, max-age=300' }],
    [{ 'cache-control': 'public, no-store' }],
    [{ 'cache-control': 'public, max-age=300', vary: 'Accept, AUTHORIZATION' }],
    [{ 'cache-control': 's-maxage=60', vary: '*' }],
  ])('passes what no shared cache gives to another token: %j', (headers) => {
    expect(answer(headers)).toEqual([]);
  });

  it('says nothing of an answer to a request without a token', () => {
    expect(answer({ 'cache-control': 'public, max-age=300' }, 'none')).toEqual([]);
  });
});

describe('page sizes that leave each remainder on the last page', () => {
  // Worked by hand. 23: 22 leaves one; 23 is prime, so no size divides it; 12 leaves 11.
  // 42: 41 leaves one; 21 divides it; one short needs a size that divides 43, none up to 41.
  // 1 000 000: 999 999 = 3³·7·11·13·37, so 99 leaves one; 100 divides it; one short needs a
  // divisor of 1 000 001 = 101·9901, none up to 100.
  it.each([
    [23, [22, 12]],
    [42, [41, 21]],
    [1_000_000, [99, 100]],
    [1, []],
  ])('%i items', (total, expected) => {
    expect(remainderSizes(total, 100)).toEqual(expected);
  });
});
