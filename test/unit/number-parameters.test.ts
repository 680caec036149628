/**
 * Query parameters of `type: number` are read as the decimals JSON writes, and a `min`/`max`
 * filter of a declared list bounds a decimal field by them (issue 38, item 1, in part). The
 * expected items are worked out here from the fixture written by the test.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { createParameterParser } from '../../src/spec/parameter-parser.ts';

describe('a number parameter', () => {
  const parse = createParameterParser(
    [{ name: 'at_least', in: 'query', schema: { type: 'number', minimum: 0 } }],
    'reject',
  );
  it.each([
    ['99.99', 99.99],
    ['100', 100],
    ['1e3', 1000],
    ['2.5E-1', 0.25],
    ['012.5', 12.5],
    ['0', 0],
  ])('reads %s as %d', (text, value) => {
    const result = parse({ query: { at_least: text }, path: {} });
    expect(result.ok && result.values.get('at_least')).toBe(value);
  });

  it.each(['abc', '1.', '.5', 'Infinity', 'NaN', '0x10', '1e999', ' 1', '', '1,5', '-1'])(
    'refuses %j, naming the parameter',
    (text) => {
      const result = parse({ query: { at_least: text }, path: {} });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.issues.map((issue) => issue.parameter)).toEqual(['at_least']);
    },
  );
});

describe('min and max filters on a decimal field', () => {
  it('keep the items within the bounds, given as decimals, inclusive', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-decimals-'));
    const prices = [0.5, 9.99, 10, 10.01, 99.99, 100, 250.25];
    await writeFile(
      join(dir, 'items.yaml'),
      `items:\n${prices.map((price, i) => `  - { id: ${String(i + 1)}, price: ${String(price)} }`).join('\n')}\n`,
    );
    await writeFile(
      join(dir, 'openapi.yaml'),
      [
        'openapi: 3.1.0',
        "info: { title: decimals, version: '1' }",
        'x-stockmock-collections:',
        '  items:',
        '    key: id',
        '    record:',
        '      type: object',
        '      required: [id, price]',
        '      properties:',
        '        id: { type: integer, minimum: 1 }',
        '        price: { type: number, minimum: 0 }',
        'paths:',
        '  /items:',
        '    get:',
        '      operationId: listItems',
        '      security: []',
        '      x-stockmock:',
        '        collection: items',
        '        filters:',
        '          price_min: { field: price, match: min }',
        '          price_max: { field: price, match: max }',
        '        view: { fields: { id: id, price: price } }',
        '      parameters:',
        '        - { name: price_min, in: query, schema: { type: number } }',
        '        - { name: price_max, in: query, schema: { type: number } }',
        '        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 10 } }',
        '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
        '      responses:',
        "        '200': { description: a page }",
        '',
      ].join('\n'),
    );
    const mock = await startStockmock({
      spec: join(dir, 'openapi.yaml'),
      fixtures: join(dir, 'items.yaml'),
    });
    try {
      const ids = async (query: string) => {
        const response = await fetch(`${mock.url}/items?${query}&limit=100`);
        expect(response.status, query).toBe(200);
        return ((await response.json()) as { data: { id: number }[] }).data.map((item) => item.id);
      };
      const within = (low: number, high: number) =>
        prices.flatMap((price, i) => (price >= low && price <= high ? [i + 1] : []));
      expect(await ids('price_min=9.99')).toStrictEqual(within(9.99, Infinity));
      expect(await ids('price_max=10.005')).toStrictEqual(within(-Infinity, 10.005));
      expect(await ids('price_min=10&price_max=1e2')).toStrictEqual(within(10, 100));
      expect((await fetch(`${mock.url}/items?price_min=ten`)).status).toBe(400);
    } finally {
      await mock.close();
    }
  });
});
