/**
 * Every compatibility setting at the HTTP level, each answer checked against the spec that the
 * app itself serves (its /openapi.json follows the settings). The defaults are PRODUCT.md's
 * decisions, tested in decisions.test.ts.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Compatibility } from '../../src/compatibility/compatibility.ts';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { validatorFor } from '../helpers/expect-spec.ts';
import { bearer, buildTestApp, QUANTITY_TOKEN, STATUS_TOKEN } from '../helpers/test-app.ts';

const FIXTURE = `products:
  - { id: 1, name: "walnut shelf", quantity: 4 }
  - { id: 2, name: "Oak table", quantity: 0 }
  - { id: 3, name: "oak stool", quantity: 7 }
  - { id: 4, name: "Beech bench", quantity: null }
  - { id: 5, name: "OAK desk", quantity: 2 }
`;

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

interface Checked {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Record<string, unknown>;
}

/** An app with the settings, and a GET whose answer must match the spec that app serves. */
async function served(
  settings: Partial<Compatibility>,
): Promise<{ get: (url: string, headers?: InjectOptions['headers']) => Promise<Checked> }> {
  const { app } = await buildTestApp({ fixture: FIXTURE, config: { compatibility: settings } });
  apps.push(app);
  const folder = await mkdtemp(join(tmpdir(), 'stockmock-served-'));
  const file = join(folder, 'openapi.json');
  await writeFile(file, (await app.inject({ url: '/openapi.json' })).body);
  const validator = await validatorFor(await loadSpec(file));
  return {
    async get(url, headers = bearer(QUANTITY_TOKEN)) {
      const response = await app.inject({ url, headers: { host: 'stock.test', ...headers } });
      const responseHeaders = Object.fromEntries(
        Object.entries(response.headers).map(([key, value]) => [key, String(value)]),
      );
      const body = response.body === '' ? {} : response.json<Record<string, unknown>>();
      const recorded = { status: response.statusCode, headers: responseHeaders, body };
      const path = new URL(url, 'http://placeholder').pathname;
      expect(validator.validate('GET', path, recorded), `GET ${url}`).toEqual([]);
      return recorded;
    },
  };
}

const ids = (body: Record<string, unknown>): unknown[] =>
  (body['data'] as { product_id: unknown }[]).map((item) => item.product_id);

describe('compatibility settings', () => {
  it('unknownQueryParameters: ignore serves the list as if the parameter were not there', async () => {
    const { get } = await served({ unknownQueryParameters: 'ignore' });
    expect((await get('/v1/stock?stauts=x')).status).toBe(200);
    const strict = await served({});
    expect((await strict.get('/v1/stock?stauts=x')).status).toBe(400);
  });

  it('pastTheEnd: not-found answers a 404 problem past the last page, and the spec says so', async () => {
    const { get } = await served({ pastTheEnd: 'not-found' });
    expect((await get('/v1/stock?limit=2&page=3')).status).toBe(200);
    const past = await get('/v1/stock?limit=2&page=4');
    expect(past.status).toBe(404);
    expect(past.body['detail']).toBe('Page 4 is past the last page, 3.');
    expect((await get('/v1/products?page=2')).status).toBe(404);
  });

  it('pastTheEnd: bad-request answers a 400 problem naming the page past the last page', async () => {
    const { get } = await served({ pastTheEnd: 'bad-request' });
    expect((await get('/v1/stock?limit=2&page=3')).status).toBe(200);
    const past = await get('/v1/stock?limit=2&page=4');
    expect(past.status).toBe(400);
    expect(past.body['errors']).toEqual([
      { parameter: 'page', in: 'query', message: 'is past the last page, 3' },
    ]);
    expect((await get('/v1/products?page=2')).status).toBe(400);
  });

  it('order: name lists by name in code units, ties by id, across pages and filters', async () => {
    const { get } = await served({ order: 'name' });
    const first = await get('/v1/stock?limit=3');
    const second = await get('/v1/stock?limit=3&page=2');
    // Upper case sorts before lower case in code units.
    expect([...ids(first.body), ...ids(second.body)]).toEqual([4, 5, 2, 3, 1]);
    expect(ids((await get('/v1/stock?name=oak')).body)).toEqual([5, 2, 3]);
    const products = await get('/v1/products');
    expect((products.body['data'] as { id: number }[]).map((item) => item.id)).toEqual([
      4, 5, 2, 3, 1,
    ]);
  });

  it("problemTypes: a URI per problem types those it names, and keeps stockmock's for the rest", async () => {
    const { get } = await served({
      problemTypes: { 'not-found': 'tag:example.com,2026:missing' },
    });
    expect((await get('/v1/stock/999')).body['type']).toBe('tag:example.com,2026:missing');
    expect((await get('/v1/stock', {})).body['type']).toBe(
      'urn:problem-type:stockmock:unauthorized',
    );
  });

  it('order: name-lowercase lists by the name lower-cased, ties by id, in the worker too', async () => {
    const { get } = await served({ order: 'name-lowercase' });
    // beech bench, oak desk, oak stool, oak table, walnut shelf (code units: `Oak table` first).
    const listed = [...ids((await get('/v1/stock?limit=3')).body)];
    listed.push(...ids((await get('/v1/stock?limit=3&page=2')).body));
    expect(listed).toEqual([4, 5, 3, 2, 1]);
    const mock = await startStockmock({
      compatibility: { order: 'name-lowercase' },
      products: [
        { id: 1, name: 'b' },
        { id: 2, name: 'a' },
        { id: 3, name: 'B' },
        { id: 4, name: 'A' },
      ],
    });
    try {
      const response = await fetch(`${mock.url}/v1/products`, {
        headers: { authorization: 'Bearer status-demo-token' },
      });
      const { data } = (await response.json()) as { data: { id: number }[] };
      // `a` and `A` tie once lower-cased: by id; then `b` and `B`.
      expect(data.map((record) => record.id)).toEqual([2, 4, 1, 3]);
    } finally {
      await mock.close();
    }
  });

  it('order: name-locale lists by the root collation (accents and case after letters), ties by id', async () => {
    const mock = await startStockmock({
      compatibility: { order: 'name-locale' },
      products: [
        { id: 1, name: 'Zebra lamp' },
        { id: 2, name: 'éclair tin' },
        { id: 3, name: 'Eclair tin' },
        { id: 4, name: 'apple crate' },
        { id: 5, name: 'Apple crate' },
        { id: 6, name: 'eclair tin' },
        { id: 7, name: 'e\u0301clair tin' },
      ],
    });
    try {
      const response = await fetch(`${mock.url}/v1/products`, {
        headers: { authorization: 'Bearer status-demo-token' },
      });
      const { data } = (await response.json()) as { data: { id: number }[] };
      // CLDR root order, written out by hand: lower case before upper case at the third level,
      // no accent before an accent at the second; `é` composed and decomposed are canonically
      // equal, so they tie and keep id order. In code units `Zebra` would come before `apple`
      // and `é` after `Z`.
      expect(data.map((record) => record.id)).toEqual([4, 5, 6, 3, 2, 7, 1]);
    } finally {
      await mock.close();
    }
  });

  it('order: name also when the loading worker makes the order (a served stockmock)', async () => {
    const mock = await startStockmock({
      compatibility: { order: 'name' },
      products: [
        { id: 1, name: 'b' },
        { id: 2, name: 'a' },
        { id: 3, name: 'B' },
      ],
    });
    try {
      const response = await fetch(`${mock.url}/v1/products`, {
        headers: { authorization: 'Bearer status-demo-token' },
      });
      const { data } = (await response.json()) as { data: { id: number }[] };
      expect(data.map((record) => record.id)).toEqual([3, 2, 1]);
    } finally {
      await mock.close();
    }
  });

  it('nameMatch: case-sensitive keeps only the names that hold the needle as written', async () => {
    const { get } = await served({ nameMatch: 'case-sensitive' });
    expect(ids((await get('/v1/stock?name=oak')).body)).toEqual([3]);
    expect(ids((await get('/v1/stock?name=Oak')).body)).toEqual([2]);
    const insensitive = await served({});
    expect(ids((await insensitive.get('/v1/stock?name=oak')).body)).toEqual([2, 3, 5]);
  });

  it('accept: ignore answers JSON to an Accept without it, and the spec has no 406', async () => {
    const { get } = await served({ accept: 'ignore' });
    const answer = await get('/v1/stock', { ...bearer(STATUS_TOKEN), accept: 'text/html' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const negotiating = await served({});
    const refused = await negotiating.get('/v1/stock', {
      ...bearer(STATUS_TOKEN),
      accept: 'text/html',
    });
    expect(refused.status).toBe(406);
  });

  it('parameterErrors: omitted answers a 400 without `errors`', async () => {
    const { get } = await served({ parameterErrors: 'omitted' });
    const answer = await get('/v1/stock?limit=0');
    expect(answer.status).toBe(400);
    expect(answer.body).not.toHaveProperty('errors');
    expect(answer.body['detail']).toBe('1 parameter is invalid.');
  });

  it('problemTypes: about:blank, with the status phrase as the title', async () => {
    const { get } = await served({ problemTypes: 'about:blank' });
    const answer = await get('/v1/stock/99');
    expect(answer.body).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404 });
    const unauthorized = await get('/v1/stock', {});
    expect(unauthorized.body).toMatchObject({ type: 'about:blank', title: 'Unauthorized' });
  });

  it("problemTypes: a base URI of the service's own, with stockmock's problem names", async () => {
    const { get } = await served({ problemTypes: 'https://errors.example.com/stock/' });
    const answer = await get('/v1/stock?limit=0');
    expect(answer.body).toMatchObject({
      type: 'https://errors.example.com/stock/invalid-parameters',
      title: 'Invalid parameters',
    });
  });

  it('realm: the 401 challenge names the realm', async () => {
    const { get } = await served({ realm: 'stock-api' });
    const missing = await get('/v1/stock', {});
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="stock-api"');
    const wrong = await get('/v1/stock', bearer('not-a-token'));
    expect(wrong.headers['www-authenticate']).toBe(
      'Bearer realm="stock-api", error="invalid_token"',
    );
    // A simulated 401 (Prefer: code=401) challenges in the same realm.
    const simulated = await get('/v1/stock/1', { ...bearer(STATUS_TOKEN), prefer: 'code=401' });
    expect(simulated.status).toBe(401);
    expect(simulated.headers['www-authenticate']).toBe('Bearer realm="stock-api"');
  });

  it('the served spec states every setting that differs from the defaults, for programs', async () => {
    const { app } = await buildTestApp({ config: { compatibility: { order: 'name' } } });
    apps.push(app);
    const info = (await app.inject({ url: '/openapi.json' })).json<{ info: object }>().info;
    expect(info).toHaveProperty('x-stockmock-compatibility.order', 'name');
    expect(info).toHaveProperty('x-stockmock-compatibility.pastTheEnd', 'empty');
  });
});
