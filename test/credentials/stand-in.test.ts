/**
 * stockmock serving the venues example (every kind of credential) passes its own checker, at
 * the interface level and the stand-in level, with one token per level for every scheme.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let server: ServeProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stockmock-venues-'));
  await cp(join(root, 'examples/venues'), dir, { recursive: true });
  // A token per level taken by every scheme; basic's is user:password.
  await writeFile(
    join(dir, 'stockmock.config.yaml'),
    'spec: openapi.yaml\nfixtures: venues.yaml\ntokens:\n  - { token: "pat:public-pass", level: public }\n  - { token: "sam:staff-pass", level: staff }\n',
  );
  server = await spawnServe(['--config', join(dir, 'stockmock.config.yaml')]);
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

function contract(level: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [
      'bin/stockmock.js',
      'contract',
      server.url,
      '--spec',
      join(dir, 'openapi.yaml'),
      '--level',
      level,
      '--token',
      'public=pat:public-pass',
      '--token',
      'staff=sam:staff-pass',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      resolve({ code, output });
    });
  });
}

describe('stockmock serving the venues example', () => {
  it.each(['interface', 'stand-in'])(
    'passes contract --level %s',
    { timeout: 60_000 },
    async (level) => {
      const result = await contract(level);
      expect(result.output).toMatch(/\d+ passed, 0 failed/);
      expect(result.code).toBe(0);
    },
  );
});
