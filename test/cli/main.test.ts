import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../src/cli/main.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { spawnServe } from '../helpers/spawn-serve.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

describe('stockmock validate', () => {
  it('passes the shipped spec, config and fixtures', async () => {
    const io = memoryIo(root);
    expect(await runMain(['validate'], io)).toBe(0);
    expect(io.out).toContain('All files are valid.');
    expect(io.out).toContain('100 products');
  });

  it.each([
    ['duplicate-id.yaml', 'duplicate-id.yaml:4:9 products[1].id: duplicate id 1'],
    ['negative-quantity.yaml', 'negative-quantity.yaml:4:15 products[0].quantity: must be >= 0'],
  ])('exits 1 on %s with file, line and field', async (name, message) => {
    const io = memoryIo(root);
    expect(await runMain(['validate', '--fixtures', fixture(name)], io)).toBe(1);
    expect(io.err).toContain(message);
  });

  it('refuses what serve refuses: a token level no view of the spec declares, at its setting', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-validate-'));
    const config = join(folder, 'stockmock.config.yaml');
    await writeFile(config, 'tokens:\n  - token: abcdef\n    level: admin\n');
    const io = memoryIo(folder);
    expect(await runMain(['validate'], io)).toBe(1);
    expect(io.err).toContain(
      `${config}:3:12 tokens[0].level: no view of the spec is declared for the level admin (declared: status, quantity)`,
    );
    const serve = memoryIo(folder);
    expect(
      await runMain(['serve', '--port', '0'], serve).catch((error: unknown) => error),
    ).toSatisfy((outcome) => outcome !== 0);
  });

  it('counts one bad spec as one invalid file, and says its fixture was not checked', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-validate-'));
    const spec = join(folder, 'openapi.yaml');
    await writeFile(spec, 'openapi: 3.1.0\ninfo: { title: broken }\npaths: {}\n');
    const io = memoryIo(folder);
    const args = ['validate', '--spec', spec, '--fixtures', fixture('duplicate-id.yaml')];
    expect(await runMain(args, io)).toBe(1);
    expect(io.out).toContain('1 file is invalid.');
    expect(io.out).toContain('skip ');
    expect(io.out).toContain('not checked, the spec is invalid');
    expect(io.err.split('\n').filter((line) => line.startsWith('FAIL'))).toHaveLength(1);
  });

  it('takes the demo token of each level of an own spec, as serve does', async () => {
    const orders = join(root, 'examples/orders/');
    const io = memoryIo(await mkdtemp(join(tmpdir(), 'stockmock-validate-')));
    const args = ['--spec', `${orders}openapi.yaml`, '--fixtures', `${orders}orders.yaml`];
    expect(await runMain(['validate', ...args], io)).toBe(0);
  });
});

describe('stockmock validate on statuses that disagree with the quantity', () => {
  it('accepts them (an explicit status wins) and warns of each with file, line and field', async () => {
    const io = memoryIo(root);
    expect(await runMain(['validate', '--fixtures', fixture('reserved-stock.yaml')], io)).toBe(0);
    const warnings = io.err.split('\n').filter((line) => line.startsWith('warn '));
    expect(warnings).toEqual([
      expect.stringMatching(
        /reserved-stock\.yaml:2:\d+ products\[0\]\.status: is out_of_stock, where quantity gives available: served as written/,
      ),
      expect.stringMatching(
        /reserved-stock\.yaml:5:\d+ products\[3\]\.status: is available, where quantity gives on_request/,
      ),
    ]);
  });
});

describe('usage errors exit 2', () => {
  it.each([[['frobnicate']], [['serve', '--no-such-flag']], [['serve', '--port', 'x']], [[]]])(
    '%j',
    async (argv) => {
      const io = memoryIo(root);
      expect(await runMain(argv, io)).toBe(2);
      expect(io.err + io.out).toContain('Usage: stockmock');
    },
  );
});

describe('help', () => {
  it.each([
    [['contract', '--help'], 'stockmock contract <BASE_URL>'],
    [['serve', '-h'], 'stockmock serve'],
    [['validate', '--help'], 'stockmock validate'],
    [['fixtures', 'generate', '--help'], 'stockmock fixtures generate'],
    [['contract', 'http://x.test', '--token', 'status=abcdefgh', '--help'], '--level interface'],
  ])("%j prints that command's usage and exits 0", async (argv, text) => {
    const io = memoryIo(root);
    expect(await runMain(argv, io)).toBe(0);
    expect(io.out).toContain(text);
    expect(io.err).toBe('');
  });

  it.each([['--version'], ['-v'], ['version']])(
    '%j prints the package version',
    async (...argv) => {
      const io = memoryIo(root);
      const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
        version: string;
      };
      expect(await runMain(argv, io)).toBe(0);
      expect(io.out).toBe(`stockmock ${version}\n`);
    },
  );

  it('serve --help says what each flag does, its default and its environment variable', async () => {
    const io = memoryIo(root);
    expect(await runMain(['serve', '--help'], io)).toBe(0);
    for (const line of [
      /--port N +the port; 0 picks a free one \(default: 4010; STOCKMOCK_PORT or PORT\)/,
      /--log-level LEVEL +.*\(default: info; STOCKMOCK_LOG_LEVEL\)/,
      /--watch +reload when .*\(default: off; STOCKMOCK_WATCH\)/,
      /--config FILE +a config file \(default: .*; STOCKMOCK_CONFIG\)/,
    ]) {
      expect(io.out).toMatch(line);
    }
    const generate = memoryIo(root);
    await runMain(['fixtures', 'generate', '--help'], generate);
    expect(generate.out).toContain('without it, it goes to standard output');
  });

  it("an unknown option is named, with the one meant, not Node's text about positionals", async () => {
    const io = memoryIo(root);
    expect(await runMain(['serve', '--prot', '4000'], io)).toBe(2);
    expect(io.err).toMatch(
      /^serve: unknown option --prot \(did you mean --port\?\); stockmock serve --help lists them\n/,
    );
    expect(io.err).not.toContain('positional');
    const far = memoryIo(root);
    expect(await runMain(['validate', '--zzzzzz'], far)).toBe(2);
    expect(far.err).toMatch(/^validate: unknown option --zzzzzz; stockmock validate --help/);
  });

  it('refuses a fixture past maxFixtureBytes before reading it, and says what raises it', async () => {
    const io = memoryIo(root);
    const code = await runMain(['validate', '--fixtures', join(root, 'fixtures/products.yaml')], {
      ...io,
      env: { ...io.env, STOCKMOCK_MAX_FIXTURE_BYTES: '1000' },
    });
    expect(code).toBe(1);
    expect(io.err).toMatch(
      /FAIL .*products\.yaml is [\d.]+ MB, past the 0\.0 MB stockmock reads \(maxFixtureBytes, or STOCKMOCK_MAX_FIXTURE_BYTES, raises it\)/,
    );
  });

  it('fixtures generate refuses more than a million products unless --max-count raises it', async () => {
    const io = memoryIo(root);
    expect(await runMain(['fixtures', 'generate', '--count', '100000000'], io)).toBe(2);
    expect(io.err).toContain(
      'fixtures generate: --count 100000000 is past the 1000000 records generated at most',
    );
    const raised = memoryIo(root);
    expect(
      await runMain(['fixtures', 'generate', '--count', '2', '--max-count', '2'], raised),
    ).toBe(0);
    expect(raised.out).toContain('"id":2');
  });

  it('a --help after -- is a value, not a request for help', async () => {
    const io = memoryIo(root);
    expect(await runMain(['contract', '--', '--help'], io)).toBe(2);
  });
});

describe('bin/stockmock.js serve (one real process)', () => {
  it('listens on a free port, logs its URL without tokens, serves, and exits 0 on SIGTERM', async () => {
    const server = await spawnServe([]);
    const response = await fetch(`${server.url}/v1/stock/1`, {
      headers: { authorization: 'Bearer quantity-demo-token' },
    });
    expect(response.status).toBe(200);
    await fetch(`${server.url}/v1/stock`, {
      headers: { authorization: 'Bearer a-wrong-secret-token' },
    });
    expect(await server.stop()).toBe(0);
    expect(server.log()).not.toContain('quantity-demo-token');
    expect(server.log()).not.toContain('a-wrong-secret-token');
    // Where the tokens come from, by their levels.
    expect(server.log()).toContain(
      'tokens: the demo tokens (LEVEL-demo-token), at the levels status, quantity (README, \\"Try it\\"); set tokens in the config, or STOCKMOCK_TOKENS, for your own',
    );
  });
});

describe('bin/stockmock.js serve, refused at start', () => {
  it("logs the config's warnings before it refuses the spec", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-refused-'));
    await writeFile(join(dir, 'bad.yaml'), 'openapi: 3.1.0\ninfo: {title: x}\n');
    await writeFile(
      join(dir, 'stockmock.config.yaml'),
      'unknownQueryParameters: ignore\nspec: bad.yaml\n',
    );
    const run = spawnSync(process.execPath, [`${root}bin/stockmock.js`, 'serve', '--port', '0'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, STOCKMOCK_LOG_LEVEL: 'info' },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /stockmock\.config\.yaml:1:\d+ unknownQueryParameters: is deprecated/,
    );
    expect(run.stderr).toMatch(/bad\.yaml/);
  });
});

describe('serve --scenario', () => {
  it('starts on the named scenario', async () => {
    const server = await spawnServe(['--scenario', 'all-out-of-stock']);
    try {
      const response = await fetch(`${server.url}/v1/stock?status=available`, {
        headers: { authorization: 'Bearer status-demo-token' },
      });
      expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
      const all = await fetch(`${server.url}/healthz`);
      expect(((await all.json()) as { products: number }).products).toBe(12);
    } finally {
      await server.stop();
    }
  });
});

describe('stockmock fixtures generate', () => {
  it('writes byte-identical output for the same seed, to stdout', async () => {
    const first = memoryIo(root);
    const second = memoryIo(root);
    expect(await runMain(['fixtures', 'generate', '--count', '50', '--seed', '3'], first)).toBe(0);
    await runMain(['fixtures', 'generate', '--count', '50', '--seed', '3'], second);
    expect(first.out).toBe(second.out);
    expect(first.out.startsWith('products:\n  - {"id":1,"name":')).toBe(true);
  });

  it('shows a progress bar on a terminal', async () => {
    const lines: string[] = [];
    const io = { ...memoryIo(root), progress: (text: string) => lines.push(text) };
    await runMain(['fixtures', 'generate', '--count', '200'], io);
    expect(lines).toContain(`[${'#'.repeat(30)}] 200/200 records`);
    expect(lines.at(-1)).toBe('');
  });

  it('writes a file that validate accepts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-generate-'));
    const out = join(dir, 'big.yaml');
    expect(
      await runMain(['fixtures', 'generate', '--count', '500', '--out', out], memoryIo(root)),
    ).toBe(0);
    const io = memoryIo(root);
    expect(await runMain(['validate', '--fixtures', out], io)).toBe(0);
    expect(io.out).toContain('500 products');
  });

  it.each([
    [['fixtures', 'generate']],
    [['fixtures', 'make', '--count', '1']],
    [['fixtures', 'generate', '--count', 'x']],
  ])('exits 2 on %j', async (argv) => {
    expect(await runMain(argv, memoryIo(root))).toBe(2);
  });
});
