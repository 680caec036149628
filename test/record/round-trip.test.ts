/**
 * `stockmock record` then `stockmock serve` with what it wrote: every GET answer of the lists
 * and items, at every level, at page sizes that leave one item, a few or a full last page, with
 * each filter alone and together, equals the recorded service's byte for byte, its origin apart.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { runMain } from '../../src/cli/main.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { BILLING_REFERENCE } from '../contract/billing/billing-servers.ts';
import { BILLING_VARIANTS } from '../contract/billing/billing-variants.ts';
import { INDEPENDENT_SERVERS, REFERENCE } from '../contract/independent/servers.ts';
import {
  WAREHOUSE_REFERENCE,
  WAREHOUSE_VARIANTS,
} from '../contract/warehouses/warehouse-servers.ts';
import {
  answersOf,
  differing,
  keptOf,
  pagesOf,
  type Asked,
  type Looser,
  type Served,
} from './answers.ts';

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

/**
 * Records a running service, serves what was written, and compares every answer to `asked` of
 * both: the recorded service's tokens on one side, the stand-in's demo tokens on the other.
 */
async function roundTrip(
  running: Served,
  asking: (served: Served) => Promise<Asked[]>,
  options: { spec?: string; demo: Readonly<Record<string, string>>; looser?: Looser },
): Promise<{ dir: string; io: { out: string; err: string } }> {
  const spec = options.spec === undefined ? [] : ['--spec', options.spec];
  const { dir, io, status } = await recordAndServe(running, spec);
  expect(io.err).not.toMatch(/no fixture written/);
  expect(status).toBe(0);
  const copy = await startStockmock({ config: join(dir, 'recorded.config.yaml') });
  try {
    const asked = await asking(running);
    const expected = (await answersOf(running, asked)).map((one) => keptOf(one, options.looser));
    const actual = (await answersOf({ url: copy.url, tokens: options.demo }, asked)).map((one) =>
      keptOf(one, options.looser),
    );
    expect(differing(actual, expected)).toEqual({ count: 0, first: [] });
  } finally {
    await copy.close();
  }
  return { dir, io };
}

/**
 * Correct services written apart from stockmock (test/contract/), each deciding the open points
 * its own way; `--suggest-config` finds the settings that match. Three format their JSON as no
 * setting can (indented; members in another order): their answers are compared as JSON values.
 */
const FORMATTED_APART = new Set([
  'pretty-printed JSON with extra headers',
  'JSON members in another order',
  'extra response headers and pretty JSON',
]);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BILLING = join(ROOT, 'examples/billing');
const BILLING_TOKENS = { support: 'support-demo-token', partner: 'partner-demo-token' };

/** The billing example's GETs: both lists with each filter and sort, and every record by key. */
async function billingRequests(served: Served): Promise<Asked[]> {
  const read = async (path: string): Promise<unknown> => {
    const response = await fetch(`${served.url}${path}`, {
      headers: { authorization: `Bearer ${served.tokens['support'] ?? ''}` },
    });
    return await response.json();
  };
  const invoices = ((await read('/v1/invoices?limit=50')) as { items: { id: string }[] }).items;
  const more = ((await read('/v1/invoices?limit=50&page=2')) as { items: { id: string }[] }).items;
  const customers = (await read('/v1/customers?limit=50')) as { id: string; name: string }[];
  const paths = [
    ...pagesOf('/v1/invoices', 57, [undefined, 1, 7, 50]),
    ...pagesOf('/v1/customers', 12, [undefined, 1, 5, 50]),
    ...['draft', 'open', 'paid', 'void'].flatMap((status) => [
      ...pagesOf(`/v1/invoices?status=${status}`, 57, [undefined, 4]),
      `/v1/invoices?status=${status}&sort=-amount&limit=3`,
    ]),
    ...['amount', '-amount', 'issued_at', '-due_on', 'status,-amount'].flatMap((sort) =>
      pagesOf(`/v1/invoices?sort=${sort}`, 57, [9]),
    ),
    '/v1/invoices?amount_min=100&amount_max=1000&limit=50',
    '/v1/invoices?issued_after=2024-03-01T00:00:00Z&recurring=true',
    '/v1/invoices?due_before=2024-05-01',
    `/v1/invoices?customer_id=${customers[0]?.id ?? ''}`,
    ...['DE', 'NO', 'FR'].map((country) => `/v1/customers?country=${country}`),
    ...['shop', 'CAF%C3%89', 'e%20m', 'zzz'].flatMap((q) =>
      pagesOf(`/v1/customers?q=${q}`, 12, [2]),
    ),
    '/v1/customers?sort=-name&limit=5',
    '/v1/customers?created_after=2024-01-01T00:00:00Z&sort=created_at',
    ...[...invoices, ...more].map((invoice) => `/v1/invoices/${invoice.id}`),
    ...customers.map((customer) => `/v1/customers/${customer.id}`),
    '/v1/invoices/inv_nosuch',
    '/v1/customers/00000000-0000-4000-8000-000000000000',
  ];
  return ['support', 'partner', 'none'].flatMap((level) => paths.map((path) => ({ path, level })));
}

const WAREHOUSE_TOKENS = { public: 'public-demo-token', staff: 'staff-demo-token' };

/** The warehouses example's GETs: its list with each filter, and every record by key. */
async function warehouseRequests(served: Served): Promise<Asked[]> {
  const response = await fetch(`${served.url}/v1/warehouses?limit=100`, {
    headers: { authorization: `Bearer ${served.tokens['staff'] ?? ''}` },
  });
  const { data } = (await response.json()) as { data: { id: number; city: string }[] };
  const paths = [
    ...pagesOf('/v1/warehouses', data.length, [undefined, 1, 4, 100]),
    ...['north', 'south'].map((region) => `/v1/warehouses?region=${region}&limit=3`),
    ...[data[0]?.city ?? '', 'Nowhere'].map(
      (city) => `/v1/warehouses?city=${encodeURIComponent(city)}`,
    ),
    ...['rail', 'RAIL', 'cold%20store', 'zzz'].flatMap((name) =>
      pagesOf(`/v1/warehouses?name=${name}`, data.length, [undefined, 2]),
    ),
    '/v1/warehouses?min_capacity=1000&max_capacity=50000',
    ...data.map((warehouse) => `/v1/warehouses/${String(warehouse.id)}`),
    '/v1/warehouses/999999',
  ];
  return ['public', 'staff', 'none'].flatMap((level) => paths.map((path) => ({ path, level })));
}

/** A correct service written apart from stockmock, as each family's tests start it. */
interface WrittenApart {
  readonly name: string;
  start(): Promise<{ url: string; tokens: object; close(): Promise<void> }>;
}

/**
 * Billing services written apart from stockmock (test/contract/billing/), each correct. Four
 * write their links in forms no setting mirrors (relative with `self`; the Link header split
 * and unquoted; parameters in another order; the default sort written out): their links are
 * compared as a client reads them.
 */
const LINKS_APART: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'Link header relative, with self': {},
  'Link header in several fields, rel unquoted': {},
  'link parameters in another order': {},
  'links write the default sort': { sort: '-issued_at' },
};

/** Each family of correct services written apart, with the spec and requests it is asked. */
const FAMILIES = [
  {
    family: 'the stock interface (test/contract/independent/)',
    servers: [REFERENCE, ...INDEPENDENT_SERVERS.filter((server) => server.kind === 'different')],
    asking: stockRequests,
    spec: undefined,
    demo: DEMO_TOKENS,
  },
  {
    family: 'the billing example (test/contract/billing/)',
    servers: [
      BILLING_REFERENCE,
      ...BILLING_VARIANTS.filter((server) => server.kind === 'different'),
    ],
    asking: billingRequests,
    spec: 'examples/billing/openapi.yaml',
    demo: BILLING_TOKENS,
  },
  {
    family: 'the warehouses example (test/contract/warehouses/)',
    servers: [
      WAREHOUSE_REFERENCE,
      ...WAREHOUSE_VARIANTS.filter((server) => server.kind === 'different'),
    ],
    asking: warehouseRequests,
    spec: 'examples/warehouses/openapi.yaml',
    demo: WAREHOUSE_TOKENS,
  },
] as const;

describe.each(FAMILIES)('record, then serve what it wrote: $family', (family) => {
  const servers: readonly WrittenApart[] = family.servers;
  it('covers the reference and every correct variant', () => {
    expect(servers.length).toBeGreaterThan(3);
  });

  it.each(servers.map((server) => [server.name, server] as const))(
    '%s',
    async (name, server) => {
      const running = await server.start();
      try {
        const served = {
          url: running.url,
          tokens: { ...running.tokens } as Record<string, string>,
        };
        const linksRead = LINKS_APART[name];
        await roundTrip(served, family.asking, {
          ...(family.spec === undefined ? {} : { spec: join(ROOT, family.spec) }),
          demo: family.demo,
          looser: {
            asJson: FORMATTED_APART.has(name),
            ...(linksRead === undefined ? {} : { linksRead }),
          },
        });
      } finally {
        await running.close();
      }
    },
    120_000,
  );
});

describe('record, then serve what it wrote: stockmock itself', () => {
  it('the shipped stand-in: every list, filter, page size and item at every level', async () => {
    // The service's own tokens, which nothing written may hold; the copy has the demo tokens.
    const secrets = { status: 'svc-status-secret-0f3a', quantity: 'svc-quantity-secret-9c1e' };
    const original = await startStockmock({
      tokens: Object.entries(secrets).map(([level, token]) => ({ token, level })),
    });
    try {
      const served = { url: original.url, tokens: secrets };
      expect((await stockRequests(served)).length).toBeGreaterThan(1000);
      const { dir, io } = await roundTrip(served, stockRequests, { demo: DEMO_TOKENS });
      expect(io.err).toMatch(/100 records/);
      const fixture = await readFile(join(dir, 'recorded.yaml'), 'utf8');
      const config = await readFile(join(dir, 'recorded.config.yaml'), 'utf8');
      for (const text of [io.out, io.err, fixture, config]) {
        expect(text).not.toContain(secrets.status);
        expect(text).not.toContain(secrets.quantity);
      }
      // The last step: the stand-in serving the recording passes the checker at the
      // stand-in's level, with its own demo tokens.
      const copy = await startStockmock({ config: join(dir, 'recorded.config.yaml') });
      try {
        const checked = memoryIo(dir);
        const tokens = Object.entries(DEMO_TOKENS).flatMap(([level, token]) => [
          '--token',
          `${level}=${token}`,
        ]);
        const args = ['contract', copy.url, '--level', 'stand-in', '--seed', '7', '--runs', '20'];
        expect(await runMain([...args, ...tokens], checked), checked.out.slice(-2000)).toBe(0);
      } finally {
        await copy.close();
      }
    } finally {
      await original.close();
    }
  }, 120_000);

  it('the billing example: envelopes, a bare array with a Link header, sorts, two levels', async () => {
    const original = await startStockmock({ config: join(BILLING, 'stockmock.config.yaml') });
    try {
      const served = { url: original.url, tokens: BILLING_TOKENS };
      expect((await billingRequests(served)).length).toBeGreaterThan(500);
      const { io } = await roundTrip(served, billingRequests, {
        spec: join(BILLING, 'openapi.yaml'),
        demo: BILLING_TOKENS,
      });
      expect(io.err).toMatch(/69 records/);
    } finally {
      await original.close();
    }
  }, 120_000);

  it('a spec read from the service: saved beside the fixture, and named in the config', async () => {
    const original = await startStockmock();
    try {
      const served = { url: original.url, tokens: DEMO_TOKENS };
      const { dir, io } = await roundTrip(served, stockRequests, {
        spec: `${original.url}/openapi.json`,
        demo: DEMO_TOKENS,
      });
      expect(io.err).toMatch(/saved the spec read from http:\/\/127\.0\.0\.1:\d+\/openapi\.json/);
      const config = await readFile(join(dir, 'recorded.config.yaml'), 'utf8');
      expect(config).toContain('spec: "./recorded.openapi.json"');
      const saved = JSON.parse(await readFile(join(dir, 'recorded.openapi.json'), 'utf8')) as {
        paths: object;
      };
      const servedSpec = (await (await fetch(`${original.url}/openapi.json`)).json()) as object;
      expect(saved).toEqual(servedSpec);
    } finally {
      await original.close();
    }
  }, 120_000);
});
