import { describe, expect, it } from 'vitest';
import { pathPattern } from '../../src/spec/path-pattern.ts';

describe('pathPattern', () => {
  it.each([
    ['/v1/stock/{id}', '/v1/stock/7', true],
    ['/v1/stock/{id}', '/v1/stock/7/', true],
    ['/v1/stock/{id}', '/v1/stock/', false],
    ['/v1/stock/{id}', '/v1/stock/7/x', false],
    ['/v1/stock', '/v1/stock', true],
    ['/v1/stock', '/v1/stockx', false],
    ['/openapi.json', '/openapiXjson', false],
    ['/a/{x}/b/{y}', '/a/1/b/2', true],
  ])('%s matches %s: %s', (template, path, matches) => {
    expect(pathPattern(template).test(path)).toBe(matches);
  });
});
