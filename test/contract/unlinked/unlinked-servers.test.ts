/**
 * The checker on a list paged by number alone (`{items, meta: {total}}`, no links): it passes
 * the reference and the servers that decide differently within the interface, and fails each
 * server that breaks one paging or listing rule, at the interface level.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type LoadedSpec } from '../../../src/spec/load-spec.ts';
import { checkAtStandIn, failedAt } from '../../helpers/stand-in-check.ts';
import { BROKEN, DIFFERENT, REFERENCE, type UnlinkedServer } from './unlinked-servers.ts';
import { unlinkedSpec } from './unlinked-spec.ts';

const TOKENS = { support: 'support-demo-token', partner: 'partner-demo-token' };

let dir: string;
let spec: LoadedSpec;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stockmock-unlinked-servers-'));
  spec = await loadSpec(await unlinkedSpec(dir));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The ids of the interface checks the server fails. */
async function failures(server: UnlinkedServer): Promise<string[]> {
  const running = await server.start();
  try {
    const report = await checkAtStandIn(running.url, TOKENS, spec, { seed: 5, runs: 10 });
    return failedAt(report, 'interface');
  } finally {
    await running.close();
  }
}

describe('the checker on a list paged by number, without links', () => {
  it.each([REFERENCE, ...DIFFERENT])(
    'passes a correct server at the interface level: $name',
    async (server) => {
      expect(await failures(server)).toStrictEqual([]);
    },
    120_000,
  );

  it.each(BROKEN)(
    'fails a broken server at the interface level: $name',
    async (server) => {
      expect(await failures(server)).not.toStrictEqual([]);
    },
    120_000,
  );
});
