/**
 * The spec reloads like the data: the orders example (examples/orders/) edited while it is
 * served. A new filter, a new operation and a removed one are served whole once the edit is saved;
 * a bad edit is refused with file, line and field while the last good spec serves; a request
 * begun under one spec ends under it, and no answer mixes two. Expected answers are read from the
 * fixture and the spec's text, never from stockmock.
 */
import { cp, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { recordResponse, validatorFor } from '../helpers/expect-spec.ts';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';

const example = fileURLToPath(new URL('../../examples/orders/', import.meta.url));
const MANAGER = { authorization: 'Bearer manager-demo-token' };

interface Order {
  readonly id: number;
  readonly total: number;
}

/** The orders example's spec text, and that text with each edit made by exact replacement. */
const ORIGINAL = await readFile(join(example, 'openapi.yaml'), 'utf8');
const ORDERS = (parse(await readFile(join(example, 'orders.yaml'), 'utf8')) as { orders: Order[] })
  .orders;

function replaced(text: string, from: string, to: string): string {
  expect(text, `the spec holds ${from}`).toContain(from);
  return text.replace(from, to);
}

const DAILY_EXAMPLE = { day: '2026-11-26', placed: 42 };

/** The example with a `max_total` filter, a `/v1/reports/daily` report, and no customers list. */
function edited(text = ORIGINAL): string {
  let spec = replaced(
    text,
    '          min_total: { field: total, match: min }\n',
    '          min_total: { field: total, match: min }\n          max_total: { field: total, match: max }\n',
  );
  spec = replaced(
    spec,
    "        - $ref: '#/components/parameters/Limit'\n",
    "        - name: max_total\n          in: query\n          schema: { type: integer, minimum: 0 }\n        - $ref: '#/components/parameters/Limit'\n",
  );
  const customers = spec.indexOf('  /v1/customers:\n');
  const reports = spec.indexOf('  /v1/reports/summary:\n');
  expect(customers).toBeGreaterThan(0);
  expect(reports).toBeGreaterThan(customers);
  const daily = [
    '  /v1/reports/daily:',
    '    get:',
    '      operationId: dailyReport',
    '      responses:',
    "        '200':",
    '          description: Orders placed today.',
    '          content:',
    '            application/json:',
    '              schema:',
    '                type: object',
    '                required: [day, placed]',
    '                properties:',
    '                  day: { type: string, format: date }',
    '                  placed: { type: integer, minimum: 0 }',
    `              example: ${JSON.stringify(DAILY_EXAMPLE)}`,
    "        '401': { $ref: '#/components/responses/Unauthorized' }",
    '',
  ].join('\n');
  return spec.slice(0, customers) + daily + spec.slice(reports);
}

/** Waits for one more line matching `pattern` than the log holds now. */
async function oneMore(server: ServeProcess, pattern: string): Promise<void> {
  const count = server.log().split(pattern).length - 1;
  const escaped = pattern.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await server.waitForLog(new RegExp(`(?:${escaped}[^]*){${String(count + 1)}}`));
}

/** Saves by writing a new file and renaming it over the old, as editors do. */
async function save(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

const atMost = (total: number): number[] =>
  ORDERS.filter((order) => order.total <= total).map((order) => order.id);

async function copyOfExample(): Promise<{ dir: string; spec: string; config: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-spec-reload-'));
  await cp(example, dir, { recursive: true });
  return {
    dir,
    spec: join(dir, 'openapi.yaml'),
    config: join(dir, 'stockmock.config.yaml'),
  };
}

describe('serve --watch, the spec edited', () => {
  let files: Awaited<ReturnType<typeof copyOfExample>>;
  let server: ServeProcess;
  beforeAll(async () => {
    files = await copyOfExample();
    server = await spawnServe(['--config', files.config, '--watch']);
    await server.waitForLog(/watching .*openapi\.yaml/);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  const get = (path: string) => fetch(new URL(path, server.url), { headers: MANAGER });

  it('serves a new filter, a new operation and a removed one, and the docs follow', async () => {
    const before = await get('/v1/orders?max_total=24000');
    expect(before.status).toBe(400);
    expect(((await before.json()) as { errors: { parameter: string }[] }).errors[0]).toMatchObject({
      parameter: 'max_total',
    });
    expect((await get('/v1/customers')).status).toBe(200);

    await save(files.spec, edited());
    await server.waitForLog(/reloaded \(.*openapi\.yaml changed\)/);
    expect(server.log()).toMatch(/serving the spec .*openapi\.yaml anew: .*dailyReport/);

    const validator = await validatorFor(await loadSpec(files.spec));
    const judged = async (path: string) => {
      const recorded = await recordResponse(await get(path));
      expect(validator.validate('GET', new URL(path, server.url).pathname, recorded)).toEqual([]);
      return recorded;
    };
    const filtered = await judged('/v1/orders?max_total=24000&limit=100');
    expect(filtered.status).toBe(200);
    const ids = (filtered.body as { data: { id: number }[] }).data.map((order) => order.id);
    expect(ids).toStrictEqual(atMost(24_000));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThan(ORDERS.length);

    const daily = await judged('/v1/reports/daily');
    expect(daily.status).toBe(200);
    expect(daily.body).toStrictEqual(DAILY_EXAMPLE);
    expect((await get('/v1/customers')).status).toBe(404);

    const docs = (await (await fetch(`${server.url}/docs/json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(docs.paths)).toContain('/v1/reports/daily');
    expect(Object.keys(docs.paths)).not.toContain('/v1/customers');
  });

  it('refuses a bad edit with file, line and field, and the last good spec serves on', async () => {
    const bad = replaced(
      edited(),
      'max_total: { field: total, match: max }',
      'max_total: { field: totl, match: max }',
    );
    const line = bad.split('\n').findIndex((text) => text.includes('field: totl')) + 1;
    await save(files.spec, bad);
    await server.waitForLog(/reload refused \(.*openapi\.yaml changed\)/);
    expect(server.log()).toContain(
      `${files.spec}:${String(line)}:31 paths./v1/orders.get.x-stockmock.filters.max_total.field: totl is not a field of orders`,
    );
    const filtered = await get('/v1/orders?max_total=24000&limit=100');
    expect(filtered.status).toBe(200);
    expect(
      ((await filtered.json()) as { data: { id: number }[] }).data.map((order) => order.id),
    ).toStrictEqual(atMost(24_000));
    expect((await get('/v1/reports/daily')).status).toBe(200);

    // Not YAML at all: refused the same way.
    await save(files.spec, 'openapi: 3.1.0\n  info: [\n');
    await server.waitForLog(/YAML syntax error[^\n]*reload refused/);
    expect((await get('/v1/reports/daily')).status).toBe(200);

    // Mended, the spec is read again.
    const reloaded = oneMore(server, '"reloaded (');
    await save(files.spec, edited());
    await reloaded;
  });

  it('reloads the data alone when only a fixture changed, with the spec it serves', async () => {
    const anew = server.log().match(/anew/g)?.length;
    const fixture = join(files.dir, 'orders.yaml');
    const text = await readFile(fixture, 'utf8');
    await save(
      fixture,
      `${text.trimEnd()}\n  - { id: 99, reference: ORD-0099, customer: Late Shop, status: pending, total: 100 }\n`,
    );
    await server.waitForLog(/reloaded \(.*orders\.yaml changed\)/);
    const filtered = await get('/v1/orders?max_total=100&limit=100');
    expect(
      ((await filtered.json()) as { data: { id: number }[] }).data.map((order) => order.id),
    ).toStrictEqual([...atMost(100), 99]);
    expect(server.log().match(/anew/g)?.length).toBe(anew);
  });
});

describe('a reload of the spec under requests', () => {
  it('ends a request begun under one spec under it, and no answer mixes two', async () => {
    const files = await copyOfExample();
    await save(files.spec, edited());
    const mock = await startStockmock({ config: files.config, cwd: files.dir });
    const expected = atMost(24_000);
    const ask = (init: RequestInit = {}) =>
      fetch(`${mock.url}/v1/orders?max_total=24000&limit=100`, {
        ...init,
        headers: { ...MANAGER, ...(init.headers as Record<string, string> | undefined) },
      });
    try {
      // Begun under the spec with the filter, held by a simulated delay across the reload.
      const held = ask({ headers: { prefer: 'delay=1500' } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await save(files.spec, ORIGINAL);
      expect(await mock.reload()).toMatchObject({ ok: true });
      const heldAnswer = await held;
      expect(heldAnswer.status).toBe(200);
      expect(
        ((await heldAnswer.json()) as { data: { id: number }[] }).data.map((order) => order.id),
      ).toStrictEqual(expected);
      expect((await ask()).status).toBe(400);

      // Clients asking all along while the spec goes back and forth: each answer is wholly the
      // one spec's (the filter applied) or wholly the other's (the filter unknown).
      let asking = true;
      const seen = new Map<string, number>();
      const client = async (): Promise<void> => {
        while (asking) {
          const answer = await ask();
          const body = (await answer.json()) as {
            data?: { id: number }[];
            errors?: { parameter: string }[];
          };
          const verdict =
            answer.status === 200 &&
            JSON.stringify(body.data?.map((order) => order.id)) === JSON.stringify(expected)
              ? 'with the filter'
              : answer.status === 400 && body.errors?.[0]?.parameter === 'max_total'
                ? 'without it'
                : `mixed: ${String(answer.status)} ${JSON.stringify(body)}`;
          seen.set(verdict, (seen.get(verdict) ?? 0) + 1);
        }
      };
      const clients = Array.from({ length: 4 }, client);
      for (let round = 0; round < 6; round += 1) {
        await save(files.spec, round % 2 === 0 ? edited() : ORIGINAL);
        expect(await mock.reload()).toMatchObject({ ok: true });
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      asking = false;
      await Promise.all(clients);
      expect([...seen.keys()].sort()).toStrictEqual(['with the filter', 'without it']);
    } finally {
      await mock.close();
    }
  }, 30_000);
});

describe('SIGHUP, the admin API and the config', () => {
  let files: Awaited<ReturnType<typeof copyOfExample>>;
  let server: ServeProcess;
  const ADMIN = { authorization: 'Bearer spec-reload-admin' };
  const configWith = (tokens: string, logFormat = 'json'): string =>
    `spec: openapi.yaml\nfixtures: orders.yaml\nlogFormat: ${logFormat}\nadmin: { token: spec-reload-admin }\ntokens:\n${tokens}`;
  const TOKENS =
    '  - { token: clerk-demo-token, level: clerk }\n  - { token: manager-demo-token, level: manager }\n';
  beforeAll(async () => {
    files = await copyOfExample();
    await writeFile(files.config, configWith(TOKENS));
    server = await spawnServe(['--config', files.config]);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('reloads an edited spec on SIGHUP, without --watch', async () => {
    await save(files.spec, edited());
    expect((await fetch(`${server.url}/v1/reports/daily`, { headers: MANAGER })).status).toBe(404);
    const reloaded = oneMore(server, 'reloaded (SIGHUP)');
    server.child.kill('SIGHUP');
    await reloaded;
    expect((await fetch(`${server.url}/v1/reports/daily`, { headers: MANAGER })).status).toBe(200);
  });

  it('refuses a bad spec through the admin API with its issues, and keeps the journal', async () => {
    await fetch(`${server.url}/v1/reports/daily`, { headers: MANAGER });
    await save(files.spec, replaced(edited(), 'operationId: dailyReport', 'operationId: getOrder'));
    const refused = await fetch(`${server.url}/__admin/reload`, { method: 'POST', headers: ADMIN });
    expect(refused.status).toBe(422);
    const issues = ((await refused.json()) as { issues: string[] }).issues;
    expect(issues.join('\n')).toMatch(/openapi\.yaml:\d+:\d+ .*getOrder/);
    expect((await fetch(`${server.url}/v1/reports/daily`, { headers: MANAGER })).status).toBe(200);

    await save(files.spec, ORIGINAL);
    const reloaded = await fetch(`${server.url}/__admin/reload`, {
      method: 'POST',
      headers: ADMIN,
    });
    expect(reloaded.status).toBe(200);
    expect((await fetch(`${server.url}/v1/reports/daily`, { headers: MANAGER })).status).toBe(404);
    // The requests served before the new app are still listed.
    const journal = (await (
      await fetch(`${server.url}/__admin/requests`, { headers: ADMIN })
    ).json()) as { requests: { path?: string; url?: string }[] };
    expect(JSON.stringify(journal)).toContain('/v1/reports/daily');
  });

  it('applies changed tokens at once, and keeps a changed log format with a line that says so', async () => {
    const newClerk = { authorization: 'Bearer clerk-token-two' };
    expect((await fetch(`${server.url}/v1/orders`, { headers: newClerk })).status).toBe(401);
    await writeFile(
      files.config,
      configWith(
        '  - { token: clerk-token-two, level: clerk }\n  - { token: manager-demo-token, level: manager }\n',
        'pretty',
      ),
    );
    const reloaded = oneMore(server, 'reloaded (SIGHUP)');
    server.child.kill('SIGHUP');
    await reloaded;
    expect(server.log()).toContain('logFormat changed in the config: read at start only');
    expect((await fetch(`${server.url}/v1/orders`, { headers: newClerk })).status).toBe(200);
    expect(
      (
        await fetch(`${server.url}/v1/orders`, {
          headers: { authorization: 'Bearer clerk-demo-token' },
        })
      ).status,
    ).toBe(401);
  });
});
