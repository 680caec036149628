/**
 * `stockmock record` against services that answer badly (test/record/hostile-services.ts, written
 * without reading the recorder): one clear line per problem with its request, no fixture unless
 * the reading was consistent (or --allow-partial), exit 2 for a refused token or a service that
 * does not answer, Retry-After honoured, and no request off the service's origin.
 */
import { access, mkdtemp, readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runMain } from '../../src/cli/main.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { startHostile, type Fault, type HostileService } from './hostile-services.ts';

interface Recorded {
  readonly status: number;
  readonly err: string;
  readonly out: string;
  /** The fixture's records by collection, or undefined where none was written. */
  readonly fixture: Record<string, Record<string, unknown>[]> | undefined;
  readonly progress: readonly string[];
}

async function record(
  service: HostileService,
  extra: readonly string[] = [],
  levels: readonly ('status' | 'quantity')[] = ['status', 'quantity'],
): Promise<Recorded> {
  const dir = await mkdtemp(join(tmpdir(), 'hostile-'));
  const progress: string[] = [];
  const io = Object.assign(memoryIo(dir), {
    progress: (text: string) => {
      progress.push(text);
    },
  });
  const tokens = levels.flatMap((level) => ['--token', `${level}=${service.tokens[level]}`]);
  const status = await runMain(
    ['record', service.url, ...tokens, '--rate', '0', '--out', 'out.yaml', ...extra],
    io,
  );
  const file = join(dir, 'out.yaml');
  const written = await access(file).then(
    () => true,
    () => false,
  );
  const fixture = written
    ? (parse(await readFile(file, 'utf8')) as Record<string, Record<string, unknown>[]>)
    : undefined;
  for (const text of [io.err, io.out, written ? await readFile(file, 'utf8') : '']) {
    expect(text).not.toContain(service.tokens.status);
    expect(text).not.toContain(service.tokens.quantity);
  }
  return { status, err: io.err, out: io.out, fixture, progress };
}

async function withService<T>(
  fault: Fault,
  run: (service: HostileService) => Promise<T>,
  products?: number,
): Promise<T> {
  const service = await startHostile(fault, products === undefined ? {} : { products });
  try {
    return await run(service);
  } finally {
    await service.close();
  }
}

/** The problem lines of a run: each names its request, less the token. */
const problemLines = (err: string) => err.split('\n').filter((line) => /^record: GET /.test(line));

describe('record against services that answer badly', () => {
  it('records a correct service whole, with a progress line that ends cleared', async () => {
    await withService('none', async (service) => {
      const run = await record(service);
      expect(run.status).toBe(0);
      expect(run.fixture?.['products']?.map((product) => product['id'])).toEqual(
        Array.from({ length: 12 }, (_, index) => index + 1),
      );
      // The catalogue's rules: 5 is `incoming` at quantity 0, which contradicts its quantity.
      const five = run.fixture?.['products']?.find((product) => product['id'] === 5);
      expect(five).toMatchObject({ quantity: 0, status: 'incoming', category: 'chairs' });
      const one = run.fixture?.['products']?.find((product) => product['id'] === 1);
      expect(one).toEqual({ id: 1, name: 'Oak table 1', quantity: 8, category: 'tables' });
      expect(run.progress.length).toBeGreaterThan(0);
      expect(run.progress.at(-1)).toBe('');
    });
  });

  it.each([
    [
      'invalid-json-page',
      250,
      /GET http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?limit=100&page=2 .*not a JSON object/,
    ],
    [
      'next-loops',
      250,
      /GET http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?limit=100&page=1 \(quantity token\): links\.next leads back to a page already visited: http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?limit=100&page=2/,
    ],
    [
      'duplicate-across-pages',
      250,
      /GET http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?limit=100&page=2 .*: product_id 100 came again in one walk of the list \(1 time in all\)/,
    ],
    [
      'missing-key',
      12,
      /GET http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?limit=100 \((quantity|status) token\): 1 items have no product_id/,
    ],
    ['levels-disagree', 12, /status of 1 is "available" here but "incoming" in an earlier read/],
    [
      'level-lacks-item',
      12,
      /GET \/v1\/stock at the level status lacks 1 records the fullest level listed \(first: 5\)/,
    ],
    [
      'next-off-origin',
      250,
      /links\.next leads off the target's origin, so it was not followed: http:\/\/127\.0\.0\.2/,
    ],
  ] as const)('%s: one line naming the request, and no fixture', async (fault, products, line) => {
    await withService(
      fault,
      async (service) => {
        const run = await record(service);
        expect(run.err).toMatch(line);
        expect(run.err).toMatch(/no fixture written/);
        // A line per problem, not per item it touched.
        expect(problemLines(run.err).length).toBeLessThanOrEqual(4);
        expect(run.status).toBe(1);
        expect(run.fixture).toBeUndefined();
        expect(service.offOriginRequests).toEqual([]);
      },
      products,
    );
  });

  it('--allow-partial writes what was read, with a warning', async () => {
    await withService(
      'invalid-json-page',
      async (service) => {
        const run = await record(service, ['--allow-partial']);
        expect(run.status).toBe(0);
        expect(run.err).toMatch(/warning: the fixture holds what was read/);
        // Page 1 of the stock list at each level, and the whole product list.
        expect(run.fixture?.['products']).toHaveLength(250);
        expect(problemLines(run.err).length).toBeGreaterThan(0);
      },
      250,
    );
  });

  it.each([
    ['unauthorized-quantity', 401, 'quantity'],
    ['forbidden', 403, 'quantity'],
  ] as const)('%s: stops at once with one line and exit 2', async (fault, code, level) => {
    await withService(fault, async (service) => {
      const run = await record(service);
      expect(run.status).toBe(2);
      expect(run.err.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^record: the service answered ${String(code)} to the ${level} token at http://`,
          ),
        ),
      ]);
      expect(run.fixture).toBeUndefined();
    });
  });

  it('honours Retry-After on a 429, then goes on', async () => {
    await withService('rate-limited-once', async (service) => {
      const run = await record(service);
      expect(run.status).toBe(0);
      expect(run.fixture?.['products']).toHaveLength(12);
      const [first, second] = service.requests;
      expect(second).toBe(first);
    });
  });

  it('--max-items stops the walk with a warning naming where, and writes what it holds', async () => {
    await withService(
      'none',
      async (service) => {
        const run = await record(service, ['--max-items', '150']);
        expect(run.status).toBe(0);
        expect(run.err).toMatch(
          /warning: stopped at --max-items 150: the last page read was http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?limit=100&page=2/,
        );
        expect(run.fixture?.['products']).toHaveLength(150);
      },
      250,
    );
  });

  it('a service that does not answer: one line, exit 2', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => {
          resolve(free);
        });
      });
    });
    const dir = await mkdtemp(join(tmpdir(), 'hostile-'));
    const io = memoryIo(dir);
    const status = await runMain(
      ['record', `http://127.0.0.1:${String(port)}`, '--token', 'status=x', '--rate', '0'],
      io,
    );
    expect(status).toBe(2);
    expect(io.err.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^record: http:\/\/127\.0\.0\.1:\d+\/v1\/.*: no answer: connection failed \(ECONNREFUSED/,
      ),
    ]);
  });

  it('a list whose next never ends stops, bounded by --max-items', async () => {
    // Written here, not in hostile-services.ts: every page repeats the first one's item, and
    // its next names the page after it, forever.
    const requests: string[] = [];
    const server = createHttpServer((request, response) => {
      requests.push(request.url ?? '');
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const page = Number(url.searchParams.get('page') ?? '1');
      const origin = `http://127.0.0.1:${String((server.address() as { port: number }).port)}`;
      const data =
        url.pathname === '/v1/stock'
          ? [{ product_id: 1, status: 'available' }]
          : [{ id: 1, name: 'Oak table' }];
      const link = (n: number) => `${origin}${url.pathname}?limit=100&page=${String(n)}`;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          data,
          links: {
            first: link(1),
            last: link(1),
            prev: page === 1 ? null : link(page - 1),
            next: url.pathname === '/v1/stock' ? link(page + 1) : null,
          },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const dir = await mkdtemp(join(tmpdir(), 'hostile-'));
      const io = memoryIo(dir);
      const status = await runMain(
        [
          'record',
          `http://127.0.0.1:${String(port)}`,
          '--token',
          'status=s',
          '--rate',
          '0',
          '--max-items',
          '20',
        ],
        io,
      );
      expect(status).toBe(1);
      expect(io.err).toMatch(
        /GET http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?limit=100&page=21 \(status token\): links\.next did not end after 21 pages/,
      );
      expect(io.err).toMatch(/product_id 1 came again in one walk of the list \(20 times in all\)/);
      // At most --max-items + 1 pages of the endless list, and the product list's one.
      expect(requests.filter((path) => path.startsWith('/v1/stock'))).toHaveLength(21);
    } finally {
      server.close();
    }
  }, 120_000);
});
