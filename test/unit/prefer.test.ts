import { describe, expect, it } from 'vitest';
import { parsePrefer } from '../../src/http/prefer.ts';

describe('parsePrefer (RFC 7240)', () => {
  it.each([
    ['scenario=empty', { scenario: 'empty' }],
    ['Scenario=empty', { scenario: 'empty' }],
    ['scenario="all out"', { scenario: 'all out' }],
    ['respond-async, scenario=large', { 'respond-async': '', scenario: 'large' }],
    ['scenario=empty; foo=bar, delay=5', { scenario: 'empty', delay: '5' }],
    ['scenario=a, scenario=b', { scenario: 'a' }],
    ['code = 404', { code: '404' }],
    ['', {}],
  ])('%j', (header, expected) => {
    expect(Object.fromEntries(parsePrefer(header))).toEqual(expected);
  });

  it('joins repeated headers', () => {
    expect(Object.fromEntries(parsePrefer(['scenario=a', 'delay=1']))).toEqual({
      scenario: 'a',
      delay: '1',
    });
  });
});
