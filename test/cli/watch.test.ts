/** `serve --watch` and SIGHUP, on a real process and real files. */
import { mkdtemp, open, readFile, rename, writeFile } from 'node:fs/promises';
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
  // Each test writes its files whole: a short settle window keeps the check in play, not slow.
  await writeFile(
    join(dir, 'stockmock.config.yaml'),
    'fixtures: products.yaml\nreloadSettleMs: 200\n',
  );
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

  it('serves a fixture renamed into place at once, whatever the settle window', async () => {
    const { dir, file } = await folder('products:\n  - { id: 1, name: One }\n');
    // A window no test waits out: only a rename can be served before it ends.
    await writeFile(
      join(dir, 'stockmock.config.yaml'),
      'fixtures: products.yaml\nreloadSettleMs: 60000\n',
    );
    const server = await spawnServe(['--watch'], dir);
    await server.waitForLog(/watching .* for changes/);
    try {
      const next = join(dir, '.products.yaml.tmp');
      await writeFile(next, 'products:\n  - { id: 1, name: One }\n  - { id: 2, name: Two }\n');
      await rename(next, file);
      await server.waitForLog(/reloaded \(.*products\.yaml changed\)/, 15_000);
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
      await writeFile(
        join(dir, 'stockmock.config.yaml'),
        'fixtures: other.yaml\nreloadSettleMs: 200\n',
      );
      await server.waitForLog(/reloaded \(.*stockmock\.config\.yaml changed\)/);
      expect(await products(server.url)).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe('a file written in place by a writer that pauses midway', () => {
  it('is never served half-written: the reload waits until the file has settled', async () => {
    const entries = (count: number) =>
      Array.from({ length: count }, (_, i) => `  - { id: ${String(i + 1)}, name: P${String(i)} }`);
    const { dir, file } = await folder(`products:\n${entries(3).join('\n')}\n`);
    await writeFile(
      join(dir, 'stockmock.config.yaml'),
      'fixtures: products.yaml\nreloadSettleMs: 1500\n',
    );
    const server = await spawnServe(['--watch'], dir);
    await server.waitForLog(/watching .* for changes/);
    const seen = new Set<number>();
    const done = new AbortController();
    const watcher = (async () => {
      while (!done.signal.aborted) {
        seen.add(await products(server.url));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      // The first 600 entries, a pause longer than the watcher's debounce, then the other 400:
      // the first part alone is valid YAML with 600 products.
      const all = `products:\n${entries(1000).join('\n')}\n`;
      const cut = all.indexOf('  - { id: 601,');
      const handle = await open(file, 'w');
      await handle.write(all.slice(0, cut));
      await new Promise((resolve) => setTimeout(resolve, 700));
      await handle.write(all.slice(cut));
      await handle.close();
      await server.waitForLog(/reloaded \(.*products\.yaml changed\)/);
      const after = await products(server.url);
      seen.add(after);
      expect(after).toBe(1000);
    } finally {
      done.abort();
      await watcher;
      await server.stop();
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([3, 1000]);
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

  it('reloads when sent on reading "listening on", and the server lives on', async () => {
    const { dir } = await folder('products:\n  - { id: 1, name: One }\n');
    const server = await spawnServe([], dir);
    try {
      server.child.kill('SIGHUP');
      await server.waitForLog(/reloaded \(SIGHUP\)/);
      expect(await products(server.url)).toBe(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
