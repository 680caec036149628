/**
 * On a Node.js older than stockmock needs, the command says which version it needs in one line,
 * before anything fails deeper down (Promise.withResolvers in a worker, on Node 20). Run with
 * the machine's own older Node where it has one: npm scripts run on the `node` devDependency.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/stockmock.js', import.meta.url));

/** A node on PATH, outside node_modules, older than 22.19, with its version; else undefined. */
function olderNode(): { path: string; version: string } | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const path = join(dir, 'node');
    if (dir.includes('node_modules') || !existsSync(path)) continue;
    const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().slice(1);
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 19)) return { path, version };
  }
  return undefined;
}

const older = olderNode();

it.skipIf(older === undefined)(
  'an older Node gets one line naming the version needed, and exit 2, as for any usage error (needs a Node older than 22.19 on PATH)',
  () => {
    if (older === undefined) return;
    const run = spawnSync(older.path, [BIN, 'serve', '--port', '0'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `stockmock needs Node.js 22.19 or later; this is Node.js ${older.version}.\n`,
    );
  },
);
