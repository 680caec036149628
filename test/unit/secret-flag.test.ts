/**
 * A token or key read off the command line: from the environment, a file, or given as is;
 * a missing one is refused in one line that names where it was looked for, never a value.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSecret } from '../../src/cli/secret-flag.ts';
import { UsageError } from '../../src/cli/usage-error.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'secret-flag-'));
  await writeFile(join(dir, 'token'), 's3cret-from-file\n');
  await writeFile(join(dir, 'empty'), '\n');
  await writeFile(join(dir, 'huge'), 'x'.repeat(70_000));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const io = () => ({ cwd: dir, env: { CI_TOKEN: 's3cret-from-env', EMPTY: '' } });

describe('readSecret', () => {
  it.each([
    ['plain-token', 'plain-token'],
    ['env:CI_TOKEN', 's3cret-from-env'],
    ['file:token', 's3cret-from-file'],
    ['pass:env:NOT_A_VARIABLE', 'env:NOT_A_VARIABLE'],
    ['a=b', 'a=b'],
  ])('reads %s', (given, secret) => {
    expect(readSecret(given, '--token status', io())).toBe(secret);
  });

  it.each([
    ['env:MISSING', '--token status: the environment variable MISSING is not set or is empty'],
    ['env:EMPTY', '--token status: the environment variable EMPTY is not set or is empty'],
    ['file:nowhere', 'cannot be read (ENOENT)'],
    ['file:empty', 'is empty'],
    ['file:huge', 'is larger than 65536 bytes'],
  ])('refuses %s in one line', (given, message) => {
    let thrown: unknown;
    try {
      readSecret(given, '--token status', io());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toContain(message);
    expect((thrown as Error).message).not.toContain('\n');
    expect((thrown as Error).message).not.toContain('xxxx');
  });
});
