import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { buildRouteTable } from '../../src/spec/route-table.ts';
import { shippedSpecOnce } from '../helpers/test-app.ts';

const spec = await shippedSpecOnce();
const parserOf = (operationId: string, unknown: 'reject' | 'ignore' = 'reject') => {
  const route = buildRouteTable(spec, unknown, new Set([operationId])).find(
    (r) => r.key === operationId,
  );
  if (route?.answers !== 'data') throw new Error(operationId);
  return route.parseParameters;
};
const listStock = parserOf('listStock');

describe('parameters of listStock, read from the spec', () => {
  it('applies the spec defaults: limit 10, page 1', () => {
    const result = listStock({ query: {}, path: {} });
    expect(result.ok && Object.fromEntries(result.values)).toEqual({ limit: 10, page: 1 });
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ page: '0' }, 'page'],
    [{ page: '1051943401723672539' }, 'page'],
    [{ page: '9007199254740992' }, 'page'],
    [{ page: '1e3' }, 'page'],
    [{ page: ' 1' }, 'page'],
    [{ id: '-3' }, 'id'],
    [{ status: 'sold' }, 'status'],
    [{ status: ['available', 'incoming'] }, 'status'],
    [{ name: ['a', 'b'] }, 'name'],
    [{ stauts: 'available' }, 'stauts'],
  ])('refuses %j, naming %s', (query, parameter) => {
    const result = listStock({ query, path: {} });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((issue) => issue.parameter)).toEqual([parameter]);
  });

  it.each([
    ['name=%zz', 'name'],
    ['limit=2&name=%C3', 'name'],
    ['name=%ED%A0%80', 'name'],
    ['na%zzme=oak', '"na%zzme"'],
  ])('refuses the malformed percent-encoding of %s, naming %s', (rawQuery, parameter) => {
    // The HTTP layer's parser keeps what it cannot decode as text: this is what it hands over.
    const query = Object.fromEntries(
      rawQuery.split('&').map((pair) => pair.split('=') as [string, string]),
    );
    const result = listStock({ query, path: {}, rawQuery });
    expect(!result.ok && result.issues).toEqual([
      {
        parameter,
        in: 'query',
        message: 'is not valid percent-encoding of UTF-8 text (RFC 3986 §2.1)',
      },
    ]);
  });

  it('reads valid percent-encoding and + as a space', () => {
    const result = listStock({
      query: { name: 'caf\u00e9 oak' },
      path: {},
      rawQuery: 'name=caf%C3%A9+oak',
    });
    expect(result.ok && result.values.get('name')).toBe('café oak');
  });

  it('names every bad parameter at once', () => {
    const result = listStock({ query: { limit: '500', page: 'x', colour: 'red' }, path: {} });
    expect(!result.ok && result.issues.map((issue) => issue.parameter).sort()).toEqual([
      'colour',
      'limit',
      'page',
    ]);
  });

  it('accepts the largest safe page and limit 100', () => {
    const result = listStock({ query: { page: '9007199254740991', limit: '100' }, path: {} });
    expect(result.ok).toBe(true);
  });

  it('refuses a page past 2^53 - 1 naming the bound on its own side, not the negative one', () => {
    const result = listStock({ query: { page: '9007199254740992' }, path: {} });
    expect(!result.ok && result.issues.map((issue) => issue.message)).toEqual([
      'must be at most 9007199254740991',
    ]);
  });

  it('ignores unknown parameters when so configured', () => {
    const result = parserOf('listStock', 'ignore')({ query: { stauts: 'x' }, path: {} });
    expect(result.ok).toBe(true);
  });

  it('/v1/products has no status filter', () => {
    const result = parserOf('listProducts')({ query: { status: 'available' }, path: {} });
    expect(!result.ok && result.issues[0]?.parameter).toBe('status');
  });

  it.each(['0', '-1', 'abc', '1.0', '99999999999999999999'])('path id %j is refused', (id) => {
    const result = parserOf('getStock')({ query: {}, path: { id } });
    expect(!result.ok && result.issues[0]).toMatchObject({ parameter: 'id', in: 'path' });
  });
});

describe('a path parameter whose name the router cannot read whole', () => {
  it('is routed under a name of its own, and read and named as the spec names it', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'stockmock-names-')), 'openapi.yaml');
    const parameter = (name: string) =>
      `        - { name: ${name}, in: path, required: true, schema: { type: string, minLength: 2 } }`;
    await writeFile(
      file,
      [
        'openapi: 3.1.0',
        "info: { title: t, version: '1' }",
        'paths:',
        '  /bins/{bin.code}/{bin_code}/{part-id}:',
        '    get:',
        '      operationId: getBin',
        '      parameters:',
        parameter('bin.code'),
        parameter('bin_code'),
        parameter('part-id'),
        "      responses: { '200': { description: ok } }",
        '',
      ].join('\n'),
    );
    const [route] = buildRouteTable(await loadSpec(file), 'reject', new Set(['getBin']));
    if (route?.answers !== 'data') throw new Error('getBin is not served from data');
    // Fastify's router ends a name at `.` and `-`: `:bin.code` would be `:bin` then `.code`.
    const app = Fastify();
    app.get(route.url, (request) => {
      const result = route.parseParameters({ query: {}, path: request.params as never });
      return result.ok ? Object.fromEntries(result.values) : result.issues;
    });
    const answer = await app.inject('/bins/b1/b2/p-3');
    expect(answer.json()).toEqual({ 'bin.code': 'b1', bin_code: 'b2', 'part-id': 'p-3' });
    const refused = await app.inject('/bins/b1/b2/p');
    expect(refused.json()).toEqual([expect.objectContaining({ parameter: 'part-id', in: 'path' })]);
    await app.close();
  });
});
