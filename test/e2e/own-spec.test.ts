/**
 * A team's own spec, served whole: the orders example (examples/orders/) through the real CLI on
 * a real port. Its lists and items come from data; every other operation (a write, a delete, a
 * report, an open status) is answered from the spec's examples. Each answer is judged by the
 * example's own spec, and each expected body is read from the spec's text, not from stockmock.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { recordResponse, validatorFor } from '../helpers/expect-spec.ts';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';

const example = fileURLToPath(new URL('../../examples/orders/', import.meta.url));
const CLERK = { authorization: 'Bearer clerk-demo-token' };
const MANAGER = { authorization: 'Bearer manager-demo-token' };
const JSON_BODY = { 'content-type': 'application/json' };

interface Order {
  readonly id: number;
  readonly reference: string;
  readonly customer: string;
  readonly status: string;
  readonly total: number;
}

let dir: string;
let server: ServeProcess;
let spec: LoadedSpec;
/** The spec as its YAML text says it, to read the expected examples from. */
let written: Record<string, unknown>;
let orders: readonly Order[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stockmock-orders-'));
  await cp(example, dir, { recursive: true });
  spec = await loadSpec(join(dir, 'openapi.yaml'));
  written = parse(await readFile(join(dir, 'openapi.yaml'), 'utf8')) as Record<string, unknown>;
  orders = (parse(await readFile(join(dir, 'orders.yaml'), 'utf8')) as { orders: Order[] }).orders;
  server = await spawnServe(['--config', join(dir, 'stockmock.config.yaml')]);
});
afterAll(async () => {
  await server.stop();
});

/** An operation that answers `status` with `example` as JSON (no content when undefined). */
function answering(status: string, example: unknown) {
  return {
    responses: {
      [status]: {
        description: status,
        ...(example === undefined ? {} : { content: { 'application/json': { example } } }),
      },
    },
  };
}

/** A spec of its own paths only, written in the test's folder: its file. */
async function plainSpec(name: string, paths: Record<string, unknown>): Promise<string> {
  const file = join(dir, name);
  await writeFile(
    file,
    JSON.stringify({ openapi: '3.0.3', info: { title: name, version: '1' }, paths }),
  );
  return file;
}

/** A request, its answer judged by the example's spec. */
async function call(method: string, path: string, init: RequestInit = {}) {
  const response = await fetch(new URL(path, server.url), { ...init, method });
  const recorded = await recordResponse(response);
  const findings = (await validatorFor(spec)).validate(
    method,
    new URL(path, server.url).pathname,
    recorded,
  );
  expect(findings, `${method} ${path} → ${String(recorded.status)}`).toEqual([]);
  return recorded;
}

/** The member of the written spec at a path of keys. */
function at(...keys: string[]): unknown {
  return keys.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], written);
}

const placeOrder = { customer: 'Ada Shop', lines: [{ sku: 'OAK-1', quantity: 2 }] };

describe('a spec of its own, served whole', () => {
  it('says at start which operations come from data and which from examples', () => {
    expect(server.log()).toContain('operations from data: 2 (listOrders, getOrder)');
    expect(server.log()).toContain(
      "from the spec's examples: 5 (createOrder, cancelOrder, listCustomers, orderSummary, serviceStatus)",
    );
  });

  it('answers a valid POST with its example, status and headers', async () => {
    const created = ['paths', '/v1/orders', 'post', 'responses', '201'];
    const answer = await call('POST', '/v1/orders', {
      headers: { ...CLERK, ...JSON_BODY },
      body: JSON.stringify(placeOrder),
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toStrictEqual(
      at(...created, 'content', 'application/json', 'examples', 'placed', 'value'),
    );
    expect(answer.headers['location']).toBe(at(...created, 'headers', 'Location', 'example'));
  });

  it('reads a body whatever the case of its JSON media type, at a path with a trailing slash', async () => {
    for (const [type, path] of [
      ['Application/JSON; charset=UTF-8', '/v1/orders'],
      ['application/json', '/v1/orders/'],
    ] as const) {
      const answer = await fetch(new URL(path, server.url), {
        method: 'POST',
        headers: { ...CLERK, 'content-type': type },
        body: JSON.stringify(placeOrder),
      });
      expect(answer.status, `${type} ${path}`).toBe(201);
    }
  });

  it('answers an invalid body with the 422 the spec declares, and no token with a 401', async () => {
    const invalid = await call('POST', '/v1/orders', {
      headers: { ...CLERK, ...JSON_BODY },
      body: JSON.stringify({ customer: 'Ada Shop', lines: [] }),
    });
    expect(invalid.status).toBe(422);
    expect(invalid.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(invalid.body).toStrictEqual(
      at(
        'paths',
        '/v1/orders',
        'post',
        'responses',
        '422',
        'content',
        'application/problem+json',
        'example',
      ),
    );
    // Checked before the body, as for the lists.
    const anonymous = await call('POST', '/v1/orders', {
      headers: JSON_BODY,
      body: JSON.stringify(placeOrder),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    // The spec names access levels (clerk, manager): every token is checked, demo ones too.
    const unknown = await fetch(new URL('/v1/orders', server.url), {
      method: 'POST',
      headers: { authorization: 'Bearer clerk-demo-token-', ...JSON_BODY },
      body: JSON.stringify(placeOrder),
    });
    expect(unknown.status).toBe(401);
    const otherScheme = await fetch(new URL('/v1/orders', server.url), {
      method: 'POST',
      headers: { authorization: 'Basic Y2xlcms6cGFzcw==', ...JSON_BODY },
      body: JSON.stringify(placeOrder),
    });
    expect(otherScheme.status).toBe(401);
  });

  it('refuses a body that is not JSON, or too large, as problems', async () => {
    const broken = await fetch(new URL('/v1/orders', server.url), {
      method: 'POST',
      headers: { ...CLERK, ...JSON_BODY },
      body: '{"customer": ',
    });
    expect(broken.status).toBe(400);
    expect(broken.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const huge = await fetch(new URL('/v1/orders', server.url), {
      method: 'POST',
      headers: { ...CLERK, ...JSON_BODY },
      body: JSON.stringify({ ...placeOrder, customer: 'x'.repeat(1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('answers an invalid request without a declared error status as a 422 problem naming each fault', async () => {
    const answer = await fetch(new URL('/v1/orders/abc', server.url), {
      method: 'DELETE',
      headers: CLERK,
    });
    expect(answer.status).toBe(422);
    const problem = (await answer.json()) as { type: string; errors: { in: string }[] };
    expect(problem.type).toBe('urn:problem-type:stockmock:invalid-request');
    expect(problem.errors.map((error) => error.in)).toStrictEqual(['path']);
    const deleted = await call('DELETE', '/v1/orders/3', { headers: CLERK });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
  });

  it('honours Prefer example= and code=, and refuses what the operation cannot give', async () => {
    const example = (name: string) =>
      at(
        'paths',
        '/v1/reports/summary',
        'get',
        'responses',
        '200',
        'content',
        'application/json',
        'examples',
        name,
        'value',
      );
    const first = await call('GET', '/v1/reports/summary?since=2026-11-01', { headers: MANAGER });
    expect(first.body).toStrictEqual(example('quiet'));
    const busy = await call('GET', '/v1/reports/summary?since=2026-11-01', {
      headers: { ...MANAGER, prefer: 'example=busy' },
    });
    expect(busy.body).toStrictEqual(example('busy'));
    expect(busy.headers['preference-applied']).toBe('example=busy');
    const unauthorized = await call('GET', '/v1/reports/summary?since=2026-11-01', {
      headers: { ...MANAGER, prefer: 'code=401' },
    });
    expect(unauthorized.status).toBe(401);
    for (const prefer of [
      'code=418',
      'example=none-such',
      'example=',
      'code=abc',
      'code=2010',
      'dynamic=maybe',
    ]) {
      const refused = await fetch(new URL('/v1/reports/summary?since=2026-11-01', server.url), {
        headers: { ...MANAGER, prefer },
      });
      expect(refused.status, prefer).toBe(400);
    }
    // A required query parameter missing: the 400 the spec declares for it.
    const missing = await call('GET', '/v1/reports/summary', { headers: MANAGER });
    expect(missing.status).toBe(400);
  });

  it('answers an open operation without a token, and HEAD without a body', async () => {
    const status = await call('GET', '/v1/status');
    expect(status.body).toStrictEqual(
      at(
        'paths',
        '/v1/status',
        'get',
        'responses',
        '200',
        'content',
        'application/json',
        'example',
      ),
    );
    const head = await fetch(new URL('/v1/customers', server.url), {
      method: 'HEAD',
      headers: CLERK,
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('still serves the declared list from data, filtered and paged, beside the examples', async () => {
    const pending = orders.filter((order) => order.status === 'pending').map((order) => order.id);
    expect(pending.length).toBeGreaterThan(2);
    const seen: number[] = [];
    let next: string | null = `${server.url}/v1/orders?status=pending&limit=2`;
    while (next !== null) {
      const page = await call('GET', next, { headers: CLERK });
      const body = page.body as { data: { id: number }[]; links: { next: string | null } };
      seen.push(...body.data.map((order) => order.id));
      next = body.links.next;
    }
    expect(seen).toStrictEqual(pending);
  });

  it('names every method of a path in a 405, and lets a browser preflight a POST', async () => {
    // The example declares no 405: the answer is stockmock's problem, not judged by the spec.
    const put = await fetch(new URL('/v1/orders', server.url), { method: 'PUT', headers: CLERK });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const preflight = await fetch(new URL('/v1/orders', server.url), {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });
});

describe('a spec of its own with no tokens set', () => {
  it('takes the demo token of each level its views name, and no other', async () => {
    const mock = await startStockmock({
      spec: join(dir, 'openapi.yaml'),
      fixtures: join(dir, 'orders.yaml'),
    });
    try {
      const list = (token: string) =>
        fetch(`${mock.url}/v1/orders?limit=1`, { headers: { authorization: `Bearer ${token}` } });
      const clerk = await list('clerk-demo-token');
      expect(clerk.status).toBe(200);
      // The clerk's view, as the spec's text declares it.
      const views = at('paths', '/v1/orders', 'get', 'x-stockmock', 'views') as Record<
        string,
        { fields: Record<string, string> }
      >;
      const [first] = ((await clerk.json()) as { data: Record<string, unknown>[] }).data;
      expect(Object.keys(first ?? {}).sort()).toStrictEqual(
        Object.keys(views['clerk']?.fields ?? {}).sort(),
      );
      expect((await list('manager-demo-token')).status).toBe(200);
      const refused = await list('status-demo-token');
      expect(refused.status).toBe(401);
      const missing = await fetch(`${mock.url}/v1/orders`);
      expect(((await missing.json()) as { detail: string }).detail).toContain(
        'clerk-demo-token and manager-demo-token',
      );
    } finally {
      await mock.close();
    }
  });

  it('starts on a plain spec beside a generated scenario, which has nothing to generate', async () => {
    const text = await readFile(join(dir, 'openapi.yaml'), 'utf8');
    const plain = join(dir, 'plain-for-scenarios.yaml');
    await writeFile(plain, text.replaceAll(/^(\s*)x-stockmock(-collections)?:/gm, '$1x-was$2:'));
    const mock = await startStockmock({
      spec: plain,
      scenarios: { large: { generate: { count: 1000, seed: 1 } } },
    });
    try {
      expect((await fetch(`${mock.url}/v1/status`)).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});

describe('a spec with no declarations at all', () => {
  let bystander: Server;
  const called: string[] = [];
  beforeAll(async () => {
    bystander = createServer((request, response) => {
      called.push(request.url ?? '');
      response.end();
    });
    await new Promise<void>((resolve) => bystander.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => bystander.close(resolve));
  });

  it('starts and answers every operation from examples, never calling a callback', async () => {
    // The same spec with every x-stockmock taken out, by its text.
    const text = await readFile(join(dir, 'openapi.yaml'), 'utf8');
    const plain = parse(
      text.replaceAll(/^\s*x-stockmock(?:-collections)?:/gm, (line) =>
        line.replace('x-stockmock', 'x-was'),
      ),
    ) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(JSON.stringify(plain)).not.toMatch(/"x-stockmock(?:-collections)?":/);
    // A callback to a URL the caller names: a mock that called it would be an open relay.
    (plain.paths['/v1/orders']?.['post'] ?? {})['callbacks'] = {
      placed: {
        '{$request.body#/customer}': {
          post: { responses: { '200': { description: 'ok' } } },
        },
      },
    };
    const file = join(dir, 'plain.json');
    await writeFile(file, JSON.stringify(plain));
    const mock = await startStockmock({ spec: file, tokens: [{ token: 'any', level: 'team' }] });
    try {
      const list = await fetch(`${mock.url}/v1/orders`, {
        headers: { authorization: 'Bearer any' },
      });
      expect(list.status).toBe(200);
      const bystanderUrl = `http://127.0.0.1:${String((bystander.address() as { port: number }).port)}/hook`;
      const placed = await fetch(`${mock.url}/v1/orders`, {
        method: 'POST',
        headers: { authorization: 'Bearer any', ...JSON_BODY },
        body: JSON.stringify({ customer: bystanderUrl, lines: [{ sku: 'A', quantity: 1 }] }),
      });
      expect(placed.status).toBe(201);
      // Prism runs callbacks as the answer is made: after it, one would have been sent.
      await roundTrip(bystander);
      expect(called).toStrictEqual(['/probe']);
    } finally {
      await mock.close();
    }
  });

  it('answers every method a path declares, HEAD and OPTIONS included, each as its own', async () => {
    const methods = {
      get: answering('200', { got: true }),
      head: answering('204', undefined),
      put: answering('200', { put: true }),
      patch: answering('200', { patched: true }),
      options: answering('200', { options: true }),
    };
    const mock = await startStockmock({
      spec: await plainSpec('methods.json', { '/thing': methods }),
    });
    try {
      for (const [method, body] of [
        ['GET', { got: true }],
        ['PUT', { put: true }],
        ['PATCH', { patched: true }],
        ['OPTIONS', { options: true }],
      ] as const) {
        const response = await fetch(`${mock.url}/thing`, { method });
        expect(response.status, method).toBe(200);
        expect(await response.json(), method).toStrictEqual(body);
      }
      const head = await fetch(`${mock.url}/thing`, { method: 'HEAD' });
      expect(head.status).toBe(204);
      const post = await fetch(`${mock.url}/thing`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD, PUT, PATCH, OPTIONS');
    } finally {
      await mock.close();
    }
  });

  it('routes templates with text beside a parameter, a path repeated by other names, a trailing slash, and a # or ? in the path', async () => {
    const file = await plainSpec('verbs.json', {
      '/v1/{name}': { get: answering('200', 'plain') },
      // The same path by other names (OpenAPI: MUST NOT exist): the first answers it.
      '/v1/{other}': { get: answering('200', 'shadowed') },
      '/v1/{name}:enable': { post: answering('200', 'enabled') },
      '/v1/{name}:disable': { post: answering('200', 'disabled') },
      '/files/{id}.json': { get: answering('200', 'json') },
      '/range/{from}-{to}': { get: answering('200', 'range') },
      // Written with a trailing slash, as some public specs do: asked with it or without.
      '/teams/{id}/members/': { get: answering('200', 'members') },
      // A `#` or `?` in the path, as AWS's conversions write them: sent percent-encoded.
      '/#X-Amz-Target=Svc.ListThings': { post: answering('200', 'list') },
      '/#X-Amz-Target=Svc.GetThing': { post: answering('200', 'get') },
      '/search?mode=fast': { get: answering('200', 'fast') },
    });
    const mock = await startStockmock({ spec: file });
    try {
      for (const [method, path, body] of [
        ['GET', '/v1/abc', 'plain'],
        ['POST', '/v1/abc:enable', 'enabled'],
        ['POST', '/v1/abc:disable', 'disabled'],
        ['GET', '/files/7.json', 'json'],
        ['GET', '/range/1-9', 'range'],
        ['GET', '/teams/3/members/', 'members'],
        ['GET', '/teams/3/members', 'members'],
        ['POST', '/%23X-Amz-Target=Svc.ListThings', 'list'],
        ['POST', '/%23X-Amz-Target=Svc.GetThing', 'get'],
        ['GET', '/search%3fmode=fast', 'fast'],
        ['GET', '/v1/a%23b', 'plain'],
      ] as const) {
        const response = await fetch(`${mock.url}${path}`, { method });
        expect(response.status, `${method} ${path}`).toBe(200);
        expect(await response.json(), `${method} ${path}`).toBe(body);
      }
    } finally {
      await mock.close();
    }
  });

  it('is refused with file, line and field under strict, naming each operation', async () => {
    const failure = await startStockmock({
      spec: join(dir, 'plain.json'),
      strict: true,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SourceError);
    const issues = (failure as SourceError).issues;
    expect(issues.map((issue) => issue.field)).toContain('paths./v1/orders.post');
    expect(issues).toHaveLength(7);
    expect(issues.every((issue) => issue.file === join(dir, 'plain.json'))).toBe(true);
  });
});

/** One request to the bystander over a raw socket: what it received before is in `called`. */
async function roundTrip(bystander: Server): Promise<void> {
  const { port } = bystander.address() as { port: number };
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end('GET /probe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    socket.on('data', () => undefined);
    socket.on('end', resolve);
    socket.on('error', reject);
  });
}
