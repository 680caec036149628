/**
 * A resource by declaration alone: the warehouses example (examples/warehouses/) served by the
 * real CLI over a real port, with filters, pages, links, levels, problems, docs, scenarios and a
 * reload, every answer judged by the example's own spec. And a filter added to the shipped
 * spec, honoured with no code.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import { buildApp } from '../../src/api/build-app.ts';
import { createScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { loadDataset, loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadSpec, SHIPPED_SPEC, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { recordResponse, validatorFor } from '../helpers/expect-spec.ts';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';

const example = fileURLToPath(new URL('../../examples/warehouses/', import.meta.url));
const PUBLIC = { authorization: 'Bearer public-demo-token' };
const STAFF = { authorization: 'Bearer staff-demo-token' };

interface Warehouse {
  readonly id: number;
  readonly name: string;
  readonly city: string;
  readonly region: string;
  readonly capacity: number;
  readonly manager?: string;
}

let dir: string;
let server: ServeProcess;
let spec: LoadedSpec;
let warehouses: readonly Warehouse[];

beforeAll(async () => {
  // A copy, so that the reload test may rewrite the fixture.
  dir = await mkdtemp(join(tmpdir(), 'stockmock-warehouses-'));
  await cp(example, dir, { recursive: true });
  spec = await loadSpec(join(dir, 'openapi.yaml'));
  warehouses = (
    parse(await readFile(join(dir, 'warehouses.yaml'), 'utf8')) as { warehouses: Warehouse[] }
  ).warehouses;
  // A short settle window: the test writes the fixture whole before it waits for the reload.
  const config = join(dir, 'stockmock.config.yaml');
  await writeFile(config, `${await readFile(config, 'utf8')}reloadSettleMs: 50\n`);
  server = await spawnServe(['--config', config, '--watch']);
});
afterAll(async () => {
  await server.stop();
});

/** A GET, its answer judged by the example's spec. */
async function get(path: string, headers: Record<string, string> = STAFF) {
  const response = await fetch(new URL(path, server.url), { headers });
  const recorded = await recordResponse(response);
  const findings = (await validatorFor(spec)).validate(
    'GET',
    new URL(path, server.url).pathname,
    recorded,
  );
  expect(findings, `GET ${path} → ${String(recorded.status)}`).toEqual([]);
  return recorded;
}

interface ListBody {
  readonly data: Record<string, unknown>[];
  readonly links: { first: string; last: string; prev: string | null; next: string | null };
}

/** Every item of a list, by following `next` from its first page. */
async function walk(path: string, headers = STAFF): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let url: string | null = new URL(path, server.url).toString();
  for (let pages = 0; url !== null; pages++) {
    expect(pages).toBeLessThan(100);
    const { status, body } = await get(url, headers);
    expect(status).toBe(200);
    items.push(...(body as ListBody).data);
    url = (body as ListBody).links.next;
  }
  return items;
}

const ids = (items: readonly Record<string, unknown>[]) => items.map((item) => item['id']);

describe('a resource declared in the spec alone', () => {
  it('lists every record once, in id order, over pages whose links walk the list', async () => {
    const items = await walk('/v1/warehouses?limit=7');
    expect(ids(items)).toEqual(warehouses.map((w) => w.id).sort((a, b) => a - b));
    const { body } = await get('/v1/warehouses?limit=7&page=2');
    expect((body as ListBody).links.prev).toBe(`${server.url}/v1/warehouses?limit=7&page=1`);
  });

  it('filters by each declared parameter, combined with AND, and keeps the filters in the links', async () => {
    const oslo = warehouses.filter((w) => w.city === 'Oslo').map((w) => w.id);
    expect(oslo.length).toBeGreaterThan(2);
    expect(ids(await walk('/v1/warehouses?city=Oslo&limit=2'))).toEqual(oslo);
    // A case-insensitive, folded substring: `GDAŃSK` finds `Gdańsk`.
    const gdansk = warehouses.filter((w) => w.name.includes('Gdańsk')).map((w) => w.id);
    expect(gdansk.length).toBeGreaterThan(0);
    expect(ids(await walk(`/v1/warehouses?name=${encodeURIComponent('GDAŃSK')}`))).toEqual(gdansk);
    const northHarbours = warehouses
      .filter((w) => w.region === 'north' && w.name.toLowerCase().includes('harb'))
      .map((w) => w.id);
    const { body } = await get('/v1/warehouses?name=harb&region=north&limit=1');
    expect((body as ListBody).links.first).toBe(
      `${server.url}/v1/warehouses?name=harb&region=north&limit=1&page=1`,
    );
    expect(ids(await walk('/v1/warehouses?name=harb&region=north&limit=1'))).toEqual(northHarbours);
    expect(ids(await walk('/v1/warehouses?city=Oslo&region=south'))).toEqual([]);
    // Ranges, inclusive at both ends.
    const middle = warehouses
      .filter((w) => w.capacity >= 2000 && w.capacity <= 6000)
      .map((w) => w.id);
    expect(middle.length).toBeGreaterThan(3);
    expect(ids(await walk('/v1/warehouses?min_capacity=2000&max_capacity=6000&limit=3'))).toEqual(
      middle,
    );
    const first = warehouses[0] as Warehouse;
    expect(
      ids(
        await walk(
          `/v1/warehouses?min_capacity=${String(first.capacity)}&max_capacity=${String(first.capacity)}`,
        ),
      ),
    ).toEqual(warehouses.filter((w) => w.capacity === first.capacity).map((w) => w.id));
  });

  it('shows each access level its own view', async () => {
    const first = warehouses.find((w) => w.manager !== undefined) as Warehouse;
    const asPublic = (await get(`/v1/warehouses/${String(first.id)}`, PUBLIC)).body;
    expect(asPublic).toStrictEqual({ data: { id: first.id, name: first.name, city: first.city } });
    const asStaff = (await get(`/v1/warehouses/${String(first.id)}`, STAFF)).body;
    expect(asStaff).toStrictEqual({ data: first });
    const page = (await get('/v1/warehouses?limit=100', PUBLIC)).body as ListBody;
    expect(page.data.every((item) => Object.keys(item).join() === 'id,name,city')).toBe(true);
  });

  it('answers bad requests with problems: an unknown parameter, a bad value, no token, no such id', async () => {
    const unknown = await get('/v1/warehouses?regio=north');
    expect(unknown.status).toBe(400);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((unknown.body as { errors: { parameter: string }[] }).errors[0]?.parameter).toBe(
      'regio',
    );
    expect((await get('/v1/warehouses?region=middle')).status).toBe(400);
    expect((await get('/v1/warehouses/x')).status).toBe(400);
    expect((await get('/v1/warehouses/999')).status).toBe(404);
    const anonymous = await get('/v1/warehouses', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    expect((await get('/healthz', {})).body).toEqual({
      status: 'ok',
      warehouses: warehouses.length,
    });
  });

  it('serves its docs and its spec', async () => {
    const docs = await fetch(new URL('/docs/', server.url));
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/<html/i);
    const served = (await get('/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(served.paths)).toContain('/v1/warehouses/{id}');
  });

  it('serves a scenario asked for, and a changed fixture once it is saved', async () => {
    const empty = await fetch(new URL('/v1/warehouses', server.url), {
      headers: { ...STAFF, prefer: 'scenario=empty' },
    });
    expect(((await empty.json()) as ListBody).data).toEqual([]);
    await writeFile(
      join(dir, 'warehouses.yaml'),
      'warehouses:\n  - { id: 7, name: New Hall, city: Oslo, region: north, capacity: 1 }\n',
    );
    await server.waitForLog(/reloaded/);
    expect((await get('/v1/warehouses')).body).toMatchObject({
      data: [{ id: 7, name: 'New Hall', city: 'Oslo', region: 'north', capacity: 1 }],
    });
  });
});

describe('a filter added to the shipped spec', () => {
  it('is honoured with no code: an exact match on a field the record then declares', async () => {
    const text = (await readFile(SHIPPED_SPEC, 'utf8'))
      .replace(
        "        - $ref: '#/components/parameters/IdFilter'\n        - $ref: '#/components/parameters/Limit'",
        "        - $ref: '#/components/parameters/IdFilter'\n        - { name: category, in: query, schema: { type: string } }\n        - $ref: '#/components/parameters/Limit'",
      )
      .replace(
        '          id: { field: id, match: exact }\n        view:',
        '          id: { field: id, match: exact }\n          category: { field: category, match: exact }\n        view:',
      )
      .replace(
        "        status:\n          $ref: '#/components/schemas/StockStatus'\n      additionalProperties: true",
        "        status:\n          $ref: '#/components/schemas/StockStatus'\n        category:\n          type: string\n      additionalProperties: true",
      );
    const app = await appOfSpec(text);
    const response = await app.inject({
      url: '/v1/products?category=lighting&limit=100',
      headers: STAFF_SHIPPED,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<ListBody>();
    const shipped = (
      parse(await readFile(DEFAULTS.fixtures, 'utf8')) as {
        products: { id: number; category?: string }[];
      }
    ).products;
    const expected = shipped.filter((p) => p.category === 'lighting').map((p) => p.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(body.data)).toEqual(expected);
    // The record still shows the field, now a declared one, and the links keep the filter.
    expect(body.data.every((item) => item['category'] === 'lighting')).toBe(true);
    expect(body.links.first).toContain('category=lighting&limit=100&page=1');
  });

  it('serves ranges on the key: a run of ids, alone or with another filter', async () => {
    const text = (await readFile(SHIPPED_SPEC, 'utf8'))
      .replace(
        "        - $ref: '#/components/parameters/IdFilter'\n        - $ref: '#/components/parameters/StatusFilter'",
        "        - $ref: '#/components/parameters/IdFilter'\n        - { name: from_id, in: query, schema: { type: integer } }\n        - { name: to_id, in: query, schema: { type: integer } }\n        - $ref: '#/components/parameters/StatusFilter'",
      )
      .replace(
        '          id: { field: id, match: exact }\n          status:',
        '          id: { field: id, match: exact }\n          from_id: { field: id, match: min }\n          to_id: { field: id, match: max }\n          status:',
      );
    expect(text).toContain('from_id: { field: id, match: min }');
    const app = await appOfSpec(text);
    const shipped = (
      parse(await readFile(DEFAULTS.fixtures, 'utf8')) as {
        products: Shipped[];
      }
    ).products;
    const listed = async (query: string) => {
      const response = await app.inject({
        url: `/v1/stock?${query}&limit=100`,
        headers: STAFF_SHIPPED,
      });
      expect(response.statusCode, query).toBe(200);
      return response.json<ListBody>().data.map((item) => item['product_id']);
    };
    const idsWhere = (keep: (p: Shipped) => boolean) => shipped.filter(keep).map((p) => p.id);
    expect(await listed('from_id=10&to_id=20')).toEqual(idsWhere((p) => p.id >= 10 && p.id <= 20));
    expect(await listed('from_id=95')).toEqual(idsWhere((p) => p.id >= 95));
    // PRODUCT.md: an explicit status wins; otherwise a positive quantity is available.
    const available = (p: Shipped) =>
      p.status === undefined ? (p.quantity ?? 0) > 0 : p.status === 'available';
    expect(await listed('to_id=30&status=available')).toEqual(
      idsWhere((p) => p.id <= 30 && available(p)),
    );
    expect(await listed('from_id=21&to_id=20')).toEqual([]);
  });
});

interface Shipped {
  readonly id: number;
  readonly quantity?: number | null;
  readonly status?: string;
}

/** The app of a changed shipped spec, on the shipped fixture, in process. */
async function appOfSpec(text: string) {
  const folder = await mkdtemp(join(tmpdir(), 'stockmock-spec-'));
  const file = join(folder, 'openapi.yaml');
  await writeFile(file, text);
  const changed = await loadSpec(file);
  const declarations = readDeclarations(changed);
  const config = { ...DEFAULTS, spec: file };
  const plan = loadPlanOf(declarations, config.compatibility);
  return buildApp({
    config,
    spec: changed,
    declarations,
    catalogs: createScenarioStore(await loadDataset(DEFAULTS.fixtures, plan)),
  });
}

const STAFF_SHIPPED = { authorization: 'Bearer status-demo-token' };

describe('a token level that no view declares', () => {
  it('is refused at start, at its line in the config', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-levels-'));
    const file = join(folder, 'stockmock.config.yaml');
    await writeFile(file, 'tokens:\n  - token: abcdef\n    level: admin\n');
    const refusal = await startStockmock({ config: file }).then(
      (mock) => mock.close().then(() => undefined),
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SourceError);
    expect((refusal as SourceError).issues).toEqual([
      {
        file,
        at: { line: 3, column: 12 },
        field: 'tokens[0].level',
        message: 'no view of the spec is declared for the level admin (declared: status, quantity)',
      },
    ]);
  });
});

describe('an order by name where a listed collection declares no label', () => {
  it('is refused at start, at the setting, naming the collection', async () => {
    const text = (await readFile(SHIPPED_SPEC, 'utf8')).replace('    label: name\n', '');
    expect(text).not.toContain('label: name');
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-nolabel-'));
    const spec = join(folder, 'openapi.yaml');
    await writeFile(spec, text);
    const refusal = await startStockmock({ spec, compatibility: { order: 'name' } }).then(
      (mock) => mock.close().then(() => undefined),
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SourceError);
    expect((refusal as SourceError).issues).toEqual([
      expect.objectContaining({
        field: 'compatibility.order',
        message:
          'is name, but the collection products declares no label to order by (x-stockmock-collections.products.label)',
      }),
    ]);
    // By id, the same spec serves.
    const byId = await startStockmock({ spec });
    await byId.close();
  });
});

describe('fields and collections named like members of Object.prototype', () => {
  it('a record without an optional field `toString` or `constructor` lacks it, and is served', async () => {
    const text = (await readFile(SHIPPED_SPEC, 'utf8')).replace(
      `        status:
          $ref: '#/components/schemas/StockStatus'
      additionalProperties: true`,
      `        status:
          $ref: '#/components/schemas/StockStatus'
        toString: { type: string }
        constructor: { type: string }
      additionalProperties: true`,
    );
    expect(text).toContain('toString: { type: string }');
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-proto-'));
    const file = join(folder, 'openapi.yaml');
    await writeFile(file, text);
    const mock = await startStockmock({
      spec: file,
      products: [
        { id: 1, name: 'Oak', quantity: 1, toString: 'shown', constructor: 'kept' },
        { id: 2, name: 'Elm', quantity: 2 },
      ],
      tokens: [{ token: 'quantity-token', level: 'quantity' }],
    });
    try {
      const read = async (path: string) => {
        const response = await fetch(`${mock.url}${path}`, {
          headers: { authorization: 'Bearer quantity-token' },
        });
        return { status: response.status, body: await response.json() };
      };
      expect(await read('/v1/products/2')).toEqual({
        status: 200,
        body: { data: { id: 2, name: 'Elm' } },
      });
      expect(await read('/v1/products/1')).toEqual({
        status: 200,
        body: { data: { id: 1, name: 'Oak', toString: 'shown', constructor: 'kept' } },
      });
    } finally {
      await mock.close();
    }
  });

  it('a collection named `toString` that the fixture lacks is missing, not "not an array"', async () => {
    const text = (await readFile(SHIPPED_SPEC, 'utf8'))
      .replace('  products:\n    key: id', '  toString:\n    key: id')
      .replaceAll('collection: products', 'collection: toString')
      .replace('health: { products: products }', 'health: { products: toString }');
    expect(text).toContain('  toString:\n    key: id');
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-proto-'));
    const spec = join(folder, 'openapi.yaml');
    await writeFile(spec, text);
    const fixtures = join(folder, 'empty.yaml');
    await writeFile(fixtures, 'other: []\n');
    const refusal = await startStockmock({ spec, fixtures }).then(
      (mock) => mock.close().then(() => undefined),
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SourceError);
    expect((refusal as SourceError).issues).toContainEqual(
      expect.objectContaining({ file: fixtures, field: 'toString', message: 'is required' }),
    );
  });
});
