/**
 * @module vitest globalSetup: every temporary folder of one test run lives under one folder,
 * removed when the run ends. Tests make theirs with `mkdtemp(join(tmpdir(), …))`, and the
 * servers and CLIs they spawn inherit TMPDIR, so no test has to remember to clean up.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default async function setup(): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), 'stockmock-tests-'));
  process.env.TMPDIR = root;
  return () => rm(root, { recursive: true, force: true });
}
