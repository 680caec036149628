/** One block per row of PRODUCT.md's decision table, through app.inject, every answer spec-checked. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROBLEMS } from '../../src/problems/problem-types.ts';
import { injectChecked } from '../helpers/inject.ts';
import { bearer, buildTestApp, QUANTITY_TOKEN, STATUS_TOKEN } from '../helpers/test-app.ts';

const FIXTURE = `products:
  - { id: 1, name: "Oak dining table", quantity: 12, category: tables }
  - { id: 2, name: "Walnut side table", quantity: 0, status: incoming }
  - { id: 3, name: "Beech stool", quantity: null }
  - { id: 4, name: "Oak TABLE lamp 100%", quantity: 0 }
  - { id: 5, name: "Café chair" }
  - { id: 12, name: "Straße bench", quantity: 3 }
`;

let app: FastifyInstance;
beforeAll(async () => {
  ({ app } = await buildTestApp({ fixture: FIXTURE }));
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = bearer(QUANTITY_TOKEN)) =>
  injectChecked(app, { method: 'GET', url, headers: { host: 'stock.test:8080', ...headers } });
const data = (body: Record<string, unknown>) => body['data'] as Record<string, unknown>[];
const links = (body: Record<string, unknown>) => body['links'] as Record<string, string | null>;

describe('absolute stock level is named quantity; product_id is an integer', () => {
  it('shows quantity to a quantity token', async () => {
    const response = await get('/v1/stock/1');
    expect(response.json()).toStrictEqual({
      data: { product_id: 1, quantity: 12, status: 'available' },
    });
  });
});

describe('access levels', () => {
  it('a status token sees {product_id, status} only, in lists and singles', async () => {
    const list = await get('/v1/stock', bearer(STATUS_TOKEN));
    for (const item of data(list.json()))
      expect(Object.keys(item).sort()).toEqual(['product_id', 'status']);
    expect((await get('/v1/stock/1', bearer(STATUS_TOKEN))).json()).toStrictEqual({
      data: { product_id: 1, status: 'available' },
    });
  });
  it('a quantity token sees {product_id, quantity, status}', async () => {
    for (const item of data((await get('/v1/stock')).json())) {
      expect(Object.keys(item).sort()).toEqual(['product_id', 'quantity', 'status']);
    }
  });
  it('unknown stock is quantity null, status on_request', async () => {
    expect((await get('/v1/stock/3')).json()).toStrictEqual({
      data: { product_id: 3, quantity: null, status: 'on_request' },
    });
    expect((await get('/v1/stock/5')).json()).toStrictEqual({
      data: { product_id: 5, quantity: null, status: 'on_request' },
    });
  });
  it('an explicit status wins over the derived one', async () => {
    expect(data((await get('/v1/stock/2')).json())).toMatchObject({ status: 'incoming' });
  });
});

describe('order, filters and AND', () => {
  it('lists by id ascending', async () => {
    expect(data((await get('/v1/stock')).json()).map((item) => item['product_id'])).toEqual([
      1, 2, 3, 4, 5, 12,
    ]);
  });
  it.each([
    ['name=TABLE', [1, 2, 4]],
    ['name=100%25', [4]],
    ['name=%25', [4]],
    ['name=caf%C3%89', [5]],
    ['name=STRASSE', [12]],
    ['name=.*', []],
    ['status=out_of_stock', [4]],
    ['id=12', [12]],
    ['name=oak&status=available', [1]],
    ['name=oak&id=4', [4]],
    ['name=oak&id=2', []],
  ])('%s', async (query, ids) => {
    const body = (await get(`/v1/stock?${query}`)).json();
    expect(data(body).map((item) => item['product_id'])).toEqual(ids);
  });
});

describe('invalid parameters: 400 naming each', () => {
  it.each([
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['page=0', ['page']],
    ['page=1051943401723672539', ['page']],
    ['limit=abc&page=1.5', ['limit', 'page']],
    ['status=sold', ['status']],
    ['status=available&status=incoming', ['status']],
    ['stauts=available', ['stauts']],
    ['id=x', ['id']],
  ])('%s', async (query, parameters) => {
    const response = await get(`/v1/stock?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = response.json();
    expect(body['type']).toBe(PROBLEMS.INVALID_PARAMETERS.type);
    expect(body['status']).toBe(400);
    const errors = body['errors'] as { parameter: string; in: string }[];
    expect(errors.map((error) => error.parameter).sort()).toEqual(parameters);
  });

  it('ignores unknown query parameters when configured to', async () => {
    const { app: lenient } = await buildTestApp({
      fixture: FIXTURE,
      config: { compatibility: { unknownQueryParameters: 'ignore' } },
    });
    const response = await injectChecked(lenient, {
      url: '/v1/stock?stauts=x',
      headers: bearer(STATUS_TOKEN),
    });
    expect(response.status).toBe(200);
    await lenient.close();
  });
});

describe('pagination and links', () => {
  it('past the end: 200, empty data, next null, prev at the last page', async () => {
    const response = await get('/v1/stock?limit=2&page=7');
    expect(response.status).toBe(200);
    expect(data(response.json())).toEqual([]);
    expect(links(response.json())).toMatchObject({
      next: null,
      prev: 'http://stock.test:8080/v1/stock?limit=2&page=3',
      last: 'http://stock.test:8080/v1/stock?limit=2&page=3',
    });
  });
  it('links are absolute, from the request host, and keep filters and limit', async () => {
    const body = (await get('/v1/stock?name=o&status=out_of_stock&limit=1')).json();
    expect(links(body)).toStrictEqual({
      first: 'http://stock.test:8080/v1/stock?name=o&status=out_of_stock&limit=1&page=1',
      last: 'http://stock.test:8080/v1/stock?name=o&status=out_of_stock&limit=1&page=1',
      prev: null,
      next: null,
    });
  });
  it('a Host that is not a plain host falls back to the configured one, after good ones too', async () => {
    await get('/v1/stock?limit=1');
    const response = await get('/v1/stock?limit=1', {
      ...bearer(QUANTITY_TOKEN),
      host: 'evil.test/<script>',
    });
    const first = links(response.json())['first'] ?? '';
    expect(first).not.toContain('evil');
    expect(first).not.toContain('stock.test');
    expect(first).toMatch(/^http:\/\/[^/]+:\d+\/v1\/stock\?limit=1&page=1$/);
  });
  it('links use the configured baseUrl', async () => {
    const { app: based } = await buildTestApp({
      fixture: FIXTURE,
      config: { baseUrl: 'https://mock.example.org/' },
    });
    const response = await injectChecked(based, {
      url: '/v1/products?limit=5',
      headers: bearer(STATUS_TOKEN),
    });
    expect(links(response.json())['next']).toBe(
      'https://mock.example.org/v1/products?limit=5&page=2',
    );
    await based.close();
  });
  it('default limit is 10 and the maximum 100 is accepted', async () => {
    expect(data((await get('/v1/stock?limit=100')).json())).toHaveLength(6);
    expect(data((await get('/v1/stock?limit=3')).json())).toHaveLength(3);
  });
  it("links keep the request's limit: none where it named none, unless linkLimit is always", async () => {
    expect(links((await get('/v1/stock')).json())['first']).toMatch(/\/v1\/stock\?page=1$/);
    expect(links((await get('/v1/stock?limit=3')).json())['first']).toMatch(/\?limit=3&page=1$/);
    // A name percent-encoded is the same parameter: its links name it as a plain one would.
    expect(links((await get('/v1/stock?%6Cimit=3')).json())['first']).toMatch(/\?limit=3&page=1$/);
    expect(links((await get('/v1/stock?page=1')).json())['first']).toMatch(/\/v1\/stock\?page=1$/);
    const { app: always } = await buildTestApp({
      fixture: FIXTURE,
      config: { compatibility: { linkLimit: 'always' } },
    });
    const response = await injectChecked(always, {
      url: '/v1/stock',
      headers: bearer(STATUS_TOKEN),
    });
    expect(links(response.json())['first']).toMatch(/\?limit=10&page=1$/);
    await always.close();
  });
});

describe('path ids', () => {
  it.each(['0', '-1', 'abc', '1.5', '9007199254740992'])('/v1/stock/%s is a 400', async (id) => {
    expect((await get(`/v1/stock/${id}`)).status).toBe(400);
  });
  it('a valid id no product has is a 404 problem', async () => {
    const response = await get('/v1/stock/999');
    expect(response.status).toBe(404);
    expect(response.json()['type']).toBe(PROBLEMS.NOT_FOUND.type);
    // The detail names the collection, its key and the value asked for.
    expect(response.json()['detail']).toBe('Nothing in products has the id 999.');
    expect((await get('/v1/products/999')).status).toBe(404);
  });
});

describe('tokens', () => {
  it('no token: 401 with a bare Bearer challenge', async () => {
    const response = await get('/v1/stock', {});
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="stockmock"');
  });
  it('an unknown token: 401 with error="invalid_token", and the token is not echoed', async () => {
    const response = await get('/v1/stock', bearer('guess-123'));
    expect(response.headers['www-authenticate']).toBe(
      'Bearer realm="stockmock", error="invalid_token"',
    );
    expect(JSON.stringify(response.body)).not.toContain('guess-123');
  });
  it('the scheme is case-insensitive', async () => {
    expect((await get('/v1/stock', { authorization: `bEaReR ${STATUS_TOKEN}` })).status).toBe(200);
  });
  it('another scheme counts as no token', async () => {
    expect(
      (await get('/v1/stock', { authorization: 'Basic dXNlcjpwYXNz' })).headers['www-authenticate'],
    ).toBe('Bearer realm="stockmock"');
  });
});

describe('Accept', () => {
  it.each([
    '',
    '*/*',
    'application/*',
    'application/json',
    'text/html, */*;q=0.1',
    // Media-type parameters never exclude the type (RFC 9110 §12.5.1).
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; v=1',
    '*/*; charset=utf-8',
    'text/html;level=1, application/json;charset=utf-8;q=0.5',
  ])('%j is served', async (accept) => {
    const headers = accept === '' ? bearer(STATUS_TOKEN) : { ...bearer(STATUS_TOKEN), accept };
    expect((await get('/v1/stock', headers)).status).toBe(200);
  });
  it.each([
    'text/html',
    'application/xml',
    'application/json;q=0',
    'application/json; charset=utf-8; q=0',
    'text/html;charset=utf-8',
  ])('%j gets 406', async (accept) => {
    const response = await get('/v1/stock/1', { ...bearer(STATUS_TOKEN), accept });
    expect(response.status).toBe(406);
    expect(response.json()['type']).toBe(PROBLEMS.NOT_ACCEPTABLE.type);
  });
});

describe('methods', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    '%s on a resource is 405 with Allow',
    async (method) => {
      const response = await injectChecked(app, {
        method,
        url: '/v1/stock/1',
        headers: bearer(STATUS_TOKEN),
        payload: 'x',
      });
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS');
    },
  );
  it('HEAD works wherever GET does, with no body', async () => {
    const response = await injectChecked(app, {
      method: 'HEAD',
      url: '/v1/stock?limit=2',
      headers: bearer(STATUS_TOKEN),
    });
    expect(response.status).toBe(200);
    expect(response.body).toBeUndefined();
    expect((await injectChecked(app, { method: 'HEAD', url: '/v1/stock' })).status).toBe(401);
  });
  it('an unknown path is a 404 problem', async () => {
    const response = await get('/v2/stock');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('/v1/products', () => {
  it('returns id, name and the extra fields, with the same filters and links', async () => {
    const body = (await get('/v1/products?name=oak&limit=1')).json();
    expect(data(body)).toStrictEqual([{ id: 1, name: 'Oak dining table', category: 'tables' }]);
    expect(links(body)['next']).toBe('http://stock.test:8080/v1/products?name=oak&limit=1&page=2');
  });
  it('returns one record', async () => {
    expect((await get('/v1/products/2')).json()).toStrictEqual({
      data: { id: 2, name: 'Walnut side table' },
    });
  });
});

describe('a trailing slash names the same resource', () => {
  it('/v1/stock/ is the collection, and its links name it without the slash', async () => {
    const slashed = await get('/v1/stock/?limit=2');
    expect(slashed.status).toBe(200);
    expect(data(slashed.json())).toStrictEqual(data((await get('/v1/stock?limit=2')).json()));
    expect(links(slashed.json())['next']).toBe('http://stock.test:8080/v1/stock?limit=2&page=2');
    expect((await get('/v1/products/')).status).toBe(200);
  });
  it('/v1/stock/1/ is product 1', async () => {
    expect((await get('/v1/stock/1/')).json()).toStrictEqual((await get('/v1/stock/1')).json());
  });
});

describe('open surface', () => {
  it('/healthz needs no token', async () => {
    expect((await get('/healthz', {})).json()).toStrictEqual({ status: 'ok', products: 6 });
  });
  it('/openapi.json and /openapi.yaml serve the spec', async () => {
    expect((await get('/openapi.json', {})).json()['openapi']).toBe('3.1.0');
    const yaml = await get('/openapi.yaml', {});
    expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
    expect(String(yaml.body)).toContain('openapi: 3.1.0');
  });
  it("the served spec's server is this stockmock, at the request's origin or the baseUrl", async () => {
    const thisServer = [{ url: 'http://stock.test:8080', description: 'This stockmock' }];
    expect((await get('/openapi.json', {})).json()['servers']).toStrictEqual(thisServer);
    expect(
      (parse(String((await get('/openapi.yaml', {})).body)) as { servers: unknown }).servers,
    ).toStrictEqual(thisServer);
    const { app: based } = await buildTestApp({
      fixture: FIXTURE,
      config: { baseUrl: 'https://mock.example.org/' },
    });
    for (const url of ['/openapi.json', '/openapi.yaml']) {
      const { body } = await injectChecked(based, { url });
      const served = (typeof body === 'string' ? parse(body) : body) as { servers: unknown };
      expect(served.servers).toStrictEqual([
        { url: 'https://mock.example.org', description: 'This stockmock' },
      ]);
    }
    await based.close();
  });
  it('answers a CORS preflight without a token', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/v1/stock',
      headers: {
        origin: 'http://client.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-headers'])).toMatch(/authorization/i);
  });
  it('CORS can be restricted to listed origins', async () => {
    const { app: strict } = await buildTestApp({
      fixture: FIXTURE,
      config: { cors: { origins: ['http://ok.test'] } },
    });
    const allowed = await strict.inject({ url: '/healthz', headers: { origin: 'http://ok.test' } });
    const refused = await strict.inject({
      url: '/healthz',
      headers: { origin: 'http://evil.test' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://ok.test');
    expect(allowed.headers['vary']).toMatch(/\bOrigin\b/);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-expose-headers']).toBeUndefined();
    expect(refused.headers['vary']).toMatch(/\bOrigin\b/);
    await strict.close();
  });
  it('an answer to a request without an Origin carries no CORS headers', async () => {
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(
      Object.keys(response.headers).filter((name) => name.startsWith('access-control-')),
    ).toStrictEqual([]);
  });
  it('CORS headers are on error answers too, so a browser script can read the problem', async () => {
    const response = await app.inject({ url: '/v1/stock', headers: { origin: 'http://a.test' } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-expose-headers'])).toMatch(/WWW-Authenticate/);
  });
  it('a plain OPTIONS names the methods of its resource in Allow (RFC 9110 §9.3.7)', async () => {
    for (const [url, allow] of [
      ['/v1/stock', 'GET, HEAD, OPTIONS'],
      ['/v1/stock/12?x=1', 'GET, HEAD, OPTIONS'],
      ['/__stockmock/health', 'GET, HEAD, OPTIONS'],
    ] as const) {
      const response = await app.inject({ method: 'OPTIONS', url });
      expect(response.statusCode, url).toBe(204);
      expect(response.headers['allow'], url).toBe(allow);
    }
    const unknown = await app.inject({ method: 'OPTIONS', url: '/no/such/path' });
    expect(unknown.headers['allow']).toBeUndefined();
  });
  it('a preflight is answered on any path, with the methods and the max age', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/no/such/path',
      headers: { origin: 'http://a.test', 'access-control-request-method': 'GET' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD');
    expect(response.headers['access-control-max-age']).toBe('600');
    expect(response.headers['access-control-allow-headers']).toBeUndefined();
    expect(response.body).toBe('');
  });
});
