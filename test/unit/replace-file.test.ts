/**
 * Every file the CLI writes is written beside its place and renamed over it: a link planted at
 * the name is replaced, never written through, and a failed write leaves the old file.
 */
import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFile, replaceFileWithText } from '../../src/util/replace-file.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replace-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replaceFileWithText', () => {
  it('replaces a planted link with a file of its own, leaving what it pointed at', async () => {
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'the victim keeps this');
    const target = join(dir, 'report.xml');
    await symlink(victim, target);
    await replaceFileWithText(target, '<report/>');
    expect(await readFile(victim, 'utf8')).toBe('the victim keeps this');
    expect((await lstat(target)).isSymbolicLink()).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('<report/>');
  });

  it('replaces a link that points at nothing without creating its target', async () => {
    const target = join(dir, 'out.yaml');
    await symlink(join(dir, 'would-be-created'), target);
    await replaceFileWithText(target, 'a: 1\n');
    expect(await readdir(dir)).toEqual(['out.yaml']);
  });
});

describe('replaceFile', () => {
  it('leaves the old file, and no partial one, when the write fails', async () => {
    const target = join(dir, 'fixture.yaml');
    await writeFile(target, 'old: true\n');
    await expect(
      replaceFile(target, async (stream) => {
        stream.write('new: ');
        throw new Error('the service stopped answering');
      }),
    ).rejects.toThrow('the service stopped answering');
    expect(await readFile(target, 'utf8')).toBe('old: true\n');
    expect(await readdir(dir)).toEqual(['fixture.yaml']);
  });
});
