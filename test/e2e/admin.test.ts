/** The admin API on a real port: off by default, behind its token, and judged by its own spec. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDataset, SHIPPED } from '../helpers/datasets.ts';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { buildApp } from '../../src/api/build-app.ts';
import { PROBLEMS, PROTOCOL_PROBLEMS } from '../../src/problems/problem-types.ts';
import { loadScenarios } from '../../src/scenarios/begin-load.ts';
import { loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import { createScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { ADMIN_SPEC, loadSpec } from '../../src/spec/load-spec.ts';
import { recordResponse, validatorFor } from '../helpers/expect-spec.ts';
import { listenLive, type LiveServer } from '../helpers/live-server.ts';
import {
  bearer,
  buildTestApp,
  QUANTITY_TOKEN,
  shippedSpecOnce,
  STATUS_TOKEN,
} from '../helpers/test-app.ts';

const ADMIN_TOKEN = 'admin-secret-for-tests';
const fixture = (names: string[], quantity: number) =>
  `products:\n${names.map((name, i) => `  - { id: ${String(i + 1)}, name: "${name}", quantity: ${String(quantity)} }`).join('\n')}\n`;

let dir: string;
let file: string;
let server: LiveServer;
const adminSpec = await loadSpec(ADMIN_SPEC);

/** Calls the admin API and checks the answer against spec/admin-openapi.yaml. */
async function admin(path: string, init: RequestInit = {}, token: string | null = ADMIN_TOKEN) {
  const headers: Record<string, string> = {
    ...(init.headers as Record<string, string> | undefined),
  };
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const response = await recordResponse(
    await fetch(`${server.origin}${path}`, { ...init, headers }),
  );
  const findings = (await validatorFor(adminSpec)).validate(
    init.method ?? 'GET',
    path.split('?')[0] ?? '',
    response,
  );
  expect(findings, `${init.method ?? 'GET'} ${path} does not match the admin spec`).toEqual([]);
  return response;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stockmock-admin-'));
  file = join(dir, 'products.yaml');
  await writeFile(file, fixture(['Alpha one', 'Alpha two'], 1));
  const config = {
    ...DEFAULTS,
    fixtures: file,
    scenarios: { empty: join(dir, 'empty.yaml') },
    admin: { token: ADMIN_TOKEN, journalSize: 5 },
    // The test writes each file whole before it reloads; a short window keeps the check in play.
    reloadSettleMs: 50,
  };
  await writeFile(join(dir, 'empty.yaml'), 'products: []\n');
  const catalogs = createScenarioStore(
    await loadScenarios(config, loadPlanOf(SHIPPED, config.compatibility)),
  );
  server = await listenLive(await buildApp({ config, spec: await shippedSpecOnce(), catalogs }));
});
afterAll(() => server.close());

describe('the admin API', () => {
  it('is off unless a token is configured: 404 like any unknown path', async () => {
    const plain = await listenLive((await buildTestApp()).app);
    try {
      const response = await plain.fetch('/__admin/requests');
      expect(response.status).toBe(404);
      expect((await plain.fetch('/__admin/reload', { method: 'POST' })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('needs its token: 401 with the admin realm, invalid_token for a wrong one, a stock token is not enough', async () => {
    expect((await admin('/__admin/requests', {}, null)).headers['www-authenticate']).toBe(
      'Bearer realm="stockmock-admin"',
    );
    const wrong = await admin('/__admin/requests', {}, 'wrong-admin-token');
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe(
      'Bearer realm="stockmock-admin", error="invalid_token"',
    );
    expect((await admin('/__admin/config', {}, QUANTITY_TOKEN)).status).toBe(401);
  });

  it('journals stock requests with their level, never a token, bounded and filterable', async () => {
    await admin('/__admin/requests', { method: 'DELETE' });
    await server.fetch('/v1/stock?limit=1', { headers: bearer(STATUS_TOKEN) });
    await server.fetch('/v1/stock/1', { headers: bearer(QUANTITY_TOKEN) });
    await server.fetch('/v1/stock', { headers: bearer('a-wrong-token-value') });
    const all = await admin('/__admin/requests');
    const entries = (all.body as { requests: Record<string, unknown>[] }).requests;
    expect(entries.map((entry) => [entry['path'], entry['level'], entry['status']])).toEqual([
      ['/v1/stock', 'status', 200],
      ['/v1/stock/1', 'quantity', 200],
      ['/v1/stock', 'none', 401],
    ]);
    expect(entries[0]?.['query']).toEqual({ limit: '1' });
    await server.fetch(`/v1/stock?limit=1&access_token=${STATUS_TOKEN}`);
    const masked = (await admin('/__admin/requests?status=401')).body as {
      requests: { query: unknown }[];
    };
    expect(masked.requests.at(-1)?.query).toEqual({ limit: '1', access_token: '[Redacted]' });
    await admin('/__admin/requests', { method: 'DELETE' });
    await server.fetch('/v1/stock?limit=1', { headers: bearer(STATUS_TOKEN) });
    await server.fetch('/v1/stock/1', { headers: bearer(QUANTITY_TOKEN) });
    await server.fetch('/v1/stock', { headers: bearer('a-wrong-token-value') });
    const text = JSON.stringify(entries);
    for (const token of [STATUS_TOKEN, QUANTITY_TOKEN, 'a-wrong-token-value', ADMIN_TOKEN])
      expect(text).not.toContain(token);

    const filtered = await admin('/__admin/requests?level=quantity&path=/v1/stock/');
    expect((filtered.body as { requests: unknown[] }).requests).toHaveLength(1);
    expect((await admin('/__admin/requests?status=abc')).status).toBe(400);

    for (let i = 0; i < 6; i++)
      await server.fetch(`/v1/stock/${String(i + 1)}`, { headers: bearer(STATUS_TOKEN) });
    const bounded = (await admin('/__admin/requests')).body as { requests: { path: string }[] };
    expect(bounded.requests.map((entry) => entry.path)).toEqual([
      '/v1/stock/2',
      '/v1/stock/3',
      '/v1/stock/4',
      '/v1/stock/5',
      '/v1/stock/6',
    ]);
    expect((await admin('/__admin/requests', { method: 'DELETE' })).status).toBe(204);
    expect(((await admin('/__admin/requests')).body as { requests: unknown[] }).requests).toEqual(
      [],
    );
  });

  it('switches the scenario for everyone, and refuses an unknown one with a 400', async () => {
    const json = { 'content-type': 'application/json' };
    const switched = await admin('/__admin/scenario', {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ name: 'empty' }),
    });
    expect((switched.body as { active: string }).active).toBe('empty');
    expect((await server.fetch('/healthz')).body).toEqual({ status: 'ok', products: 0 });
    const unknown = await admin('/__admin/scenario', {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ name: 'nope' }),
    });
    expect(unknown.status).toBe(400);
    expect(
      (await admin('/__admin/scenario', { method: 'PUT', headers: json, body: '{oops' })).status,
    ).toBe(400);
    await admin('/__admin/scenario', {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ name: 'default' }),
    });
    expect(((await admin('/__admin/scenario')).body as { active: string }).active).toBe('default');
  });

  it('refuses a body over its limit with a 413 problem', async () => {
    const response = await fetch(`${server.origin}/__admin/scenario`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: 'x'.repeat(5000) }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({
      type: PROTOCOL_PROBLEMS.CONTENT_TOO_LARGE.type,
      status: 413,
    });
    expect(((await admin('/__admin/scenario')).body as { active: string }).active).toBe('default');
  });

  it('shows the effective config with every secret masked', async () => {
    const config = (await admin('/__admin/config')).body as Record<string, unknown>;
    expect(JSON.stringify(config)).not.toContain(STATUS_TOKEN);
    expect(JSON.stringify(config)).not.toContain(ADMIN_TOKEN);
    expect(config['admin']).toEqual({ token: '***', journalSize: 5 });
  });

  it('serves its own OpenAPI document', async () => {
    expect(
      ((await admin('/__admin/openapi.json')).body as { info: { title: string } }).info.title,
    ).toBe('stockmock admin API');
  });

  it('reloads valid data, and refuses invalid data with file, line and field while keeping the old', async () => {
    await writeFile(file, fixture(['Beta one', 'Beta two', 'Beta three'], 2));
    const reloaded = await admin('/__admin/reload', { method: 'POST' });
    expect(reloaded.body).toEqual({ reloaded: true, scenarios: { default: 3, empty: 0 } });

    await writeFile(file, 'products:\n  - { id: 1, name: Broken, quantity: -4 }\n');
    const refused = await admin('/__admin/reload', { method: 'POST' });
    expect(refused.status).toBe(422);
    expect((refused.body as { type: string }).type).toBe(PROBLEMS.RELOAD_REFUSED.type);
    expect((refused.body as { issues: string[] }).issues).toEqual([
      `${file}:2:38 products[0].quantity: must be >= 0`,
    ]);
    expect((await server.fetch('/healthz')).body).toEqual({ status: 'ok', products: 3 });
  });
});

describe('wrong methods and odd paths', () => {
  it.each([
    ['GET', '/__admin/reload', 'POST'],
    ['POST', '/__admin/scenario', 'GET, HEAD, PUT'],
    ['PUT', '/__admin/requests', 'GET, HEAD, DELETE'],
    ['POST', '/docs', 'GET, HEAD'],
    ['DELETE', '/docs/static/index.html', 'GET, HEAD'],
  ])('%s %s: 405 naming %s', async (method, path, allow) => {
    const response = await fetch(`${server.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(((await response.json()) as { type: string }).type).toBe(
      PROBLEMS.METHOD_NOT_ALLOWED.type,
    );
  });

  it('a path that climbs out of the docs files: 403, titled as a 403', async () => {
    // A path given apart is sent as written; a URL (fetch, or get with one) has its dots resolved.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve) => {
      const { hostname, port } = new URL(server.origin);
      const path = '/docs/static/%2e%2e/%2e%2e/package.json';
      get({ hostname, port, path }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body: text });
        });
      });
    });
    expect(status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
    });
  });
});

describe('a hostile fixture on reload', () => {
  it('a system file in place of the fixture: each line named by position, none echoed', async () => {
    // /etc/group's shape: every line ends with a colon, so YAML reads each as a key.
    const lines = ['root:x:0:', 'daemon:x:1:', 'shadow:x:42:'];
    await writeFile(file, `${lines.join('\n')}\n`);
    const refused = await admin('/__admin/reload', { method: 'POST' });
    expect(refused.status).toBe(422);
    const text = JSON.stringify(refused.body);
    for (const line of lines) expect(text).not.toContain(line.slice(0, 6));
    expect((refused.body as { issues: string[] }).issues).toContain(
      `${file}:2:1 holds a field that is not known here; known: products`,
    );
  });

  it('an alias bomb is refused with file, line and field, and the data stays', async () => {
    await writeFile(file, fixture(['Kept one', 'Kept two'], 1));
    expect((await admin('/__admin/reload', { method: 'POST' })).status).toBe(200);
    const levels = ['      a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [name, before] of ['ba', 'cb', 'dc', 'ed', 'fe', 'gf', 'hg', 'ih']) {
      levels.push(
        `      ${String(name)}: &${String(name)} [${Array(9)
          .fill(`*${String(before)}`)
          .join(', ')}]`,
      );
    }
    await writeFile(
      file,
      `products:\n  - id: 1\n    name: Bomb\n    extra:\n${levels.join('\n')}\n`,
    );
    const refused = await admin('/__admin/reload', { method: 'POST' });
    expect(refused.status).toBe(422);
    expect((refused.body as { issues: string[] }).issues).toEqual([
      `${file}:6:14 products[0].extra.b[0]: aliases expand the data past 10 times the 24 values written (plus 10000): refused as an alias bomb`,
    ]);
    expect((await server.fetch('/healthz')).body).toEqual({ status: 'ok', products: 2 });
  });
});

describe('reload under concurrent load', () => {
  it('gives every response all-old or all-new data, and none fails', async () => {
    const versions = [
      fixture(
        Array.from({ length: 60 }, (_, i) => `Old ${String(i)}`),
        1,
      ),
      fixture(
        Array.from({ length: 40 }, (_, i) => `New ${String(i)}`),
        2,
      ),
    ];
    await writeFile(file, versions[1] ?? '');
    expect((await admin('/__admin/reload', { method: 'POST' })).status).toBe(200);
    let stop = false;
    const seen = new Set<string>();
    const clients = Array.from({ length: 6 }, async () => {
      while (!stop) {
        const response = await server.fetch('/v1/products?limit=100', {
          headers: bearer(QUANTITY_TOKEN),
        });
        expect(response.status).toBe(200);
        const names = (response.body as { data: { name: string }[] }).data.map(
          (item) => item.name.split(' ')[0],
        );
        const kinds = new Set(names);
        expect(kinds.size, `one response mixed ${[...kinds].join(' and ')}`).toBe(1);
        expect(names.length).toBe(names[0] === 'Old' ? 60 : 40);
        seen.add(names[0] ?? '');
      }
    });
    for (let i = 0; i < 10; i++) {
      await writeFile(file, versions[i % 2] ?? '');
      expect((await admin('/__admin/reload', { method: 'POST' })).status).toBe(200);
    }
    stop = true;
    await Promise.all(clients);
    expect([...seen].sort()).toEqual(['New', 'Old']);
    expect(parseDataset('x.yaml', versions[0] ?? '').sizes.get('products')).toBe(60);
  });
});
