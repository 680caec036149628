/**
 * Finding 1: `serve` answering from examples must not freeze on a spec `pattern` with
 * catastrophic backtracking, wherever the pattern sits (path, query, header, body), and must
 * still enforce patterns that a linear engine cannot run (a lookahead).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';
import { stopProcess } from './support.ts';

const ok = { description: 'ok', content: { 'application/json': { example: { ok: true } } } };

const spec = {
  openapi: '3.0.3',
  info: { title: 'ReDoS', version: '1.0.0' },
  paths: {
    '/re/{v}': {
      get: {
        operationId: 'pathPattern',
        parameters: [
          { name: 'v', in: 'path', required: true, schema: { type: 'string', pattern: '^(a+)+$' } },
        ],
        responses: { '200': ok },
      },
    },
    '/body': {
      post: {
        operationId: 'bodyPattern',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string', pattern: '^([a-z]+)*$' } },
              },
            },
          },
        },
        responses: { '201': ok },
      },
    },
    '/q': {
      get: {
        operationId: 'queryPattern',
        parameters: [
          {
            name: 'v',
            in: 'query',
            required: true,
            schema: { type: 'string', pattern: '^(\\w+\\s?)*$' },
          },
        ],
        responses: { '200': ok },
      },
    },
    '/h': {
      get: {
        operationId: 'headerPattern',
        parameters: [
          {
            name: 'X-Code',
            in: 'header',
            required: true,
            schema: { type: 'string', pattern: '^(a|aa)+$' },
          },
        ],
        responses: { '200': ok },
      },
    },
    '/la/{v}': {
      get: {
        operationId: 'lookahead',
        parameters: [
          {
            name: 'v',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^(?=.*\\d).{4,}$' },
          },
        ],
        responses: { '200': ok },
      },
    },
  },
};

let dir: string;
let specFile: string;
let serve: ServeProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adversary-redos-'));
  specFile = join(dir, 'redos.yaml');
  await writeFile(specFile, stringify(spec));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  if (serve) await stopProcess(serve.child);
  serve = undefined;
});

async function start(): Promise<string> {
  // The temporary folder as working directory: no stockmock.config.yaml there.
  serve = await spawnServe(['--spec', specFile], dir);
  return serve.url;
}

const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Sends the hostile request, then a plain one while it is in flight; both must be answered. */
async function hostileThenPlain(url: string, hostile: () => Promise<Response>): Promise<void> {
  const hostileAnswer = hostile();
  await pause(300);
  const plain = await fetch(`${url}/re/aaa`);
  expect(plain.status).toBe(200);
  expect(await plain.json()).toEqual({ ok: true });
  const answer = await hostileAnswer;
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  expect(await answer.text()).toMatch(/match/i);
}

describe('serve: a ReDoS pattern in a spec answered from examples', () => {
  it(
    'path parameter ^(a+)+$: the hostile value is refused and the server keeps answering',
    { timeout: 30_000 },
    async () => {
      const url = await start();
      await hostileThenPlain(url, () => fetch(`${url}/re/${'a'.repeat(42)}!`));
      const openapi = await fetch(`${url}/re/aaaa`);
      expect(openapi.status).toBe(200);
    },
  );

  it(
    'JSON body member ^([a-z]+)*$: refused, and the server keeps answering',
    { timeout: 30_000 },
    async () => {
      const url = await start();
      await hostileThenPlain(url, () =>
        fetch(`${url}/body`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `${'a'.repeat(42)}!` }),
        }),
      );
      const good = await fetch(`${url}/body`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'abc' }),
      });
      expect(good.status).toBe(201);
    },
  );

  it(
    'query parameter ^(\\w+\\s?)*$: refused, and the server keeps answering',
    { timeout: 30_000 },
    async () => {
      const url = await start();
      await hostileThenPlain(url, () => fetch(`${url}/q?v=${'a'.repeat(42)}!`));
      expect((await fetch(`${url}/q?v=abc%20def`)).status).toBe(200);
    },
  );

  it(
    'header parameter ^(a|aa)+$: refused, and the server keeps answering',
    { timeout: 30_000 },
    async () => {
      const url = await start();
      await hostileThenPlain(url, () =>
        fetch(`${url}/h`, { headers: { 'x-code': `${'a'.repeat(70)}!` } }),
      );
      expect((await fetch(`${url}/h`, { headers: { 'x-code': 'aaa' } })).status).toBe(200);
    },
  );

  it(
    'a pattern with a lookahead ^(?=.*\\d).{4,}$ is still enforced',
    { timeout: 30_000 },
    async () => {
      const url = await start();
      const refused = await fetch(`${url}/la/abcd`);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(await refused.text()).toMatch(/match/i);
      const accepted = await fetch(`${url}/la/abc1`);
      expect(accepted.status).toBe(200);
    },
  );
});
