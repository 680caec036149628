/**
 * `startStockmock`, the one-call API for test suites, over real HTTP on loopback. The packed
 * package is tried as a user installs it in test/e2e/package.test.ts.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStockmock, type Stockmock } from '../../src/api/start-stockmock.ts';
import { SourceError } from '../../src/problems/source-error.ts';

const TOKENS = [
  { token: 'suite-status', level: 'status' },
  { token: 'suite-quantity', level: 'quantity' },
] as const;
const PRODUCTS = [
  { id: 1, name: 'Oak table', quantity: 3, finish: 'oiled' },
  { id: 2, name: 'Beech stool', quantity: 0 },
];

const started: Stockmock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

async function start(options: Parameters<typeof startStockmock>[0]): Promise<Stockmock> {
  const mock = await startStockmock(options);
  started.push(mock);
  return mock;
}

async function getJson(url: string, token: string): Promise<unknown> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return response.json();
}

describe('startStockmock', () => {
  it('serves inline products on a free port, with the tokens given', async () => {
    const mock = await start({ products: PRODUCTS, tokens: [...TOKENS] });
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.url).not.toBe('http://127.0.0.1:4010');
    expect(await getJson(`${mock.url}/v1/stock/1`, 'suite-quantity')).toStrictEqual({
      data: { product_id: 1, quantity: 3, status: 'available' },
    });
    expect(await getJson(`${mock.url}/v1/products/1`, 'suite-status')).toStrictEqual({
      data: { id: 1, name: 'Oak table', finish: 'oiled' },
    });
    const other = await start({ products: PRODUCTS, tokens: [...TOKENS] });
    expect(other.url).not.toBe(mock.url);
  });

  it('serves the shipped catalogue and demo tokens when given nothing', async () => {
    const mock = await start({});
    const health = (await (await fetch(`${mock.url}/healthz`)).json()) as { products: number };
    expect(health.products).toBe(100);
    expect(await getJson(`${mock.url}/v1/stock/1`, 'status-demo-token')).toHaveProperty('data');
  });

  it('records the requests it served, never their tokens, until cleared', async () => {
    const mock = await start({ products: PRODUCTS, tokens: [...TOKENS] });
    await getJson(`${mock.url}/v1/stock?status=available`, 'suite-status');
    await getJson(`${mock.url}/v1/stock/9`, 'suite-quantity');
    await fetch(`${mock.url}/v1/stock/1`);
    const served = mock.requests();
    expect(served.map(({ path, status, level }) => [path, status, level])).toStrictEqual([
      ['/v1/stock', 200, 'status'],
      ['/v1/stock/9', 404, 'quantity'],
      ['/v1/stock/1', 401, 'none'],
    ]);
    expect(served[0]?.query).toStrictEqual({ status: 'available' });
    expect(JSON.stringify(served)).not.toContain('suite-');
    expect(mock.requests({ status: 404 })).toHaveLength(1);
    mock.clearRequests();
    expect(mock.requests()).toStrictEqual([]);
  });

  it("switches to a configured scenario, and refuses one that isn't", async () => {
    const mock = await start({
      products: PRODUCTS,
      scenarios: { many: { generate: { count: 42, seed: 7 } } },
    });
    mock.useScenario('many');
    const health = (await (await fetch(`${mock.url}/healthz`)).json()) as { products: number };
    expect(health.products).toBe(42);
    expect(() => {
      mock.useScenario('missing');
    }).toThrow(/missing/);
  });

  it('reloads an edited fixture file, and keeps the last good data on a bad one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-api-'));
    const fixtures = join(folder, 'products.yaml');
    await writeFile(fixtures, 'products:\n  - { id: 1, name: First, quantity: 1 }\n');
    const mock = await start({ fixtures, tokens: [...TOKENS], reloadSettleMs: 0 });
    await writeFile(fixtures, 'products:\n  - { id: 1, name: First, quantity: 5 }\n');
    expect(await mock.reload()).toStrictEqual({ ok: true, scenarios: { default: 1 } });
    expect(await getJson(`${mock.url}/v1/stock/1`, 'suite-quantity')).toStrictEqual({
      data: { product_id: 1, quantity: 5, status: 'available' },
    });
    await writeFile(fixtures, 'products:\n  - { id: 1, name: First, quantity: -5 }\n');
    const refused = await mock.reload();
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.issues).toMatchObject([
      { file: fixtures, field: 'products[0].quantity' },
    ]);
    expect(await getJson(`${mock.url}/v1/stock/1`, 'suite-quantity')).toHaveProperty(
      'data.quantity',
      5,
    );
  });

  it('names a bad inline product by its option and index, not by a file of ours', async () => {
    const bad = [PRODUCTS[0], { id: 2, name: 'Stool', quantity: 1.5 }] as typeof PRODUCTS;
    const failure = await startStockmock({ products: bad }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SourceError);
    expect((failure as SourceError).issues).toMatchObject([
      { file: 'startStockmock({ products })', field: 'products[1].quantity' },
    ]);
    expect((failure as SourceError).issues[0]).not.toHaveProperty('at');
  });

  it('names a bad option as an option, not as a command-line flag', async () => {
    const failure = await startStockmock({ port: -1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SourceError);
    expect((failure as SourceError).issues).toMatchObject([
      { file: 'startStockmock', field: 'port' },
    ]);
  });

  it('reads a config file only when named, and then its options win over it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-api-'));
    const config = join(folder, 'stockmock.config.yaml');
    await writeFile(config, 'tokens:\n  - { token: from-the-file, level: status }\n');
    // A config file in the working directory is not picked up unasked.
    const unasked = await start({ products: PRODUCTS, cwd: folder });
    expect((await fetch(`${unasked.url}/v1/stock/1`, bearer('from-the-file'))).status).toBe(401);
    const asked = await start({ products: PRODUCTS, config });
    expect((await fetch(`${asked.url}/v1/stock/1`, bearer('from-the-file'))).status).toBe(200);
    const overridden = await start({ products: PRODUCTS, config, tokens: [...TOKENS] });
    expect((await fetch(`${overridden.url}/v1/stock/1`, bearer('from-the-file'))).status).toBe(401);
  });

  it('close stops listening', async () => {
    const mock = await startStockmock({ products: PRODUCTS });
    await mock.close();
    await expect(fetch(`${mock.url}/healthz`)).rejects.toThrow();
  });
});

function bearer(token: string): RequestInit {
  return { headers: { authorization: `Bearer ${token}` } };
}

describe('startStockmock with data for a spec of its own', () => {
  const billing = new URL('../../examples/billing/', import.meta.url).pathname;
  const customer = {
    id: '3a005125-bc22-4a75-9645-447258b1c7b2',
    name: 'Ada Shop',
    email: 'ada@example.com',
    country: 'NO',
    created_at: '2024-06-11T10:02:00Z',
  };
  const invoice = {
    id: 'inv_abc123',
    customer_id: customer.id,
    status: 'open',
    amount: 99.99,
    currency: 'EUR',
    issued_at: '2024-03-01T10:00:00+02:00',
    due_on: '2024-03-31',
    recurring: false,
  };

  it('serves each declared collection from `data`, by name', async () => {
    const mock = await startStockmock({
      spec: `${billing}openapi.yaml`,
      tokens: [{ token: 'support-token-1', level: 'support' }],
      data: { customers: [customer], invoices: [invoice] },
    });
    try {
      const headers = { authorization: 'Bearer support-token-1' };
      const invoices = await fetch(`${mock.url}/v1/invoices`, { headers });
      expect(((await invoices.json()) as { items: unknown[] }).items).toStrictEqual([invoice]);
      const one = await fetch(`${mock.url}/v1/customers/${customer.id}`, { headers });
      expect(await one.json()).toStrictEqual({ data: customer });
    } finally {
      await mock.close();
    }
  });

  it('names the option and the field of a record its schema refuses', async () => {
    const refused = await startStockmock({
      spec: `${billing}openapi.yaml`,
      data: { customers: [customer], invoices: [{ ...invoice, amount: 'ten' }] },
    }).then(
      async (mock) => mock.close(),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SourceError);
    const [issue] = (refused as SourceError).issues;
    expect(issue?.file).toBe('startStockmock({ data })');
    expect(issue?.field).toBe('invoices[0].amount');
  });
});
