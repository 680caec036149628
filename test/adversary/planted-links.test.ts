/**
 * Finding 4: files the CLI writes must not follow a symbolic link planted at their name. Either
 * the link is replaced by a regular file, or the command refuses with one line and a non-zero
 * exit; the file the link points at keeps its contents.
 */
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';
import { killRunningClis, runCli, stopProcess, type CliResult } from './support.ts';

const STATUS_DEMO = 'status-demo-token';
const QUANTITY_DEMO = 'quantity-demo-token';

let serve: ServeProcess;
let top: string;
beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'adversary-links-'));
  serve = await spawnServe([]);
});
afterAll(async () => {
  await stopProcess(serve.child);
  await rm(top, { recursive: true, force: true });
});
afterEach(() => {
  killRunningClis();
});

interface Planted {
  readonly link: string;
  readonly victim: string;
  readonly contents: string;
}

let count = 0;
/** A work folder, and a victim folder elsewhere holding files with known contents. */
async function folders(): Promise<{ work: string; victims: string }> {
  count += 1;
  const work = join(top, `work-${String(count)}`);
  const victims = join(top, `victims-${String(count)}`);
  await mkdir(work);
  await mkdir(victims);
  return { work, victims };
}

async function plant(work: string, victims: string, name: string): Promise<Planted> {
  const victim = join(victims, `${name}.victim`);
  const contents = `victim of ${name}: must never change\n`;
  await writeFile(victim, contents);
  const link = join(work, name);
  await symlink(victim, link);
  return { link, victim, contents };
}

async function expectUntouched(result: CliResult, planted: readonly Planted[]): Promise<void> {
  const report = `exit ${String(result.code)}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
  for (const { victim, contents } of planted) {
    expect(await readFile(victim, 'utf8'), `${victim} was written\n${report}`).toBe(contents);
  }
  if (result.code === 0) {
    for (const { link } of planted) {
      const stats = await lstat(link);
      expect(stats.isSymbolicLink(), `${link} is still a link\n${report}`).toBe(false);
      expect(stats.isFile(), report).toBe(true);
    }
  } else {
    const lines = result.stderr.trim().split('\n');
    expect(lines, report).toHaveLength(1);
    expect(lines[0], report).not.toBe('');
  }
}

describe('planted symbolic links at the names the CLI writes', () => {
  it(
    'record --suggest-config: rec.config.yaml and rec.openapi.json links',
    { timeout: 90_000 },
    async () => {
      const { work, victims } = await folders();
      const planted = [
        await plant(work, victims, 'rec.config.yaml'),
        await plant(work, victims, 'rec.openapi.json'),
      ];
      const result = await runCli([
        'record',
        serve.url,
        '--token',
        `status=${STATUS_DEMO}`,
        '--token',
        `quantity=${QUANTITY_DEMO}`,
        '--rate',
        '0',
        '--out',
        join(work, 'rec.yaml'),
        '--suggest-config',
        '--spec',
        `${serve.url}/openapi.json`,
      ]);
      await expectUntouched(result, planted);
    },
  );

  it('record --out: a link at the fixture name itself', { timeout: 60_000 }, async () => {
    const { work, victims } = await folders();
    const planted = [await plant(work, victims, 'rec.yaml')];
    const result = await runCli([
      'record',
      serve.url,
      '--token',
      `status=${STATUS_DEMO}`,
      '--token',
      `quantity=${QUANTITY_DEMO}`,
      '--rate',
      '0',
      '--out',
      join(work, 'rec.yaml'),
    ]);
    await expectUntouched(result, planted);
  });

  it('contract --junit: a link at the report name', { timeout: 60_000 }, async () => {
    const { work, victims } = await folders();
    const planted = [await plant(work, victims, 'link.xml')];
    const result = await runCli([
      'contract',
      serve.url,
      '--token',
      `status=${STATUS_DEMO}`,
      '--token',
      `quantity=${QUANTITY_DEMO}`,
      '--runs',
      '5',
      '--seed',
      '1',
      '--junit',
      join(work, 'link.xml'),
    ]);
    await expectUntouched(result, planted);
    if (result.code === 0)
      expect(await readFile(join(work, 'link.xml'), 'utf8')).toContain('<testsuites');
  });

  it('contract --suggest-config FILE: a link at the config name', { timeout: 60_000 }, async () => {
    const { work, victims } = await folders();
    const planted = [await plant(work, victims, 'compat.yaml')];
    const result = await runCli([
      'contract',
      serve.url,
      '--token',
      `status=${STATUS_DEMO}`,
      '--token',
      `quantity=${QUANTITY_DEMO}`,
      '--runs',
      '5',
      '--seed',
      '1',
      '--suggest-config',
      join(work, 'compat.yaml'),
    ]);
    await expectUntouched(result, planted);
  });

  it('fixtures generate --out: a link at the output name', { timeout: 30_000 }, async () => {
    const { work, victims } = await folders();
    const planted = [await plant(work, victims, 'link.yaml')];
    const result = await runCli([
      'fixtures',
      'generate',
      '--count',
      '5',
      '--out',
      join(work, 'link.yaml'),
    ]);
    await expectUntouched(result, planted);
    if (result.code === 0)
      expect(await readFile(join(work, 'link.yaml'), 'utf8')).toContain('products');
  });
});
