/**
 * Finding 5: an answer nested 10 000 arrays deep must not overflow the checker's stack: the run
 * ends with its report and exit 2 or 1, and never prints "Maximum call stack size exceeded".
 */
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  killRunningClis,
  QUANTITY,
  runCli,
  shippedSpec,
  startTarget,
  STATUS,
  stockService,
  type StockServiceOptions,
  type Target,
} from './support.ts';

const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;

const targets: Target[] = [];
const dirs: string[] = [];
afterEach(async () => {
  killRunningClis();
  await Promise.all(targets.splice(0).map((target) => target.close()));
});
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function check(options: StockServiceOptions) {
  const spec = await shippedSpec();
  const target = await startTarget(stockService({ spec, ...options }));
  targets.push(target);
  const dir = await mkdtemp(join(tmpdir(), 'adversary-deep-'));
  dirs.push(dir);
  const junit = join(dir, 'report.xml');
  const result = await runCli([
    'contract',
    target.url,
    '--spec',
    `${target.url}/openapi.json`,
    '--token',
    `status=${STATUS}`,
    '--token',
    `quantity=${QUANTITY}`,
    '--runs',
    '5',
    '--seed',
    '1',
    '--junit',
    junit,
  ]);
  const all = `${result.stdout}\n${result.stderr}`;
  expect(all).not.toContain('Maximum call stack size exceeded');
  expect(all).not.toMatch(/RangeError/);
  expect(result.signal).toBeNull();
  expect([1, 2], all.slice(-2000)).toContain(result.code);
  return { result, junit };
}

describe('contract against answers nested 10 000 deep', () => {
  it('GET /v1/stock answers 10 000 nested arrays', { timeout: 60_000 }, async () => {
    const { junit } = await check({ rawStock: deep });
    expect(await readFile(junit, 'utf8')).toContain('<testsuites');
  });

  it(
    'GET /v1/products answers 10 000 nested arrays (stock is sane)',
    { timeout: 60_000 },
    async () => {
      const { junit } = await check({ rawProducts: deep });
      expect(await readFile(junit, 'utf8')).toContain('<testsuites');
    },
  );

  it(
    'GET /v1/products answers 10 000 nested objects (stock is sane)',
    { timeout: 60_000 },
    async () => {
      const { junit } = await check({ rawProducts: deepObject });
      expect(await readFile(junit, 'utf8')).toContain('<testsuites');
    },
  );

  it('--spec URL answers 10 000 nested arrays', { timeout: 60_000 }, async () => {
    const { junit } = await check({
      openapi: (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(deep);
      },
    });
    // A spec refused before the run may leave no report; if one was written, it is JUnit.
    const written = await access(junit).then(
      () => true,
      () => false,
    );
    if (written) expect(await readFile(junit, 'utf8')).toContain('<testsuites');
  });
});
