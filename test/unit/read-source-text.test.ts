/** Reading a source file once it has settled, on real files. */
import { appendFile, mkdtemp, open, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/problems/source-error.ts';
import { readSourceText } from '../../src/source/read-source-text.ts';

async function fileWith(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'stockmock-read-')), 'products.yaml');
  await writeFile(file, text);
  return file;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('readSourceText', () => {
  it('reads a file that has not changed for the settle window without waiting for it', async () => {
    const file = await fileWith('products: []\n');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(file, hourAgo, hourAgo);
    // A window of a minute would outlast the test's own time-out if the read waited for it.
    expect(await readSourceText(file, { settleMs: 60_000 })).toBe('products: []\n');
  });

  it('reads a file whose modification time is in the future once it has looked the same for the window', async () => {
    const file = await fileWith('products: []\n');
    // A skewed clock, as on a network share: by its own clock the file never grows quiet.
    const hourAhead = new Date(Date.now() + 3_600_000);
    await utimes(file, hourAhead, hourAhead);
    expect(await readSourceText(file, { settleMs: 200 })).toBe('products: []\n');
  });

  it('waits for a file that a writer is still appending to, and reads it whole', async () => {
    const file = await fileWith('products:\n');
    const writer = (async () => {
      for (let i = 1; i <= 8; i++) {
        await pause(40);
        await appendFile(file, `  - { id: ${String(i)}, name: P${String(i)} }\n`);
      }
    })();
    const text = await readSourceText(file, { settleMs: 250 });
    await writer;
    expect(text.split('\n').filter((line) => line.startsWith('  - '))).toHaveLength(8);
  });

  it('refuses a file that keeps changing, naming it', async () => {
    const file = await fileWith('products:\n');
    const done = new AbortController();
    const writer = (async () => {
      while (!done.signal.aborted) {
        await appendFile(file, '  - { id: 1, name: A }\n');
        await pause(20);
      }
    })();
    try {
      const error = await readSourceText(file, { settleMs: 200, timeoutMs: 400 }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(SourceError);
      const [issue] = (error as SourceError).issues;
      expect(issue?.file).toBe(file);
      expect(issue?.message).toContain('kept changing');
    } finally {
      done.abort();
      await writer;
    }
  });

  it('reads a file renamed into place at once, but not once it is being written in place', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-renamed-'));
    const file = join(dir, 'products.yaml');
    await writeFile(file, 'products: []\n');
    const { ino, size, mtimeMs } = await stat(file);
    const lastRead = { [file]: { ino, size, mtimeMs } };
    const whole = 'products:\n  - { id: 1, name: One }\n  - { id: 2, name: Two }\n';
    await writeFile(join(dir, 'next.yaml'), whole);
    await rename(join(dir, 'next.yaml'), file);
    const options = { settleMs: 60_000, timeoutMs: 300, lastRead };
    expect(await readSourceText(file, options)).toBe(whole);
    // Later (past the file system's clock tick), a writer rewrites it in place and pauses.
    await pause(50);
    const handle = await open(file, 'w');
    try {
      await handle.write('products:\n  - { id: 1, name: One }\n');
      await expect(readSourceText(file, options)).rejects.toThrow(/kept changing/);
    } finally {
      await handle.close();
    }
  });

  it('refuses a missing file with its name, settle window or not', async () => {
    for (const settleMs of [0, 100]) {
      const missing = join(tmpdir(), 'stockmock-no-such-dir', 'gone.yaml');
      const error = await readSourceText(missing, { settleMs }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SourceError);
      expect((error as SourceError).message).toContain(`${missing} cannot be read`);
    }
  });
});
