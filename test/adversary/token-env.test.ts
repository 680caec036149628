/**
 * Finding 7: a token can be given without the command line, `--token status=env:VAR`, read from
 * the environment; it is accepted by the target, and never appears in any process's argv.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';
import { killRunningClis, runCli, stopProcess } from './support.ts';

const statusToken = `status-${randomBytes(12).toString('hex')}`;
const quantityToken = `quantity-${randomBytes(12).toString('hex')}`;

let serve: ServeProcess;
beforeAll(async () => {
  serve = await spawnServe([], undefined, {
    STOCKMOCK_TOKENS: `status=${statusToken},quantity=${quantityToken}`,
  });
});
afterAll(() => stopProcess(serve.child));
afterEach(() => {
  killRunningClis();
});

/** The command lines of `pid` and of every process below it, read from /proc. */
async function commandLines(pid: number): Promise<string[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [child, parent] of parents) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  const lines: string[] = [];
  for (const member of tree) {
    try {
      lines.push((await readFile(`/proc/${String(member)}/cmdline`, 'utf8')).replaceAll('\0', ' '));
    } catch {
      // gone meanwhile
    }
  }
  return lines;
}

describe('contract --token LEVEL=env:VAR', () => {
  it(
    'reads the tokens from the environment, the target accepts them, argv never holds them',
    { timeout: 60_000 },
    async () => {
      // The server itself takes the tokens (STOCKMOCK_TOKENS), asked directly.
      const direct = await fetch(`${serve.url}/v1/stock?limit=1`, {
        headers: { authorization: `Bearer ${statusToken}` },
      });
      expect(direct.status).toBe(200);
      const seen: string[] = [];
      let done = false;
      let watcher: Promise<void> = Promise.resolve();
      const result = await runCli(
        [
          'contract',
          serve.url,
          '--token',
          'status=env:ADVERSARY_STATUS_TOKEN',
          '--token',
          'quantity=env:ADVERSARY_QUANTITY_TOKEN',
          '--runs',
          '5',
          '--seed',
          '1',
        ],
        {
          env: { ADVERSARY_STATUS_TOKEN: statusToken, ADVERSARY_QUANTITY_TOKEN: quantityToken },
          onSpawn: (child) => {
            const pid = child.pid ?? 0;
            watcher = (async () => {
              while (!done) {
                seen.push(...(await commandLines(pid)));
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
            })();
          },
        },
      );
      done = true;
      await watcher;
      const report = `exit ${String(result.code)}\nstdout:\n${result.stdout.slice(-3000)}\nstderr:\n${result.stderr}`;
      expect(result.code, report).toBe(0);
      expect(result.stdout, report).toMatch(/\d+ passed, 0 failed/);
      expect(
        seen.some((line) => line.includes('contract')),
        'argv was never read',
      ).toBe(true);
      for (const line of seen) {
        expect(line).not.toContain(statusToken);
        expect(line).not.toContain(quantityToken);
      }
      expect(result.stdout + result.stderr).not.toContain(statusToken);
      expect(result.stdout + result.stderr).not.toContain(quantityToken);
    },
  );

  it(
    'a variable that is not set is refused before any request (exit 2), not sent as a token',
    { timeout: 30_000 },
    async () => {
      const result = await runCli(
        ['contract', serve.url, '--token', 'status=env:ADVERSARY_UNSET_TOKEN_VAR', '--runs', '5'],
        { env: {} },
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('ADVERSARY_UNSET_TOKEN_VAR');
    },
  );
});
