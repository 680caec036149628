/**
 * The orders servers do what they are meant to: the reference answers as the spec and
 * orders.yaml say (expectations read from orders.yaml here, not from the servers' code), and
 * each variant differs from it in the one thing its name says, which a probe shows: the probe
 * holds on the variant and not on the reference, so no broken variant can silently be correct.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ORDERS_REFERENCE,
  ORDERS_VARIANTS,
  type Level,
  type RunningOrdersServer,
} from './orders-servers.ts';

// ---------------------------------------------------------------------------------------------
// Expectations, read from the example's files

interface FixtureOrder {
  readonly id: number;
  readonly reference: string;
  readonly customer: string;
  readonly status: string;
  readonly total: number;
}

function isFixtureOrder(value: unknown): value is FixtureOrder {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry['id'] === 'number' &&
    typeof entry['reference'] === 'string' &&
    typeof entry['customer'] === 'string' &&
    typeof entry['status'] === 'string' &&
    typeof entry['total'] === 'number'
  );
}

const FIXTURE: readonly FixtureOrder[] = (() => {
  const file = resolve(import.meta.dirname, '../../../examples/orders/orders.yaml');
  const document = parse(readFileSync(file, 'utf8')) as { orders?: unknown };
  const list = document.orders;
  if (!Array.isArray(list) || !list.every(isFixtureOrder)) throw new Error(`${file}: no orders`);
  return [...list].sort((a, b) => a.id - b.id);
})();

const ids = (orders: readonly FixtureOrder[]): number[] => orders.map((order) => order.id);
const lower = (text: string): string => text.toLowerCase();

const VALID_ORDER = { customer: 'Ada Shop', lines: [{ sku: 'SKU-1', quantity: 2 }] };

// ---------------------------------------------------------------------------------------------
// HTTP

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: unknown;
}

interface Call {
  readonly method?: string;
  /** The token of a level, a raw Authorization value, or none (null). Default: manager. */
  readonly auth?: Level | { readonly authorization: string } | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

async function call(server: RunningOrdersServer, path: string, init: Call = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  const auth = init.auth === undefined ? 'manager' : init.auth;
  if (auth !== null) {
    headers.set(
      'authorization',
      typeof auth === 'string' ? `Bearer ${server.tokens[auth]}` : auth.authorization,
    );
  }
  let body: string | undefined;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const parsed: unknown = text !== '' && type.includes('json') ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** One request written on a socket, and everything the server sends until it closes. */
function raw(server: RunningOrdersServer, head: readonly string[]): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolvePromise, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      resolvePromise(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('error', reject);
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
  });
}

/** What follows the header block of a raw answer. */
function afterHeaders(answer: string): string {
  const end = answer.indexOf('\r\n\r\n');
  return end === -1 ? '' : answer.slice(end + 4);
}

/** A member of a JSON value, by path; undefined where there is none. */
function at(value: unknown, ...path: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

function list(value: unknown, ...path: readonly (string | number)[]): unknown[] {
  const found = at(value, ...path);
  return Array.isArray(found) ? (found as unknown[]) : [];
}

function idsOf(answer: Answer): unknown[] {
  return list(answer.body, 'data').map((order) => at(order, 'id'));
}

function pageOf(link: unknown): string | null {
  return typeof link === 'string' ? new URL(link).searchParams.get('page') : null;
}

function isProblem(answer: Answer, status: number): boolean {
  return (
    answer.status === status &&
    (answer.headers.get('content-type') ?? '').startsWith('application/problem+json') &&
    typeof at(answer.body, 'type') === 'string' &&
    typeof at(answer.body, 'title') === 'string' &&
    at(answer.body, 'status') === status &&
    typeof at(answer.body, 'detail') === 'string'
  );
}

// ---------------------------------------------------------------------------------------------
// The reference

describe('the reference', () => {
  let server: RunningOrdersServer;
  beforeAll(async () => {
    server = await ORDERS_REFERENCE.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers /v1/status without a token', async () => {
    const answer = await call(server, '/v1/status', { auth: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'up' });
  });

  it('lists the first page to a clerk: id, reference and status only, absolute links', async () => {
    const answer = await call(server, '/v1/orders', { auth: 'clerk' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const expected = FIXTURE.slice(0, 10).map(({ id, reference, status }) => ({
      id,
      reference,
      status,
    }));
    expect(at(answer.body, 'data')).toEqual(expected);
    const links = at(answer.body, 'links');
    expect(at(links, 'prev')).toBeNull();
    expect(pageOf(at(links, 'first'))).toBe('1');
    expect(pageOf(at(links, 'next'))).toBe('2');
    expect(pageOf(at(links, 'last'))).toBe(String(Math.ceil(FIXTURE.length / 10)));
    expect(String(at(links, 'first')).startsWith(`${server.url}/v1/orders?`)).toBe(true);
  });

  it('shows a manager every field of an order', async () => {
    const answer = await call(server, '/v1/orders/5');
    expect(answer.status, answer.text).toBe(200);
    expect(at(answer.body, 'data')).toEqual(FIXTURE.find((order) => order.id === 5));
  });

  it('filters: status exact AND customer case-insensitive, min_total inclusive', async () => {
    const both = await call(server, '/v1/orders?customer=BRIGHTWATER&status=pending');
    expect(idsOf(both)).toEqual(
      ids(
        FIXTURE.filter(
          (order) => lower(order.customer).includes('brightwater') && order.status === 'pending',
        ),
      ),
    );
    const bound = FIXTURE[0]?.total ?? 0;
    const minimum = await call(server, `/v1/orders?min_total=${bound}&limit=100`);
    expect(idsOf(minimum)).toEqual(ids(FIXTURE.filter((order) => order.total >= bound)));
  });

  it('walks a filtered list through next links that keep the filter', async () => {
    const expected = ids(FIXTURE.filter((order) => lower(order.customer).includes('o')));
    expect(expected.length).toBeGreaterThan(4);
    const seen: unknown[] = [];
    let answer = await call(server, '/v1/orders?customer=o&limit=2');
    for (let guard = 0; guard < 50; guard++) {
      expect(answer.status, answer.text).toBe(200);
      seen.push(...idsOf(answer));
      const next = at(answer.body, 'links', 'next');
      if (typeof next !== 'string') {
        expect(next).toBeNull();
        break;
      }
      expect(new URL(next).searchParams.get('customer')).toBe('o');
      answer = await call(server, next.slice(server.url.length));
    }
    expect(seen).toEqual(expected);
  });

  it('gives a last page of one item its own page', async () => {
    const limit = FIXTURE.length - 1;
    const first = await call(server, `/v1/orders?limit=${limit}`);
    expect(pageOf(at(first.body, 'links', 'next'))).toBe('2');
    expect(pageOf(at(first.body, 'links', 'last'))).toBe('2');
    const second = await call(server, `/v1/orders?limit=${limit}&page=2`);
    expect(idsOf(second)).toEqual([FIXTURE.at(-1)?.id]);
    expect(at(second.body, 'links', 'next')).toBeNull();
  });

  it('answers problems: 404 unknown order, 400 non-integer id, 404 unknown path', async () => {
    expect(isProblem(await call(server, '/v1/orders/999'), 404)).toBe(true);
    expect(isProblem(await call(server, '/v1/orders/abc'), 400)).toBe(true);
    expect(isProblem(await call(server, '/v1/nothing'), 404)).toBe(true);
    expect(isProblem(await call(server, '/v1/orders?status=lost'), 400)).toBe(true);
  });

  it('refuses a missing or unknown token with 401 and a Bearer challenge', async () => {
    const missing = await call(server, '/v1/orders', { auth: null });
    expect(isProblem(missing, 401)).toBe(true);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+"/);
    const unknown = await call(server, '/v1/customers', {
      auth: { authorization: 'Bearer nobody' },
    });
    expect(isProblem(unknown, 401)).toBe(true);
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
  });

  it('places a valid order: 201, Location and the order', async () => {
    const answer = await call(server, '/v1/orders', { body: VALID_ORDER });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.headers.get('location')).toMatch(/\/v1\/orders\/\d+$/);
    const data = at(answer.body, 'data');
    expect(Object.keys(data as object).sort()).toEqual(
      ['customer', 'id', 'reference', 'status', 'total'].sort(),
    );
    expect(at(data, 'customer')).toBe('Ada Shop');
    expect(at(data, 'status')).toBe('pending');
  });

  it('refuses an invalid order with a 422 problem', async () => {
    for (const body of [
      { customer: 'Ada Shop', lines: [] },
      { customer: '', lines: [{ sku: 'A', quantity: 1 }] },
      { customer: 'Ada Shop', lines: [{ sku: 'A', quantity: 0 }] },
      { customer: 'Ada Shop', lines: [{ sku: 'A', quantity: 1 }], note: 'x' },
    ]) {
      expect(isProblem(await call(server, '/v1/orders', { body }), 422), JSON.stringify(body)).toBe(
        true,
      );
    }
  });

  it('cancels an order with 204 and no body', async () => {
    const answer = await call(server, '/v1/orders/3', { method: 'DELETE' });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
  });

  it('lists the customers of the orders, each with an alpha-2 country', async () => {
    const answer = await call(server, '/v1/customers', { auth: 'clerk' });
    expect(answer.status).toBe(200);
    const customers = list(answer.body, 'customers');
    expect(new Set(customers.map((customer) => at(customer, 'name')))).toEqual(
      new Set(FIXTURE.map((order) => order.customer)),
    );
    for (const customer of customers) expect(at(customer, 'country')).toMatch(/^[A-Z]{2}$/);
  });

  it('summarises by status since a date, and refuses a missing or impossible date', async () => {
    const answer = await call(server, '/v1/reports/summary?since=2026-01-01');
    expect(answer.status, answer.text).toBe(200);
    const counts: Record<string, number> = {};
    for (const order of FIXTURE) counts[order.status] = (counts[order.status] ?? 0) + 1;
    expect(answer.body).toEqual({ since: '2026-01-01', counts });
    expect(isProblem(await call(server, '/v1/reports/summary'), 400)).toBe(true);
    expect(isProblem(await call(server, '/v1/reports/summary?since=2026-02-30'), 400)).toBe(true);
  });

  it('answers HEAD as GET without a body', async () => {
    const get = await call(server, '/v1/customers');
    const head = await call(server, '/v1/customers', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    const rawHead = await raw(server, [
      'HEAD /v1/customers HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${server.tokens.clerk}`,
      'Connection: close',
    ]);
    expect(rawHead.startsWith('HTTP/1.1 200')).toBe(true);
    expect(afterHeaders(rawHead)).toBe('');
  });

  it('answers 405 with Allow, and preflights with 204 without a token', async () => {
    const put = await call(server, '/v1/customers', { method: 'PUT' });
    expect(isProblem(put, 405)).toBe(true);
    expect(put.headers.get('allow')).toContain('GET');
    const preflight = await call(server, '/v1/orders', {
      method: 'OPTIONS',
      auth: null,
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const answer = await call(server, '/v1/orders', {
      headers: { origin: 'https://shop.example' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('matches Accept case-insensitively and refuses one without JSON', async () => {
    const capitalised = await call(server, '/v1/orders', {
      headers: { accept: 'Application/JSON' },
    });
    expect(capitalised.status).toBe(200);
    expect(
      isProblem(await call(server, '/v1/orders', { headers: { accept: 'text/html' } }), 406),
    ).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// The variants

/** Whether a server shows the variant's fault (broken) or choice (different). */
type Probe = (server: RunningOrdersServer) => Promise<boolean>;

const PROBES: Readonly<Record<string, Probe>> = {
  // Broken
  'POST answers 200': async (s) =>
    (await call(s, '/v1/orders', { body: VALID_ORDER })).status === 200,
  'POST without Location': async (s) => {
    const answer = await call(s, '/v1/orders', { body: VALID_ORDER });
    return answer.status === 201 && answer.headers.get('location') === null;
  },
  'POST accepts an order without lines': async (s) =>
    (await call(s, '/v1/orders', { body: { customer: 'Ada Shop', lines: [] } })).status === 201,
  'POST 422 as application/json': async (s) => {
    const answer = await call(s, '/v1/orders', { body: { customer: 'Ada Shop' } });
    return (
      answer.status === 422 &&
      (answer.headers.get('content-type') ?? '').startsWith('application/json')
    );
  },
  'POST 401 without WWW-Authenticate': async (s) => {
    const answer = await call(s, '/v1/orders', { auth: null, body: VALID_ORDER });
    return answer.status === 401 && answer.headers.get('www-authenticate') === null;
  },
  'POST data echoes the lines': async (s) => {
    const answer = await call(s, '/v1/orders', { body: VALID_ORDER });
    return at(answer.body, 'data', 'lines') !== undefined;
  },
  'DELETE answers 200 with a body': async (s) =>
    (await call(s, '/v1/orders/3', { method: 'DELETE' })).status === 200,
  'customer country not alpha-2': async (s) =>
    list((await call(s, '/v1/customers')).body, 'customers').some(
      (customer) => !/^[A-Z]{2}$/.test(String(at(customer, 'country'))),
    ),
  'HEAD on customers sends a body': async (s) =>
    afterHeaders(
      await raw(s, [
        'HEAD /v1/customers HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${s.tokens.clerk}`,
        'Connection: close',
      ]),
    ) !== '',
  'summary without since answers 200': async (s) =>
    (await call(s, '/v1/reports/summary')).status === 200,
  'summary counts a negative number': async (s) => {
    const counts = at((await call(s, '/v1/reports/summary?since=2026-01-01')).body, 'counts');
    return Object.values(counts as object).some((count) => typeof count === 'number' && count < 0);
  },
  'summary since as a date-time': async (s) =>
    at((await call(s, '/v1/reports/summary?since=2026-01-01')).body, 'since') !== '2026-01-01',
  'summary 400 problem claims 422': async (s) => {
    const answer = await call(s, '/v1/reports/summary');
    return answer.status === 400 && at(answer.body, 'status') !== 400;
  },
  'status needs a token': async (s) => (await call(s, '/v1/status', { auth: null })).status === 401,
  'status says ok': async (s) => {
    const status = at((await call(s, '/v1/status', { auth: null })).body, 'status');
    return status !== 'up' && status !== 'degraded';
  },
  'status filter dropped beside customer': async (s) =>
    list((await call(s, '/v1/orders?customer=brightwater&status=pending')).body, 'data').some(
      (order) => at(order, 'status') !== 'pending',
    ),
  'min_total exclusive': async (s) => {
    const bound = FIXTURE[0]?.total ?? 0;
    const found = idsOf(await call(s, `/v1/orders?min_total=${bound}&limit=100`));
    return FIXTURE.some((order) => order.total === bound && !found.includes(order.id));
  },
  'customer filter case-sensitive': async (s) => {
    const expected = ids(FIXTURE.filter((order) => lower(order.customer).includes('ada shop')));
    const found = idsOf(await call(s, '/v1/orders?customer=ADA%20SHOP'));
    return JSON.stringify(found) !== JSON.stringify(expected);
  },
  'customer filter folds ASCII only': async (s) => {
    const expected = ids(FIXTURE.filter((order) => order.customer.toLowerCase().includes('café')));
    expect(expected.length).toBeGreaterThan(0);
    const found = idsOf(await call(s, `/v1/orders?customer=${encodeURIComponent('CAFÉ')}`));
    return JSON.stringify(found) !== JSON.stringify(expected);
  },
  'clerk sees total': async (s) =>
    list((await call(s, '/v1/orders', { auth: 'clerk' })).body, 'data').some(
      (order) => at(order, 'total') !== undefined,
    ),
  'next link drops the filters after page 1': async (s) => {
    const next = at((await call(s, '/v1/orders?customer=o&limit=2&page=2')).body, 'links', 'next');
    return typeof next === 'string' && new URL(next).searchParams.get('customer') !== 'o';
  },
  'a last page of one item is lost': async (s) => {
    const links = at((await call(s, `/v1/orders?limit=${FIXTURE.length - 1}`)).body, 'links');
    return at(links, 'next') === null || pageOf(at(links, 'last')) !== '2';
  },
  'links are relative': async (s) => {
    const first = at((await call(s, '/v1/orders')).body, 'links', 'first');
    return typeof first === 'string' && !/^https?:\/\//.test(first);
  },
  'Accept matched case-sensitively': async (s) =>
    (await call(s, '/v1/orders', { headers: { accept: 'Application/JSON' } })).status === 406,
  'unknown order 404 without detail': async (s) => {
    const answer = await call(s, '/v1/orders/999');
    return answer.status === 404 && at(answer.body, 'detail') === undefined;
  },
  'manager item drops customer': async (s) =>
    at((await call(s, '/v1/orders/5')).body, 'data', 'customer') === undefined,
  '405 without Allow': async (s) => {
    const answer = await call(s, '/v1/customers', { method: 'PUT' });
    return answer.status === 405 && answer.headers.get('allow') === null;
  },
  'preflight needs a token': async (s) =>
    (
      await call(s, '/v1/orders', {
        method: 'OPTIONS',
        auth: null,
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
      })
    ).status !== 204,
  'no CORS header on 401': async (s) => {
    const answer = await call(s, '/v1/orders', {
      auth: null,
      headers: { origin: 'https://shop.example' },
    });
    return answer.status === 401 && answer.headers.get('access-control-allow-origin') === null;
  },
  // Different
  'extra response headers and pretty JSON': async (s) => {
    const answer = await call(s, '/v1/status', { auth: null });
    return answer.headers.get('x-request-id') !== null && answer.text.includes('\n');
  },
  'another realm': async (s) =>
    (await call(s, '/v1/orders', { auth: null })).headers.get('www-authenticate') ===
    'Bearer realm="orders-api"',
  'about:blank problems': async (s) =>
    at((await call(s, '/v1/orders/999')).body, 'type') === 'about:blank',
  'customers ordered by country': async (s) => {
    const countries = list((await call(s, '/v1/customers')).body, 'customers').map((customer) =>
      String(at(customer, 'country')),
    );
    return countries.length > 1 && countries.join() === [...countries].sort().join();
  },
  'POST numbers orders its own way': async (s) => {
    const answer = await call(s, '/v1/orders', { body: VALID_ORDER });
    return (
      String(at(answer.body, 'data', 'reference')).startsWith('WEB-') &&
      (answer.headers.get('location') ?? '').startsWith('http://')
    );
  },
  'unknown list parameters ignored': async (s) =>
    (await call(s, '/v1/orders?colour=red')).status === 200,
  'links write limit only when given': async (s) => {
    const first = at((await call(s, '/v1/orders')).body, 'links', 'first');
    return typeof first === 'string' && !new URL(first).searchParams.has('limit');
  },
  'Accept disregarded': async (s) =>
    (await call(s, '/v1/orders', { headers: { accept: 'text/html' } })).status === 200,
  'trailing slash not found': async (s) => (await call(s, '/v1/orders/')).status === 404,
  'chunked bodies': async (s) => {
    const answer = await call(s, '/v1/customers');
    return answer.status === 200 && answer.headers.get('content-length') === null;
  },
};

describe('the variants', () => {
  let reference: RunningOrdersServer;
  beforeAll(async () => {
    reference = await ORDERS_REFERENCE.start();
  });
  afterAll(async () => {
    await reference.close();
  });

  it('are named once each, at least 14 broken and 3 different, each with a probe', () => {
    const names = ORDERS_VARIANTS.map((variant) => variant.name);
    expect(new Set(names).size).toBe(names.length);
    expect(ORDERS_VARIANTS.filter((variant) => variant.kind === 'broken').length).toBeGreaterThan(
      13,
    );
    expect(
      ORDERS_VARIANTS.filter((variant) => variant.kind === 'different').length,
    ).toBeGreaterThan(2);
    expect(ORDERS_VARIANTS.every((variant) => variant.kind !== 'reference')).toBe(true);
    expect([...names].sort()).toEqual(Object.keys(PROBES).sort());
    for (const variant of ORDERS_VARIANTS) expect(variant.rule.length).toBeGreaterThan(20);
  });

  it.each(ORDERS_VARIANTS.map((variant) => [variant.name, variant] as const))(
    '%s: the probe holds on the variant and not on the reference',
    async (name, variant) => {
      const probe = PROBES[name];
      if (probe === undefined) throw new Error(`no probe for ${name}`);
      expect(await probe(reference), 'reference').toBe(false);
      const running = await variant.start();
      try {
        expect(await probe(running), name).toBe(true);
      } finally {
        await running.close();
      }
    },
  );
});
