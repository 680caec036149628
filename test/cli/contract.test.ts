import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { runMain } from '../../src/cli/main.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { listenLive, type LiveServer } from '../helpers/live-server.ts';
import { buildTestApp, QUANTITY_TOKEN, STATUS_TOKEN } from '../helpers/test-app.ts';

let server: LiveServer;
beforeAll(async () => {
  server = await listenLive((await buildTestApp()).app);
});
afterAll(() => server.close());

describe('stockmock contract', () => {
  it('exits 0 against stockmock, prints the summary line, and writes JUnit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-junit-'));
    const io = memoryIo();
    const code = await runMain(
      [
        'contract',
        server.origin,
        '--token',
        `status=${STATUS_TOKEN}`,
        '--token',
        `quantity=${QUANTITY_TOKEN}`,
        '--seed',
        '3',
        '--runs',
        '20',
        '--junit',
        join(dir, 'report.xml'),
      ],
      io,
    );
    expect(code).toBe(0);
    expect(io.out).toMatch(/\n\d+ passed, 0 failed\n$/);
    expect(io.out).toContain('(seed 3; judged at the interface level)');
    expect(io.out).not.toContain(STATUS_TOKEN);
    expect(await readFile(join(dir, 'report.xml'), 'utf8')).toContain('<testsuites');
  });

  it('exits 2 with one line for a token the target refuses, writes that JUnit error, never prints the token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-junit-'));
    const io = memoryIo();
    expect(
      await runMain(
        [
          'contract',
          server.origin,
          '--token',
          'status=secret-but-wrong',
          '--runs',
          '5',
          '--junit',
          join(dir, 'report.xml'),
        ],
        io,
      ),
    ).toBe(2);
    expect(io.out).toBe('');
    expect(io.err).toBe(
      `Cannot check ${server.origin}: it refuses the status token (401) on GET /v1/stock.\n`,
    );
    const xml = await readFile(join(dir, 'report.xml'), 'utf8');
    expect(xml).toContain('errors="1"');
    expect(xml).toContain('it refuses the status token (401)');
    expect(io.out + io.err + xml).not.toContain('secret-but-wrong');
  });

  it('checks a service on a port that fetch refuses (WHATWG "bad ports")', async () => {
    // 10080 and 6000 are on fetch's list of bad ports; a real service may still listen there.
    const { app } = await buildTestApp();
    let listening: string | undefined;
    for (const port of [10080, 6000, 6665, 6666]) {
      try {
        listening = await app.listen({ port, host: '127.0.0.1' });
        break;
      } catch {
        // Taken on this machine: the next one.
      }
    }
    if (listening === undefined) throw new Error('no bad port was free to listen on');
    try {
      const io = memoryIo();
      const code = await runMain(
        ['contract', listening, '--token', `status=${STATUS_TOKEN}`, '--runs', '5', '--seed', '1'],
        io,
      );
      expect(io.err).toBe('');
      expect(code).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('shows a progress line on a terminal, and clears it at the end', async () => {
    const lines: string[] = [];
    const io = { ...memoryIo(), progress: (text: string) => lines.push(text) };
    await runMain(
      ['contract', server.origin, '--token', `status=${STATUS_TOKEN}`, '--runs', '5'],
      io,
    );
    expect(lines[0]).toMatch(/^\[1\/\d+\] contract\.saw-real-data$/);
    expect(lines.some((line) => line.includes('generated.stock'))).toBe(true);
    expect(lines.at(-1)).toBe('');
  });

  it('prints JSON with --json', async () => {
    const io = memoryIo();
    await runMain(
      ['contract', server.origin, '--token', `status=${STATUS_TOKEN}`, '--json', '--runs', '5'],
      io,
    );
    expect((JSON.parse(io.out) as { failed: number }).failed).toBe(0);
  });

  it('exits 2 quickly with a clear message when the target is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const io = memoryIo();
    expect(
      await runMain(['contract', `http://127.0.0.1:${String(port)}`, '--token', 'status=x'], io),
    ).toBe(2);
    expect(io.err).toContain('Cannot check');
    expect(io.err).toContain('ECONNREFUSED');
  });

  it('takes tokens for the levels a spec declares, and names the known levels for another', async () => {
    const example = fileURLToPath(new URL('../../examples/warehouses/', import.meta.url));
    const warehouses = await startStockmock({
      config: join(example, 'stockmock.config.yaml'),
      cwd: example,
    });
    try {
      const io = memoryIo();
      const code = await runMain(
        [
          'contract',
          warehouses.url,
          '--spec',
          join(example, 'openapi.yaml'),
          '--token',
          'public=public-demo-token',
          '--token',
          'staff=staff-demo-token',
          '--runs',
          '5',
        ],
        io,
      );
      expect(io.err).toBe('');
      expect(code).toBe(0);
      expect(io.out).toContain('views./v1/warehouses');
      expect(io.out).not.toContain('staff-demo-token');

      const wrong = memoryIo();
      expect(
        await runMain(['contract', warehouses.url, '--token', 'public=public-demo-token'], wrong),
      ).toBe(2);
      expect(wrong.err).toContain(
        'contract: --token takes LEVEL=TOKEN with LEVEL status, quantity, not "public=…"',
      );
    } finally {
      await warehouses.close();
    }
  });

  it('reports a stand-in difference without failing at the interface level, and fails it at --level stand-in', async () => {
    // stockmock itself, deciding one open point otherwise: unknown parameters are ignored.
    const different = await listenLive(
      (await buildTestApp({ config: { compatibility: { unknownQueryParameters: 'ignore' } } })).app,
    );
    try {
      const argv = (level: string) => [
        'contract',
        different.origin,
        '--token',
        `status=${STATUS_TOKEN}`,
        '--runs',
        '10',
        '--level',
        level,
      ];
      const asInterface = memoryIo();
      expect(await runMain(argv('interface'), asInterface)).toBe(0);
      const section = asInterface.out.slice(asInterface.out.indexOf('Differs from the stand-in'));
      expect(section).toContain('~ negative.unknown-parameters-400');
      expect(section).toContain('[PRODUCT.md: unknown query parameters]');
      expect(section).toMatch(/actual: {3}200 \(application\/json/);
      expect(asInterface.out).toMatch(/\n\d+ passed, 0 failed, 6 skipped\n$/);

      const asStandIn = memoryIo();
      expect(await runMain(argv('stand-in'), asStandIn)).toBe(1);
      expect(asStandIn.out).toContain('✗ negative.unknown-parameters-400');
      expect(asStandIn.out).toMatch(/\n\d+ passed, 1 failed, 6 skipped\n$/);
    } finally {
      await different.close();
    }
  });

  it.each([
    [['contract', 'http://127.0.0.1:1', '--token', 'status=x', '--level', 'strict']],
    [['contract']],
    [['contract', 'not-a-url']],
    [['contract', 'http://127.0.0.1:1', '--token', 'admin=x']],
    [['contract', 'http://127.0.0.1:1', '--runs', '0']],
  ])('exits 2 on a usage error: %j', async (argv) => {
    const io = memoryIo();
    expect(await runMain(argv, io)).toBe(2);
  });

  it('--suggest-config prints the block that matches the target, or writes it to a file', async () => {
    // stockmock deciding two open points otherwise stands for a real service here.
    const target = await listenLive(
      (await buildTestApp({ config: { compatibility: { order: 'name', realm: 'shop' } } })).app,
    );
    try {
      const argv = ['contract', target.origin, '--token', `quantity=${QUANTITY_TOKEN}`];
      const printed = memoryIo();
      expect(await runMain([...argv, '--runs', '10', '--suggest-config'], printed)).toBe(0);
      const block = printed.out.slice(printed.out.indexOf('\ncompatibility:'));
      expect(block).toContain('  order: name # seen: items are ordered by name');
      expect(block).toContain('  realm: shop # seen: the bearer realm is "shop"');
      expect(block).toContain(
        "  pastTheEnd: empty # seen: a page past the end is 200 with no items, as stockmock's default",
      );
      const dir = await mkdtemp(join(tmpdir(), 'stockmock-suggest-'));
      const file = join(dir, 'suggested.yaml');
      const written = memoryIo();
      expect(await runMain([...argv, '--runs', '10', '--suggest-config', file], written)).toBe(0);
      expect(written.out).toContain('wrote the suggested compatibility block to');
      // The file is a config stockmock reads as it is.
      const config = await loadConfig({ cwd: dir, env: {}, configFile: file });
      expect(config.compatibility).toMatchObject({ order: 'name', realm: 'shop' });
    } finally {
      await target.close();
    }
  });
});
