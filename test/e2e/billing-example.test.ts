/**
 * The billing example (examples/billing/) through the CLI on a real port, as a team would run
 * it: every answer judged by the example's own spec, and what each should hold worked out here
 * from billing.yaml by plain code (filters, sorts, envelope, Link headers, views), never read
 * from stockmock. Then data for it: `fixtures generate` writes a file `validate` accepts and
 * `serve` serves, and a scenario's `generate:` does the same in memory.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { byCodePoints } from '../helpers/code-points.ts';
import { recordResponse, validatorFor } from '../helpers/expect-spec.ts';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const example = join(root, 'examples/billing');
const SUPPORT = { authorization: 'Bearer support-demo-token' };
const PARTNER = { authorization: 'Bearer partner-demo-token' };

interface Invoice {
  readonly id: string;
  readonly customer_id: string;
  readonly status: string;
  readonly amount: number;
  readonly issued_at: string;
  readonly due_on: string;
  readonly recurring: boolean;
}
interface Customer {
  readonly id: string;
  readonly name: string;
  readonly country: string;
  readonly created_at: string;
}

const FIXTURE = parse(await readFile(join(example, 'billing.yaml'), 'utf8')) as {
  invoices: Invoice[];
  customers: Customer[];
};
const instant = (text: string) => Date.parse(text);

let spec: LoadedSpec;
let serve: ServeProcess;
beforeAll(async () => {
  spec = await loadSpec(join(example, 'openapi.yaml'));
  serve = await spawnServe(['--config', 'stockmock.config.yaml'], example);
});
afterAll(async () => {
  await serve.stop();
});

/** GETs a path, judges the answer by the example's spec, and returns it. */
async function get(path: string, headers: Readonly<Record<string, string>> = SUPPORT) {
  const response = await fetch(`${serve.url}${path}`, { headers });
  const recorded = await recordResponse(response);
  const findings = (await validatorFor(spec)).validate('GET', path.split('?')[0] ?? path, recorded);
  expect(findings, `GET ${path} → ${String(recorded.status)}`).toStrictEqual([]);
  return recorded;
}

/** Every invoice id a query keeps, following `links.next` (every answer judged). */
async function invoiceIds(query: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | null = `/v1/invoices?${query}`;
  while (next !== null) {
    const page = (await get(next)).body as { items: Invoice[]; links: { next: string | null } };
    ids.push(...page.items.map((invoice) => invoice.id));
    next =
      page.links.next === null
        ? null
        : new URL(page.links.next).pathname + new URL(page.links.next).search;
  }
  return ids;
}

/** The definition of the order: the keys in turn, ties by id in code points. */
function sorted(invoices: readonly Invoice[], keys: readonly [keyof Invoice, boolean][]): string[] {
  return [...invoices]
    .sort((a, b) => {
      for (const [field, descending] of keys) {
        const [x, y] = [a[field], b[field]];
        const order =
          field === 'issued_at'
            ? instant(String(x)) - instant(String(y))
            : typeof x === 'number'
              ? x - Number(y)
              : byCodePoints(String(x), String(y));
        if (order !== 0) return descending ? -order : order;
      }
      return byCodePoints(a.id, b.id);
    })
    .map((invoice) => invoice.id);
}

describe('the billing example, served by the CLI', () => {
  it('lists invoices newest first, in its envelope, over every page', async () => {
    const first = (await get('/v1/invoices?limit=7')).body as {
      meta: { total: number; page: number; limit: number };
    };
    expect(first.meta).toStrictEqual({ total: FIXTURE.invoices.length, page: 1, limit: 7 });
    expect(await invoiceIds('limit=7')).toStrictEqual(
      sorted(FIXTURE.invoices, [['issued_at', true]]),
    );
  });

  it('filters by any of several statuses, a decimal range and a date, sorted by two keys', async () => {
    const kept = FIXTURE.invoices.filter(
      (invoice) =>
        (invoice.status === 'open' || invoice.status === 'paid') &&
        invoice.amount >= 99.99 &&
        invoice.amount <= 1500.5 &&
        invoice.due_on <= '2024-03-31',
    );
    expect(kept.length).toBeGreaterThan(3);
    expect(
      await invoiceIds(
        'status=open,paid&amount_min=99.99&amount_max=1500.5&due_before=2024-03-31&sort=status,-amount&limit=3',
      ),
    ).toStrictEqual(
      sorted(kept, [
        ['status', false],
        ['amount', true],
      ]),
    );
    const after = '2024-02-15T12:00:00+05:30';
    expect(
      await invoiceIds(`issued_after=${encodeURIComponent(after)}&recurring=true&sort=amount`),
    ).toStrictEqual(
      sorted(
        FIXTURE.invoices.filter((i) => instant(i.issued_at) >= instant(after) && i.recurring),
        [['amount', false]],
      ),
    );
  });

  it('answers an invoice by its string key, bare; an unknown one or one in another case is not it', async () => {
    const [invoice] = FIXTURE.invoices;
    if (invoice === undefined) throw new Error('no invoice');
    expect((await get(`/v1/invoices/${invoice.id}`)).body).toStrictEqual(invoice);
    expect((await get('/v1/invoices/inv_zzzzzz')).status).toBe(404);
    expect((await get(`/v1/invoices/${invoice.id.toUpperCase()}`)).status).toBe(400);
  });

  it('lists customers as a bare array with Link headers, by name, through each view', async () => {
    const byName = [...FIXTURE.customers].sort((a, b) => byCodePoints(a.name, b.name));
    const page = await get('/v1/customers?sort=name&limit=5&page=2', PARTNER);
    expect(page.body).toStrictEqual(
      byName.slice(5, 10).map(({ id, name, country }) => ({ id, name, country })),
    );
    const link = page.headers['link'] ?? '';
    const rels: Record<string, string> = Object.fromEntries(
      [...link.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map(([, url, rel]) => [
        rel ?? '',
        new URL(url ?? '').search,
      ]),
    );
    const pages = Math.ceil(FIXTURE.customers.length / 5);
    expect(rels).toStrictEqual({
      first: '?sort=name&limit=5&page=1',
      prev: '?sort=name&limit=5&page=1',
      next: '?sort=name&limit=5&page=3',
      last: `?sort=name&limit=5&page=${String(pages)}`,
    });
    const [customer] = byName;
    if (customer === undefined) throw new Error('no customer');
    expect((await get(`/v1/customers/${customer.id}`)).body).toStrictEqual({ data: customer });
  });

  it('refuses what the declarations do not serve, as problem+json naming the parameter', async () => {
    for (const query of [
      'sort=customer_id',
      'sort=amount,amount',
      'amount_min=ten',
      'status=open,lost',
      'recurring=maybe',
    ]) {
      const answer = await get(`/v1/invoices?${query}`);
      expect(answer.status, query).toBe(400);
      const [parameter] = query.split('=');
      expect(
        (answer.body as { errors: { parameter: string }[] }).errors.map((e) => e.parameter),
      ).toStrictEqual([parameter]);
    }
  });
});

describe('data for the billing example', () => {
  const stockmock = (args: readonly string[], cwd = example) =>
    run(process.execPath, [join(root, 'bin/stockmock.js'), ...args], { cwd });

  const generate = (out: string) =>
    stockmock([
      'fixtures',
      'generate',
      '--spec',
      'openapi.yaml',
      '--count',
      '120',
      '--seed',
      '5',
      '--out',
      out,
    ]);

  it('fixtures generate writes a file validate accepts and serve serves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-billing-'));
    const out = join(dir, 'generated.yaml');
    await generate(out);
    const generated = parse(await readFile(out, 'utf8')) as {
      invoices: Invoice[];
      customers: Customer[];
    };
    expect(generated.invoices).toHaveLength(120);
    expect(generated.customers).toHaveLength(120);
    // Every invoice names a customer that exists; keys are unique.
    const customers = new Set(generated.customers.map((customer) => customer.id));
    expect(generated.invoices.every((invoice) => customers.has(invoice.customer_id))).toBe(true);
    expect(new Set(generated.invoices.map((invoice) => invoice.id)).size).toBe(120);
    const validated = await stockmock([
      'validate',
      '--config',
      'stockmock.config.yaml',
      '--fixtures',
      out,
    ]);
    expect(validated.stdout).toContain('120 customers, 120 invoices');
    // The same seed, the same file.
    const again = join(dir, 'again.yaml');
    await generate(again);
    expect(await readFile(again, 'utf8')).toBe(await readFile(out, 'utf8'));
    const served = await spawnServe(
      ['--config', 'stockmock.config.yaml', '--fixtures', out],
      example,
    );
    try {
      const response = await fetch(`${served.url}/v1/invoices?limit=1`, { headers: SUPPORT });
      expect(((await response.json()) as { meta: { total: number } }).meta.total).toBe(120);
    } finally {
      await served.stop();
    }
  });

  it("a scenario's generate: makes the same data in memory", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-billing-'));
    const config = join(dir, 'stockmock.config.yaml');
    await writeFile(
      config,
      [
        `spec: ${join(example, 'openapi.yaml')}`,
        `fixtures: ${join(example, 'billing.yaml')}`,
        'scenario: many',
        'scenarios:',
        '  many: { generate: { count: 300, seed: 5 } }',
        'tokens: [{ token: support-demo-token, level: support }]',
        '',
      ].join('\n'),
    );
    const served = await spawnServe(['--config', config], dir);
    try {
      const response = await fetch(`${served.url}/v1/customers?limit=50&page=6`, {
        headers: SUPPORT,
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBe(50);
      expect(response.headers.get('link')).not.toContain('rel="next"');
    } finally {
      await served.stop();
    }
  });
});
