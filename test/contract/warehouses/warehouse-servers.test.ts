/**
 * The warehouse servers do what they are meant to: the reference follows the spec, and each
 * variant differs from it in the one thing its name says, which a probe shows (the probe holds
 * on the variant and not on the reference).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadWarehouses,
  startWarehouseServer,
  WAREHOUSE_REFERENCE,
  WAREHOUSE_VARIANTS,
  type Json,
  type Level,
  type RunningWarehouseServer,
  type Warehouse,
} from './warehouse-servers.ts';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: unknown;
}

/** A request with the token of `level`, a raw Authorization value, or none (null). */
async function call(
  server: RunningWarehouseServer,
  path: string,
  auth: Level | { readonly authorization: string } | null = 'staff',
  init: RequestInit = {},
): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (auth !== null) {
    const value = typeof auth === 'string' ? `Bearer ${server.tokens[auth]}` : auth.authorization;
    headers.set('authorization', value);
  }
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await response.text();
  const body: unknown = text === '' ? undefined : JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body };
}

interface ListBody {
  readonly data: readonly Record<string, Json>[];
  readonly links: {
    readonly first: string;
    readonly last: string;
    readonly prev: string | null;
    readonly next: string | null;
  };
}

async function list(
  server: RunningWarehouseServer,
  query: string,
  level: Level = 'staff',
): Promise<ListBody> {
  const answer = await call(server, `/v1/warehouses${query}`, level);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as ListBody;
}

async function item(
  server: RunningWarehouseServer,
  id: number,
  level: Level = 'staff',
): Promise<Record<string, Json>> {
  const answer = await call(server, `/v1/warehouses/${id}`, level);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { data: Record<string, Json> }).data;
}

/** The ids of every page, walking `next` from the first one. */
async function walk(server: RunningWarehouseServer, query: string): Promise<number[]> {
  const ids: number[] = [];
  let page = await list(server, query);
  for (let guard = 0; guard < 100; guard++) {
    ids.push(...page.data.map((w) => Number(w['id'])));
    const next = page.links.next;
    if (next === null) return ids;
    page = await list(server, new URL(next).search);
  }
  throw new Error('the walk does not end');
}

const ids = (body: ListBody): number[] => body.data.map((w) => Number(w['id']));
const WAREHOUSES: readonly Warehouse[] = loadWarehouses();

describe('the warehouse reference', () => {
  let server: RunningWarehouseServer;
  beforeAll(async () => {
    server = await WAREHOUSE_REFERENCE.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('wants a known bearer token on the resources, and says so', async () => {
    const none = await call(server, '/v1/warehouses', null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="stockmock"');
    expect(none.headers.get('content-type')).toBe('application/problem+json');
    expect(none.body).toMatchObject({ status: 401, title: 'Unauthorized' });
    const basic = await call(server, '/v1/warehouses/1', { authorization: 'Basic dTpw' });
    expect(basic.headers.get('www-authenticate')).toBe('Bearer realm="stockmock"');
    const unknown = await call(server, '/v1/warehouses', { authorization: 'bearer nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe(
      'Bearer realm="stockmock", error="invalid_token"',
    );
  });

  it('shows each level its view, in the view order', async () => {
    const publicPage = await list(server, '', 'public');
    for (const w of publicPage.data) expect(Object.keys(w)).toEqual(['id', 'name', 'city']);
    expect(Object.keys(await item(server, 1, 'public'))).toEqual(['id', 'name', 'city']);
    const staffKeys = ['id', 'name', 'city', 'region', 'capacity'];
    expect(Object.keys(await item(server, 1))).toEqual([...staffKeys, 'manager']);
    // Warehouse 3 has no manager: left out, not null.
    expect(Object.keys(await item(server, 3))).toEqual(staffKeys);
    const listed = (await list(server, '?limit=100')).data.find((w) => w['id'] === 1);
    expect(listed).toEqual(await item(server, 1));
  });

  it('shows staff the extra fields after the declared ones, in the fixture order', async () => {
    const fields = { zone: 'B', capacity: 5, id: 7, dock: 3, name: 'X', city: 'Y', region: 'east' };
    const record: Warehouse = { id: 7, name: 'X', city: 'Y', region: 'east', capacity: 5, fields };
    const own = await startWarehouseServer({ records: [record] });
    try {
      const expected = ['id', 'name', 'city', 'region', 'capacity', 'zone', 'dock'];
      expect(Object.keys(await item(own, 7))).toEqual(expected);
      expect(await item(own, 7, 'public')).toEqual({ id: 7, name: 'X', city: 'Y' });
    } finally {
      await own.close();
    }
  });

  it('filters by each parameter, combined with AND', async () => {
    const north = await list(server, '?region=north&limit=100');
    expect(ids(north)).toEqual(WAREHOUSES.filter((w) => w.region === 'north').map((w) => w.id));
    expect((await list(server, '?city=Lyo')).data).toEqual([]);
    expect((await list(server, '?city=Lyon')).data.length).toBe(5);
    // 814 is the smallest capacity: both bounds are inclusive.
    expect(ids(await list(server, '?max_capacity=814'))).toEqual([8]);
    expect(ids(await list(server, '?min_capacity=814&limit=100')).length).toBe(42);
    const both = await list(server, '?region=north&min_capacity=5000&max_capacity=8000');
    const expected = WAREHOUSES.filter(
      (w) => w.region === 'north' && w.capacity >= 5000 && w.capacity <= 8000,
    );
    expect(ids(both)).toEqual(expected.map((w) => w.id));
  });

  it('matches names case-insensitively, literally, with Unicode folding', async () => {
    expect(ids(await list(server, '?name=LYON'))).toEqual([1, 11, 21, 31, 41]);
    const named = (part: string): number[] =>
      WAREHOUSES.filter((w) => w.name.includes(part)).map((w) => w.id);
    expect(ids(await list(server, '?name=TROMS%C3%98'))).toEqual(named('Tromsø'));
    // A decomposed n + combining acute accent matches the composed ń of Gdańsk.
    expect(ids(await list(server, '?name=gdan%CC%81sk'))).toEqual(named('Gdańsk'));
    expect((await list(server, '?name=Lyon%25')).data).toEqual([]);
  });

  it('walks every item once, by id, with links that keep the filters and the limit', async () => {
    expect(await walk(server, '?limit=7')).toEqual(WAREHOUSES.map((w) => w.id));
    const page = await list(server, '?region=south&limit=5&page=2');
    const next = new URL(page.links.next ?? '');
    expect(next.origin).toBe(server.url);
    expect(next.pathname).toBe('/v1/warehouses');
    expect(Object.fromEntries(next.searchParams)).toEqual({
      region: 'south',
      limit: '5',
      page: '3',
    });
    expect(new URL(page.links.last).searchParams.get('page')).toBe('3');
    expect(new URL(page.links.prev ?? '').searchParams.get('page')).toBe('1');
    const first = await list(server, '');
    expect(first.data.length).toBe(10);
    expect(first.links.prev).toBeNull();
  });

  it('answers a page past the end, and an empty list, with links', async () => {
    const past = await list(server, '?limit=10&page=9');
    expect(past.data).toEqual([]);
    expect(past.links.next).toBeNull();
    expect(new URL(past.links.prev ?? '').searchParams.get('page')).toBe('5');
    const empty = await list(server, '?city=Nowhere');
    expect(empty.data).toEqual([]);
    expect(new URL(empty.links.last).searchParams.get('page')).toBe('1');
    expect([empty.links.prev, empty.links.next]).toEqual([null, null]);
  });

  it('refuses invalid and unknown parameters with a 400 problem naming them', async () => {
    for (const query of [
      'region=up',
      'min_capacity=-1',
      'max_capacity=1.5',
      'limit=0',
      'limit=101',
      'page=0',
      'stauts=x',
      'city=Lyon&city=Oslo',
    ]) {
      const answer = await call(server, `/v1/warehouses?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      const parameter = query.split('=')[0];
      expect(answer.body).toMatchObject({ status: 400, errors: [{ parameter, in: 'query' }] });
    }
  });

  it('finds an item by id: 404 for an unknown one, 400 for a bad one', async () => {
    expect(await item(server, 42)).toMatchObject({ id: 42, name: 'Sevilla Cross-dock 42' });
    expect((await call(server, '/v1/warehouses/999')).status).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.0', '9007199254740992']) {
      expect((await call(server, `/v1/warehouses/${bad}`)).status, bad).toBe(400);
    }
  });

  it('answers HTTP as the spec says: 405, HEAD, 406, open health and document', async () => {
    const post = await call(server, '/v1/warehouses', 'staff', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const head = await call(server, '/v1/warehouses', 'staff', { method: 'HEAD' });
    expect([head.status, head.text, head.headers.get('content-type')]).toEqual([
      200,
      '',
      'application/json',
    ]);
    const html = await call(server, '/v1/warehouses', 'staff', {
      headers: { accept: 'text/html' },
    });
    expect(html.status).toBe(406);
    const health = await call(server, '/healthz', null);
    expect(health.body).toEqual({ status: 'ok', warehouses: 42 });
    const spec = await call(server, '/openapi.json', null);
    expect(spec.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Warehouses' } });
    expect((await call(server, '/nowhere', null)).status).toBe(404);
  });
});

type Probe = (server: RunningWarehouseServer) => Promise<boolean>;

/** Whether some item of the first public page shows `field`. */
const publicListShows = async (server: RunningWarehouseServer, field: string): Promise<boolean> =>
  (await list(server, '', 'public')).data.some((w) => field in w);

/** For each variant, what shows its one difference (false on the reference). */
const PROBES: Readonly<Record<string, Probe>> = {
  'region filter ignored': async (s) =>
    (await list(s, '?region=west&limit=100')).data.some((w) => w['region'] !== 'west'),
  'city filter matches a substring': async (s) => (await list(s, '?city=Lyo')).data.length > 0,
  'min_capacity exclusive': async (s) => !ids(await list(s, '?min_capacity=814')).includes(8),
  'max_capacity ignored': async (s) => (await list(s, '?max_capacity=814')).data.length > 1,
  'name filter ignored': async (s) =>
    (await list(s, '?name=Lyon')).data.some((w) => {
      const name = w['name'];
      return typeof name !== 'string' || !name.includes('Lyon');
    }),
  'public sees region': async (s) => publicListShows(s, 'region'),
  'public sees capacity on the item endpoint only': async (s) =>
    'capacity' in (await item(s, 1, 'public')) && !(await publicListShows(s, 'capacity')),
  'staff view drops capacity': async (s) => !('capacity' in (await item(s, 1))),
  'walk repeats an item': async (s) => {
    const walked = await walk(s, '?limit=10');
    return new Set(walked).size !== walked.length;
  },
  'next link drops the filter': async (s) => {
    const next = (await list(s, '?region=north&limit=5')).links.next;
    return new URL(next ?? '').searchParams.get('region') !== 'north';
  },
  'item endpoint answers another item': async (s) => (await item(s, 1))['id'] !== 1,
  'missing token served as public': async (s) =>
    (await call(s, '/v1/warehouses', null)).status === 200,
  'limit ignored': async (s) => (await list(s, '?limit=5')).data.length !== 5,
  'ordered by name': async (s) => {
    const got = ids(await list(s, '?limit=100'));
    return got.join() !== [...got].sort((a, b) => a - b).join();
  },
  'name match case-sensitive': async (s) => (await list(s, '?name=lyon')).data.length === 0,
  'extra response headers and pretty JSON': async (s) => {
    const answer = await call(s, '/v1/warehouses/1');
    return answer.headers.has('x-request-id') && answer.text.includes('\n  ');
  },
};

describe('the warehouse variants', () => {
  it('have unique names, a probe each, and the levels their kind allows', () => {
    const names = WAREHOUSE_VARIANTS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(Object.keys(PROBES).sort());
    for (const variant of WAREHOUSE_VARIANTS) {
      expect(variant.kind).not.toBe('reference');
      if (variant.kind === 'different') expect(variant.level).toBe('stand-in');
    }
  });

  it('each differ from the reference in what its name says', async () => {
    const reference = await WAREHOUSE_REFERENCE.start();
    try {
      await Promise.all(
        WAREHOUSE_VARIANTS.map(async (variant) => {
          const probe = PROBES[variant.name];
          if (probe === undefined) throw new Error(`no probe for ${variant.name}`);
          const running = await variant.start();
          try {
            expect(await probe(reference), `${variant.name} on the reference`).toBe(false);
            expect(await probe(running), variant.name).toBe(true);
          } finally {
            await running.close();
          }
        }),
      );
    } finally {
      await reference.close();
    }
  });

  it('keep the rest of the reference: the same correct answer to a plain request', async () => {
    const reference = await WAREHOUSE_REFERENCE.start();
    const untouched = ['ordered by name', 'name match case-sensitive', 'region filter ignored'];
    try {
      const expected = (await call(reference, '/v1/warehouses/2')).body;
      for (const name of untouched) {
        const variant = WAREHOUSE_VARIANTS.find((v) => v.name === name);
        const running = await (variant ?? WAREHOUSE_REFERENCE).start();
        try {
          expect((await call(running, '/v1/warehouses/2')).body, name).toEqual(expected);
        } finally {
          await running.close();
        }
      }
    } finally {
      await reference.close();
    }
  });
});
