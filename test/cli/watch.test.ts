/** `serve --watch` and SIGHUP, on a real process and real files. */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/spawn-serve.ts';

async function products(url: string): Promise<number> {
  const body = (await (await fetch(`${url}/healthz`)).json()) as { products: number };
  return body.products;
}

async function folder(fixture: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-watch-'));
  const file = join(dir, 'products.yaml');
  await writeFile(file, fixture);
  await writeFile(join(dir, 'stockmock.config.yaml'), 'fixtures: products.yaml\n');
  return { dir, file };
}

describe('serve --watch', () => {
  it('reloads a changed fixture, refuses an invalid one with file, line and field, and keeps the old data', async () => {
    const { dir, file } = await folder('products:\n  - { id: 1, name: One }\n');
    const server = await spawnServe(['--watch'], dir);
    await server.waitForLog(/watching .* for changes/);
    try {
      expect(await products(server.url)).toBe(1);
      await writeFile(file, 'products:\n  - { id: 1, name: One }\n  - { id: 1, name: Twin }\n');
      await server.waitForLog(/reload refused/);
      expect(server.log()).toContain(`${file}:3:11 products[1].id: duplicate id 1`);
      expect(await products(server.url)).toBe(1);

      await writeFile(file, 'products:\n  - { id: 1, name: One }\n  - { id: 2, name: Two }\n');
      await server.waitForLog(/reloaded \(.*products\.yaml changed\)/);
      expect(await products(server.url)).toBe(2);
    } finally {
      await server.stop();
    }
  });

  it('reloads a changed config, such as a new fixture path', async () => {
    const { dir } = await folder('products:\n  - { id: 1, name: One }\n');
    await writeFile(join(dir, 'other.yaml'), 'products: []\n');
    const server = await spawnServe(['--watch'], dir);
    await server.waitForLog(/watching .* for changes/);
    try {
      await writeFile(join(dir, 'stockmock.config.yaml'), 'fixtures: other.yaml\n');
      await server.waitForLog(/reloaded \(.*stockmock\.config\.yaml changed\)/);
      expect(await products(server.url)).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe('SIGHUP', () => {
  it('reloads without --watch', async () => {
    const { dir, file } = await folder('products:\n  - { id: 1, name: One }\n');
    const server = await spawnServe([], dir);
    try {
      await writeFile(file, `${await readFile(file, 'utf8')}  - { id: 2, name: Two }\n`);
      expect(await products(server.url)).toBe(1);
      server.child.kill('SIGHUP');
      await server.waitForLog(/reloaded \(SIGHUP\)/);
      expect(await products(server.url)).toBe(2);
    } finally {
      await server.stop();
    }
  });
});
