/**
 * Finding 3: `--spec URL` must not follow a redirect to another origin (contract and record):
 * the second origin never gets a request, and the CLI names the 3xx and its Location in one line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
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
  type CliResult,
  type Target,
} from './support.ts';

const targets: Target[] = [];
const dirs: string[] = [];
afterEach(async () => {
  killRunningClis();
  await Promise.all(targets.splice(0).map((target) => target.close()));
});
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function redirecting(): Promise<{ first: Target; second: Target; location: string }> {
  const spec = await shippedSpec();
  const second = await startTarget((_request, response) => {
    const body = JSON.stringify(spec);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  });
  targets.push(second);
  const location = `${second.url}/openapi.json`;
  const first = await startTarget(
    stockService({
      openapi: (_request, response) => {
        response.writeHead(302, { location, 'content-length': '0' });
        response.end();
      },
    }),
  );
  targets.push(first);
  return { first, second, location };
}

function expectOneLineNaming(result: CliResult, location: string): void {
  expect(result.code).not.toBe(0);
  const lines = `${result.stdout}\n${result.stderr}`.split('\n');
  const line = lines.find((text) => text.includes('302') && text.includes(location));
  expect(
    line,
    `no line names 302 and ${location}:\n${result.stdout}\n${result.stderr}`,
  ).toBeDefined();
}

describe('--spec URL answered by a redirect to another origin', () => {
  it(
    'contract: never requests the other origin, and names the 302 and its Location',
    { timeout: 30_000 },
    async () => {
      const { first, second, location } = await redirecting();
      const result = await runCli([
        'contract',
        first.url,
        '--spec',
        `${first.url}/openapi.json`,
        '--token',
        `status=${STATUS}`,
        '--token',
        `quantity=${QUANTITY}`,
        '--runs',
        '5',
      ]);
      expect(second.hits).toEqual([]);
      expectOneLineNaming(result, location);
    },
  );

  it(
    'record: never requests the other origin, and names the 302 and its Location',
    { timeout: 30_000 },
    async () => {
      const { first, second, location } = await redirecting();
      const dir = await mkdtemp(join(tmpdir(), 'adversary-redirect-'));
      dirs.push(dir);
      const result = await runCli([
        'record',
        first.url,
        '--spec',
        `${first.url}/openapi.json`,
        '--token',
        `status=${STATUS}`,
        '--token',
        `quantity=${QUANTITY}`,
        '--rate',
        '0',
        '--out',
        join(dir, 'rec.yaml'),
      ]);
      expect(second.hits).toEqual([]);
      expectOneLineNaming(result, location);
    },
  );
});
