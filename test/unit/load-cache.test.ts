/**
 * The load cache serves exactly what building would have: an entry reads back as written, a
 * load read back equals the load built, and any change to the data or the plan builds again. A
 * cache it cannot trust (another's folder, a damaged entry) is not read.
 */
import {
  chmod,
  chown,
  link,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { readEntry, writeEntry } from '../../src/scenarios/cache-entry.ts';
import { openLoadCache } from '../../src/scenarios/load-cache.ts';
import {
  loadPlanOf,
  runLoadJob,
  type LoadJob,
  type LoadPlan,
} from '../../src/scenarios/load-scenarios.ts';
import { SHIPPED } from '../helpers/datasets.ts';
import { generatedProducts } from '../helpers/generated-catalog.ts';

const PLAN = loadPlanOf(SHIPPED, DEFAULTS.compatibility);
const folders: string[] = [];

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-cache-test-'));
  folders.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fixture file in the flow layout, as a user writes one. */
function fixtureText(count: number, seed: number): string {
  const lines = generatedProducts(count, seed).map(
    (product) => `  - ${JSON.stringify(product).replaceAll('":', '": ')}`,
  );
  return `products:\n${lines.join('\n')}\n`;
}

async function written(value: unknown, meta: unknown = { m: 1 }): Promise<Buffer> {
  const file = join(await folder(), 'entry');
  const handle = await open(file, 'w');
  try {
    await writeEntry(handle, meta, value);
  } finally {
    await handle.close();
  }
  return readFile(file);
}

describe('a cache entry', () => {
  it('reads back as written: typed arrays by type, long strings whole, keys that look like its own', async () => {
    // A surrogate pair across the 1 MiB point at which long strings are written in chunks.
    const long = `${'x'.repeat((1 << 20) - 1)}𝄞 Ōak Straße ${'y'.repeat(5000)}`;
    const value = {
      name: 'products',
      keys: new Float64Array([1, 2.5, 1e15]),
      of: new Int32Array([-1, 0, 7]),
      ends: new Uint32Array([3, 4_000_000_000]),
      flags: new Uint8Array([1, 0, 255]),
      codes: new Uint16Array([65535]),
      text: long,
      list: ['a', long, { nested: [new Int16Array([-2])] }],
      $part: 3,
      $$x: 'dollar',
      empty: new Int32Array(0),
      none: null,
    };
    const back = readEntry(await written(value, { planDigest: 'p' }));
    expect(back?.meta).toEqual({ planDigest: 'p' });
    expect(back?.value).toStrictEqual(value);
    // An absent optional member reads back absent, as JSON has it.
    expect(readEntry(await written({ a: 1, gone: undefined }))?.value).toStrictEqual({ a: 1 });
  });

  it('gives each array a buffer of its own, which may move to another thread', async () => {
    const back = readEntry(
      await written({ a: new Uint8Array([1, 2, 3]), b: new Float64Array([0.5]) }),
    )?.value as { a: Uint8Array; b: Float64Array };
    for (const array of [back.a, back.b]) {
      expect(array.byteOffset).toBe(0);
      expect(array.buffer.byteLength).toBe(array.byteLength);
      expect(() =>
        structuredClone(array, { transfer: [array.buffer as ArrayBuffer] }),
      ).not.toThrow();
    }
  });

  it('refuses what it cannot write exactly', async () => {
    for (const value of [{ a: new Map() }, { a: Number.NaN }, { a: -0 }, { a: [undefined] }]) {
      await expect(written(value)).rejects.toThrow();
    }
  });

  it('is not read when damaged: cut short, longer, or not an entry', async () => {
    const bytes = await written({ a: new Int32Array([1, 2, 3]), s: 'z'.repeat(10_000) });
    expect(readEntry(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(readEntry(Buffer.concat([bytes, Buffer.from([0])]))).toBeUndefined();
    expect(readEntry(Buffer.from('products:\n  - {}\n'))).toBeUndefined();
  });

  it('is not read when damaged in place, at its right length: in the header or in a part', async () => {
    const text = 'Oak table '.repeat(1000);
    const bytes = await written({ keys: new Int32Array([1, 2, 3]), names: text });
    expect(readEntry(bytes)).toBeDefined();
    // Each place where a byte could change: the header's JSON, an array, a long string.
    for (const at of [bytes.indexOf('keys'), bytes.indexOf(text) - 8, bytes.indexOf(text) + 500]) {
      const damaged = Buffer.from(bytes);
      damaged[at] = (damaged[at] ?? 0) ^ 0x01;
      expect(readEntry(damaged)).toBeUndefined();
    }
  });
});

describe('a load with the cache', () => {
  /** A load of one fixture file, keeping every file however small (minBytes 1). */
  async function load(fixture: string, cacheDir: string, plan: LoadPlan = PLAN) {
    const job: LoadJob = {
      sources: [['default', fixture]],
      options: {},
      cache: { dir: cacheDir, minBytes: 1 },
    };
    const { outcome } = await runLoadJob(job, Promise.resolve(plan));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.issues));
    return { cached: outcome.cached, loaded: outcome.scenarios[0]?.[1] };
  }

  it('reads back, at the next load of the same file, what the first load built', async () => {
    const dir = await folder();
    const fixture = join(dir, 'products.yaml');
    await writeFile(fixture, fixtureText(300, 1));
    const cache = join(dir, 'cache');
    const first = await load(fixture, cache);
    const second = await load(fixture, cache);
    expect(first.cached).toEqual([]);
    expect(second.cached).toEqual(['default']);
    expect(second.loaded).toStrictEqual(first.loaded);
  });

  it('builds again when the file changes, by a single character, and serves the change', async () => {
    const dir = await folder();
    const fixture = join(dir, 'products.yaml');
    const text = fixtureText(300, 2);
    await writeFile(fixture, text);
    const cache = join(dir, 'cache');
    await load(fixture, cache);
    const changed = text.replace('"name": "', '"name": "Ä');
    expect(changed).not.toBe(text);
    await writeFile(fixture, changed);
    const after = await load(fixture, cache);
    expect(after.cached).toEqual([]);
    const fresh = await load(fixture, join(dir, 'other-cache'));
    expect(after.loaded).toStrictEqual(fresh.loaded);
  });

  it('builds again for another plan: another spec or a setting that shapes a load', async () => {
    const dir = await folder();
    const fixture = join(dir, 'products.yaml');
    await writeFile(fixture, fixtureText(200, 3));
    const cache = join(dir, 'cache');
    await load(fixture, cache);
    const byName = loadPlanOf(SHIPPED, { order: 'name' });
    const other = await load(fixture, cache, byName);
    expect(other.cached).toEqual([]);
    expect(other.loaded?.[0]?.labelOrder).toBeInstanceOf(Int32Array);
    expect((await load(fixture, cache, byName)).cached).toEqual(['default']);
  });

  it.each([
    ['cut short', (bytes: Buffer) => bytes.subarray(0, 100)],
    [
      // The end of its last part: only the digest tells.
      'changed in place, at its right length',
      (bytes: Buffer) => {
        const changed = Buffer.from(bytes);
        changed[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0x20;
        return changed;
      },
    ],
  ])('builds again over an entry %s, and writes it anew', async (_, damage) => {
    const dir = await folder();
    const fixture = join(dir, 'products.yaml');
    await writeFile(fixture, fixtureText(200, 4));
    const cache = join(dir, 'cache');
    const first = await load(fixture, cache);
    const [entry] = await readdir(cache);
    const file = join(cache, entry ?? '');
    await writeFile(file, damage(await readFile(file)));
    const again = await load(fixture, cache);
    expect(again.cached).toEqual([]);
    expect(again.loaded).toStrictEqual(first.loaded);
    expect((await load(fixture, cache)).cached).toEqual(['default']);
  });

  it('keeps generated scenarios by their count and seed', async () => {
    const cache = join(await folder(), 'cache');
    const job = (seed: number): LoadJob => ({
      sources: [['large', { generate: { count: 500, seed } }]],
      options: {},
      cache: { dir: cache, minBytes: 1 },
    });
    const cachedOf = async (seed: number) => {
      const { outcome } = await runLoadJob(job(seed), Promise.resolve(PLAN));
      return outcome.ok ? outcome.cached : outcome.issues;
    };
    expect(await cachedOf(1)).toEqual([]);
    expect(await cachedOf(1)).toEqual(['large']);
    expect(await cachedOf(2)).toEqual([]);
  });

  it('neither reads nor writes a folder that others may write to', async () => {
    const dir = await folder();
    const fixture = join(dir, 'products.yaml');
    await writeFile(fixture, fixtureText(100, 5));
    const cache = join(dir, 'cache');
    await load(fixture, cache);
    await chmod(cache, 0o777);
    expect((await load(fixture, cache)).cached).toEqual([]);
    const before = await readdir(cache);
    await rm(join(cache, before[0] ?? ''));
    await load(fixture, cache);
    expect(await readdir(cache)).toEqual([]);
  });

  it('keeps no file under its size threshold', async () => {
    const dir = await folder();
    const fixture = join(dir, 'products.yaml');
    const text = fixtureText(100, 6);
    await writeFile(fixture, text);
    const cache = join(dir, 'cache');
    const job: LoadJob = {
      sources: [['default', fixture]],
      options: {},
      cache: { dir: cache, minBytes: Buffer.byteLength(text) + 1 },
    };
    await runLoadJob(job, Promise.resolve(PLAN));
    expect(await readdir(cache)).toEqual([]);
  });
});

describe('the cache folder, where another local user may act', () => {
  /** A cache holding one entry of `value` under `key`, in a folder of the test's own. */
  async function cacheWith(dir: string, value: unknown) {
    const cache = await openLoadCache<unknown>(dir, 1);
    if (cache === undefined) throw new Error('the cache did not open');
    await cache.write(KEY, 'plan', value);
    return cache;
  }
  const KEY = 'a'.repeat(64);

  it('is not a link, not even to a folder of the user’s own: nothing is read or written', async () => {
    const shared = await folder();
    const real = join(shared, 'real');
    await cacheWith(real, 'kept').then((cache) => cache.close());
    await symlink(real, join(shared, 'cache'));
    expect(await openLoadCache(join(shared, 'cache'), 1)).toBeUndefined();
  });

  it('reads from the folder it opened, whatever the path names after a swap', async () => {
    const shared = await folder();
    const path = join(shared, 'cache');
    const cache = await cacheWith(path, 'the user’s own');
    // Another user's folder holding an entry of the same name, swapped in under the path.
    const evil = join(shared, 'evil');
    await cacheWith(evil, 'PWNED').then((other) => other.close());
    await rename(path, join(shared, 'decoy'));
    await symlink(evil, path);
    try {
      expect((await cache.read(KEY))?.loaded).toBe('the user’s own');
    } finally {
      await cache.close();
    }
  });

  it('reads no entry with a second name (a hard link from elsewhere)', async () => {
    const dir = join(await folder(), 'cache');
    const cache = await cacheWith(dir, 'linked');
    try {
      const [entry] = await readdir(dir);
      await link(join(dir, entry ?? ''), join(await folder(), 'elsewhere'));
      expect(await cache.read(KEY)).toBeUndefined();
    } finally {
      await cache.close();
    }
  });

  const root = process.getuid?.() === 0;
  // Giving a file to another user takes root; elsewhere the checks above stand in for it.
  it.skipIf(!root)(
    'reads no entry, and uses no folder, that belongs to another user (needs root)',
    async () => {
      const NOBODY = 65534;
      const dir = join(await folder(), 'cache');
      const cache = await cacheWith(dir, 'given away');
      try {
        const [entry] = await readdir(dir);
        await chown(join(dir, entry ?? ''), NOBODY, NOBODY);
        expect(await cache.read(KEY)).toBeUndefined();
      } finally {
        await cache.close();
      }
      const theirs = join(await folder(), 'theirs');
      await mkdir(theirs, { mode: 0o700 });
      await chown(theirs, NOBODY, NOBODY);
      expect(await openLoadCache(theirs, 1)).toBeUndefined();
    },
  );
});

describe('two real users, one swapping a link in a shared folder', () => {
  const root = process.getuid?.() === 0;
  // Acting as another user takes root; elsewhere the swap above, in one process, stands in.
  it.skipIf(!root)(
    'nothing of the other user’s is ever served, however the link is swapped (needs root)',
    async () => {
      const NOBODY = 65534;
      // As /tmp is: anyone may write, the sticky bit keeps each one's names. Outside the test
      // run's own folder, which is the runner's alone.
      const shared = await mkdtemp(join(dirname(tmpdir()), 'stockmock-shared-'));
      try {
        await chmod(shared, 0o1777);
        const text = fixtureText(200, 7);
        const victim = join(shared, 'products.yaml');
        await writeFile(victim, text);
        const loadOf = async (fixture: string, dir: string) => {
          const job: LoadJob = {
            sources: [['default', fixture]],
            options: {},
            cache: { dir, minBytes: 1 },
          };
          const { outcome } = await runLoadJob(job, Promise.resolve(PLAN));
          if (!outcome.ok) throw new Error(JSON.stringify(outcome.issues));
          return outcome.scenarios[0]?.[1];
        };
        // What the victim builds, and the entry the other user builds from their own names and
        // plants under the victim's key: both reproducible by anyone with the same data.
        const own = join(await folder(), 'cache');
        const expected = await loadOf(victim, own);
        const [key] = await readdir(own);
        const theirs = join(await folder(), 'theirs.yaml');
        await writeFile(theirs, text.replaceAll('"name": "', '"name": "PWNED '));
        const built = join(await folder(), 'cache');
        await loadOf(theirs, built);
        const [entry] = await readdir(built);
        await writeFile(join(shared, 'planted'), await readFile(join(built, entry ?? '')));
        await chmod(join(shared, 'planted'), 0o644);
        await mkdir(join(shared, 'decoy'), { mode: 0o700 });
        const swapping = spawn(
          'sh',
          [
            '-c',
            `mkdir evil && cp planted evil/${key ?? ''} && chmod 755 evil && ` +
              'end=$(($(date +%s) + 2)); while [ "$(date +%s)" -lt "$end" ]; do ' +
              'ln -sfn decoy cache; ln -sfn evil cache; done',
          ],
          { cwd: shared, uid: NOBODY, gid: NOBODY, stdio: 'ignore' },
        );
        const swapped = { ended: false };
        swapping.on('exit', () => (swapped.ended = true));
        // The link is there before the victim's first start, as an attacker would have it.
        while (!(await lstat(join(shared, 'cache')).catch(() => undefined))?.isSymbolicLink()) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect((await lstat(join(shared, 'cache'))).uid).toBe(NOBODY);
        let loads = 0;
        while (!swapped.ended) {
          expect(await loadOf(victim, join(shared, 'cache'))).toStrictEqual(expected);
          loads += 1;
        }
        expect(loads).toBeGreaterThan(0);
      } finally {
        await rm(shared, { recursive: true, force: true });
      }
    },
  );
});
