/**
 * `stockmock record` then `stockmock serve` with what it wrote: every GET answer of the lists
 * and items, at every level, at page sizes that leave one item, a few or a full last page, with
 * each filter alone and together, equals the recorded service's byte for byte, its origin apart.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { runMain } from '../../src/cli/main.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { INDEPENDENT_SERVERS, REFERENCE } from '../contract/independent/servers.ts';
import { answersOf, keptOf, pagesOf, type Asked, type Served } from './answers.ts';

const DEMO_TOKENS = { status: 'status-demo-token', quantity: 'quantity-demo-token' };
const LEVELS = ['status', 'quantity', 'none'];
const SIZES = [undefined, 1, 3, 7, 100];

/** Records `served` into a folder, and starts stockmock on the fixture and config it wrote. */
async function recordAndServe(served: Served, extra: readonly string[] = []) {
  const dir = await mkdtemp(join(tmpdir(), 'record-'));
  const io = memoryIo(dir);
  const tokens = Object.entries(served.tokens).flatMap(([level, token]) => [
    '--token',
    `${level}=${token}`,
  ]);
  const status = await runMain(
    [
      'record',
      served.url,
      ...tokens,
      '--rate',
      '0',
      '--out',
      'recorded.yaml',
      '--suggest-config',
      ...extra,
    ],
    io,
  );
  return { dir, io, status };
}

/** The stock interface's GETs over a catalogue: its ids and names, read from the service. */
async function stockRequests(served: Served): Promise<Asked[]> {
  const response = await fetch(`${served.url}/v1/products?limit=100`, {
    headers: { authorization: `Bearer ${served.tokens['status'] ?? ''}` },
  });
  const { data } = (await response.json()) as { data: { id: number; name: string }[] };
  const ids = data.map((product) => product.id);
  const paths = [
    ...['/v1/stock', '/v1/products'].flatMap((list) => pagesOf(list, ids.length, SIZES)),
    ...['available', 'out_of_stock', 'on_request', 'incoming', 'bogus'].flatMap((status) =>
      pagesOf(`/v1/stock?status=${status}`, ids.length, [undefined, 1, 7]),
    ),
    ...['oak', 'OAK', 'table', '%C3%A9', 'zzz', '%20'].flatMap((name) => [
      ...pagesOf(`/v1/stock?name=${name}`, ids.length, [undefined, 3]),
      ...pagesOf(`/v1/products?name=${name}`, ids.length, [undefined, 3]),
      `/v1/stock?name=${name}&status=available&limit=2`,
    ]),
    ...[String(ids[0]), String(ids.at(-1)), '999999'].flatMap((id) => [
      `/v1/stock?id=${id}`,
      `/v1/products?id=${id}`,
    ]),
    ...[...ids.map(String), '999999', 'abc'].flatMap((id) => [
      `/v1/stock/${id}`,
      `/v1/products/${id}`,
    ]),
  ];
  return LEVELS.flatMap((level) => paths.map((path) => ({ path, level })));
}

describe('record, then serve what it wrote', () => {
  it('the shipped stand-in: every list, filter, page size and item at every level', async () => {
    const original = await startStockmock();
    const served = { url: original.url, tokens: DEMO_TOKENS };
    try {
      const { dir, io, status } = await recordAndServe(served);
      expect(io.err).toMatch(/100 records/);
      expect(status).toBe(0);
      const fixture = await readFile(join(dir, 'recorded.yaml'), 'utf8');
      const config = await readFile(join(dir, 'recorded.config.yaml'), 'utf8');
      for (const text of [io.out, io.err, fixture, config]) {
        expect(text).not.toContain(DEMO_TOKENS.status);
        expect(text).not.toContain(DEMO_TOKENS.quantity);
      }
      const copy = await startStockmock({ config: join(dir, 'recorded.config.yaml') });
      try {
        const asked = await stockRequests(served);
        expect(asked.length).toBeGreaterThan(1000);
        // The same server code on both sides: every answer, refusals too, byte for byte.
        const expected = await answersOf(served, asked);
        const actual = await answersOf({ url: copy.url, tokens: DEMO_TOKENS }, asked);
        expect(actual).toEqual(expected);
      } finally {
        await copy.close();
      }
    } finally {
      await original.close();
    }
  }, 120_000);
});

/**
 * Correct services written apart from stockmock (test/contract/independent/), each deciding the
 * interface's open points its own way; `--suggest-config` finds the settings that match. Two
 * format their JSON as no setting can (indented; members in another order): their answers are
 * compared as JSON values.
 */
const FORMATTED_APART = new Set([
  'pretty-printed JSON with extra headers',
  'JSON members in another order',
]);

describe('record, then serve what it wrote: the independent servers', () => {
  const servers = [
    REFERENCE,
    ...INDEPENDENT_SERVERS.filter((server) => server.kind === 'different'),
  ];
  it('covers every correct server, the two formatted apart included', () => {
    expect(servers.length).toBeGreaterThanOrEqual(20);
    expect(servers.filter((server) => FORMATTED_APART.has(server.name))).toHaveLength(2);
  });

  it.each(servers.map((server) => [server.name, server] as const))(
    '%s',
    async (name, server) => {
      const running = await server.start();
      try {
        const { dir, io, status } = await recordAndServe(running);
        expect(io.err).not.toMatch(/no fixture written/);
        expect(status).toBe(0);
        const copy = await startStockmock({ config: join(dir, 'recorded.config.yaml') });
        try {
          const asked = await stockRequests(running);
          const asJson = FORMATTED_APART.has(name);
          const expected = (await answersOf(running, asked)).map((one) => keptOf(one, asJson));
          const actual = (await answersOf({ url: copy.url, tokens: DEMO_TOKENS }, asked)).map(
            (one) => keptOf(one, asJson),
          );
          expect(actual).toEqual(expected);
        } finally {
          await copy.close();
        }
      } finally {
        await running.close();
      }
    },
    120_000,
  );
});
