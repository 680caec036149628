/**
 * The package as a user installs it: `npm pack`, then `npm install` of the tarball into a new
 * project, on the lowest Node.js the package declares (22) and on 24, with npm itself running on
 * that Node (that is where npm judges `engines`). There, the README's vitest example runs
 * against the installed package, and `npx stockmock` answers. Nothing may print EBADENGINE.
 * The README's jest example runs too, on Node 24.
 *
 * Dependencies come from npm's cache where it has them (`--prefer-offline`); the Node 22 binary
 * is the registry's `node` package, as a project would pin it.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'];

let work: string;
let tarball: string;
let npmCli: string;
let vitestVersion: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'stockmock-package-'));
  npmCli = process.env['npm_execpath'] ?? (await globalNpmCli());
  // dist is built by `pretest`; packing must not build it again.
  const { stdout } = await run(
    process.execPath,
    [npmCli, 'pack', '--ignore-scripts', '--json', '--pack-destination', work],
    { cwd: root },
  );
  const [packed] = JSON.parse(stdout) as [{ filename: string }];
  tarball = join(work, packed.filename);
  const ownVitest = JSON.parse(
    await readFile(join(root, 'node_modules/vitest/package.json'), 'utf8'),
  ) as { version: string };
  vitestVersion = ownVitest.version;
}, 120_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('what the package holds', () => {
  it('every source map carries the sources it names, since src/ is not shipped', async () => {
    const unpacked = join(work, 'unpacked');
    await mkdir(unpacked);
    await run('tar', ['-xzf', tarball, '-C', unpacked]);
    const dist = join(unpacked, 'package/dist');
    const maps = (await readdir(dist, { recursive: true })).filter((file) =>
      file.endsWith('.js.map'),
    );
    expect(maps.length).toBeGreaterThan(50);
    for (const file of maps) {
      const map = JSON.parse(await readFile(join(dist, file), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      expect(map.sourcesContent?.length, file).toBe(map.sources.length);
      expect(
        map.sourcesContent?.every((text) => typeof text === 'string' && text.length > 0),
        file,
      ).toBe(true);
    }
    await expect(readdir(join(unpacked, 'package/src'))).rejects.toThrow();
  });
});

describe.each([
  { node: '22', binary: () => installNode('22') },
  { node: '24', binary: async () => process.execPath },
])('the packed package on Node.js $node', ({ node, binary }) => {
  it('installs quietly, runs the README vitest example and answers npx stockmock', async () => {
    const nodeBinary = await binary();
    expect((await run(nodeBinary, ['--version'])).stdout).toMatch(new RegExp(`^v${node}\\.`));
    const project = await clientProject('vitest');
    // npm and whatever it starts run on the Node under test.
    const env = { ...process.env, PATH: `${dirname(nodeBinary)}:${process.env['PATH'] ?? ''}` };
    const install = await run(
      nodeBinary,
      [npmCli, 'install', tarball, `vitest@${vitestVersion}`, ...INSTALL_FLAGS],
      { cwd: project, env },
    );
    const installed = `${install.stdout}${install.stderr}`;
    expect(installed).not.toContain('EBADENGINE');
    // Nor is the package listed among those with install scripts to approve.
    expect(installed).not.toMatch(/stockmock@[^\n]*(prepare|install)/);

    const suite = await run(nodeBinary, ['node_modules/vitest/vitest.mjs', 'run'], {
      cwd: project,
      env,
    });
    expect(suite.stdout).toContain('1 passed');

    const npx = await run(nodeBinary, [npmCli, 'exec', '--', 'stockmock', '--help'], {
      cwd: project,
      env,
    });
    expect(npx.stdout).toContain('stockmock serve');
    expect(npx.stderr).not.toContain('EBADENGINE');
  }, 300_000);
});

describe('the packed package under jest', () => {
  it('runs the README jest example (ESM, on Node.js 24)', async () => {
    const project = await clientProject('jest');
    await run(process.execPath, [npmCli, 'install', tarball, 'jest@30', ...INSTALL_FLAGS], {
      cwd: project,
    });
    const suite = await run(
      process.execPath,
      ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js'],
      { cwd: project },
    );
    // jest reports on standard error.
    expect(suite.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
  }, 300_000);
});

describe('the clone itself', () => {
  it('installs on an older Node (npm on 20) without engine warnings about its own toolchain', async () => {
    // The scripts run on the `node` devDependency; npm's warnings about the Node it runs on
    // say nothing about what runs (.npmrc).
    const node20 = await installNode('20');
    const { stdout, stderr } = await run(
      node20,
      [
        npmCli,
        'install',
        '--dry-run',
        '--ignore-scripts',
        ...INSTALL_FLAGS.filter((flag) => !flag.startsWith('--loglevel')),
      ],
      { cwd: root },
    );
    expect(`${stdout}${stderr}`).not.toContain('EBADENGINE');
  }, 300_000);
});

/** A new client project holding one of the README's examples, nothing installed yet. */
async function clientProject(runner: 'vitest' | 'jest'): Promise<string> {
  const project = await mkdtemp(join(work, `project-${runner}-`));
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'client-suite', private: true, type: 'module' }),
  );
  await copyFile(
    join(root, `examples/${runner}/stock-client.test.js`),
    join(project, 'stock-client.test.js'),
  );
  return project;
}

/** The registry's Node.js binary of a major version, installed into a folder of its own. */
async function installNode(major: string): Promise<string> {
  const folder = await mkdtemp(join(work, `node-${major}-`));
  await run(process.execPath, [npmCli, 'install', `node@${major}`, ...INSTALL_FLAGS], {
    cwd: folder,
  });
  return join(folder, 'node_modules/.bin/node');
}

async function globalNpmCli(): Promise<string> {
  const { stdout } = await run('npm', ['root', '--global']);
  return join(stdout.trim(), 'npm/bin/npm-cli.js');
}
