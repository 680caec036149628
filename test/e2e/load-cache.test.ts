/**
 * The load cache as a user meets it: `stockmock serve` started twice on the same large file
 * reads the second time back from the cache, says so, and answers every request exactly as the
 * first start did; `STOCKMOCK_LOAD_CACHE=false` keeps nothing.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedProducts } from '../helpers/generated-catalog.ts';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';
import { QUANTITY_TOKEN, STATUS_TOKEN } from '../helpers/test-app.ts';

let dir: string;
let fixture: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stockmock-load-cache-e2e-'));
  fixture = join(dir, 'products.yaml');
  // Past the 4 MiB below which files are built every time.
  const lines = generatedProducts(60_000, 9).map((product) => `  - ${JSON.stringify(product)}`);
  await writeFile(fixture, `products:\n${lines.join('\n')}\n`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PATHS = [
  '/v1/stock',
  '/v1/stock?page=5000',
  '/v1/stock?status=out_of_stock&page=37',
  '/v1/stock?name=%C3%A9lm%20ta&page=2',
  '/v1/stock?name=STRASSE&status=available',
  '/v1/stock/29998',
  '/v1/stock/2',
  '/v1/products?page=123',
  '/v1/products/179998',
];

/** Each path's status and body, at both levels. */
async function answers(server: ServeProcess): Promise<string[]> {
  const all: string[] = [];
  for (const token of [STATUS_TOKEN, QUANTITY_TOKEN]) {
    for (const path of PATHS) {
      const response = await fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      // Links name the origin, whose port each start picks anew.
      const body = (await response.text()).replaceAll(server.url, 'ORIGIN');
      all.push(`${String(response.status)} ${path} ${body}`);
    }
  }
  return all;
}

async function servedOnce(env: Record<string, string>): Promise<{ log: string; got: string[] }> {
  const server = await spawnServe(
    ['--fixtures', fixture, '--config', join(dir, 'none.yaml')],
    dir,
    {
      ...env,
      STOCKMOCK_LOG_FORMAT: 'json',
    },
  );
  try {
    return { log: server.log(), got: await answers(server) };
  } finally {
    await server.stop();
  }
}

describe('stockmock serve with the load cache', () => {
  beforeAll(async () => {
    await writeFile(join(dir, 'none.yaml'), '{}\n');
  });

  it('answers from the cache exactly as from the file, and says where the data came from', async () => {
    const cache = join(dir, 'cache');
    const first = await servedOnce({ STOCKMOCK_LOAD_CACHE: cache });
    expect(first.log).not.toMatch(/load cache/);
    expect(await readdir(cache)).toHaveLength(1);
    const second = await servedOnce({ STOCKMOCK_LOAD_CACHE: cache });
    expect(second.log).toMatch(/read back from the load cache[^"]*: default/);
    expect(second.got).toEqual(first.got);
    expect(first.got.filter((answer) => answer.startsWith('200 '))).toHaveLength(
      2 * PATHS.length - 2,
    );
  }, 60_000);

  it('reads nothing back with STOCKMOCK_LOAD_CACHE=false, however often it starts', async () => {
    await servedOnce({ STOCKMOCK_LOAD_CACHE: 'false' });
    const again = await servedOnce({ STOCKMOCK_LOAD_CACHE: 'false' });
    expect(again.log).not.toMatch(/load cache/);
  }, 60_000);
});
