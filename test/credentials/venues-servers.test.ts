/**
 * The contract checker against services of the venues example, one per kind of credential the
 * spec declares: two correct services (which decide differently where the spec is open) pass,
 * and each service that gets one thing about credentials wrong fails, at the default interface
 * level. The services are written from the spec and the docs alone (./venues-servers.ts).
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { BROKEN_VARIANTS, root, startVenuesServer, type VariantName } from './venues-servers.ts';

interface CliResult {
  readonly code: number | null;
  readonly output: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** Runs `bin/stockmock.js contract URL` with the venues spec and a token per level. */
function contract(url: string): Promise<CliResult> {
  const child = spawn(
    process.execPath,
    [
      'bin/stockmock.js',
      'contract',
      url,
      '--spec',
      'examples/venues/openapi.yaml',
      '--token',
      'public=pat:public-pass',
      '--token',
      'staff=sam:staff-pass',
      '--seed',
      '1',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, output });
    });
  });
}

async function check(variant: VariantName | 'correct'): Promise<CliResult> {
  const server = await startVenuesServer(variant);
  cleanups.push(() => server.close());
  return contract(server.url);
}

/** The lines that name a failed check, for the assertion message. */
function failures(output: string): string {
  return output
    .split('\n')
    .filter((line) => /^\s*✗/.test(line) || /\bfailed\b/.test(line))
    .join('\n');
}

describe('stockmock contract against the venues services', () => {
  it.each(['correct', 'correct-alt'] as const)(
    '%s: passes (exit 0)',
    { timeout: 60_000 },
    async (variant) => {
      const result = await check(variant);
      expect(result.code, `${failures(result.output)}\n\n${result.output}`).toBe(0);
    },
  );

  it.each(BROKEN_VARIANTS)('%s: fails (exit 1)', { timeout: 60_000 }, async (variant) => {
    const result = await check(variant);
    expect(result.code, result.output).toBe(1);
  });
});
