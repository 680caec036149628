/**
 * The watch behind `serve --watch`: a change seen just before the watched files are replaced
 * (a reload that ends as the next save lands) is still called back.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchFiles } from '../../src/scenarios/watch-files.ts';

describe('watchFiles', () => {
  it('calls back a change seen just before its files are replaced, and watches the new ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-watch-'));
    const [first, second] = [join(dir, 'first.yaml'), join(dir, 'second.yaml')];
    await writeFile(first, 'a: 1\n');
    await writeFile(second, 'b: 1\n');
    const changed: string[] = [];
    const watch = watchFiles([first], (file) => changed.push(file), 50);
    try {
      const seen = (count: number) =>
        expect.poll(() => changed.length, { timeout: 5000 }).toBeGreaterThanOrEqual(count);
      await writeFile(first, 'a: 2\n');
      // The event is seen within the debounce; the set changes before it is called back.
      await new Promise((resolve) => setTimeout(resolve, 20));
      watch.update([first, second]);
      await seen(1);
      expect(changed[0]).toBe(first);
      await writeFile(second, 'b: 2\n');
      await seen(2);
      expect(changed.at(-1)).toBe(second);
    } finally {
      watch.close();
    }
  });
});
