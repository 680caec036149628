/**
 * A record that lacks the field a filter reads is kept by no filter: the stand-in serves so, and
 * the checker judges so. The warehouses example with a `contains` filter on its optional
 * `manager`, which some records lack; and the same with `manager` as the collection's label,
 * whose filter the checker also asks with an empty needle.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock, type Stockmock } from '../../src/api/start-stockmock.ts';
import { judgeAt, runContract, type Report } from '../../src/contract/run-contract.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';

const example = fileURLToPath(new URL('../../examples/warehouses/', import.meta.url));
const TOKENS = { public: 'public-demo-token', staff: 'staff-demo-token' };
const STAFF = { authorization: `Bearer ${TOKENS.staff}` };

interface Warehouse {
  readonly id: number;
  readonly manager?: string;
}

let mock: Stockmock;
let spec: LoadedSpec;
let labelled: Stockmock;
let labelledSpec: LoadedSpec;
let warehouses: readonly Warehouse[];

/** The example in a folder of its own, with `manager` filtered (and made the label), started. */
async function startWith(label: boolean): Promise<{ mock: Stockmock; spec: LoadedSpec }> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-manager-'));
  await cp(example, dir, { recursive: true });
  const file = join(dir, 'openapi.yaml');
  const text = await readFile(file, 'utf8');
  const filter = '          max_capacity: { field: capacity, match: max }\n';
  const parameter = `        - name: max_capacity
          in: query
          description: At most this many pallet places.
          schema: { type: integer, minimum: 0 }
`;
  expect(text).toContain(filter);
  expect(text).toContain(parameter);
  const filtered = text
    .replace(filter, `${filter}          manager: { field: manager, match: contains }\n`)
    .replace(
      parameter,
      `${parameter}        - name: manager\n          in: query\n          schema: { type: string }\n`,
    );
  expect(filtered).toContain('    label: name\n');
  await writeFile(
    file,
    label ? filtered.replace('    label: name\n', '    label: manager\n') : filtered,
  );
  warehouses = (
    parse(await readFile(join(dir, 'warehouses.yaml'), 'utf8')) as { warehouses: Warehouse[] }
  ).warehouses;
  return {
    spec: await loadSpec(file),
    mock: await startStockmock({ config: join(dir, 'stockmock.config.yaml') }),
  };
}

beforeAll(async () => {
  ({ mock, spec } = await startWith(false));
  ({ mock: labelled, spec: labelledSpec } = await startWith(true));
});
afterAll(async () => {
  await mock.close();
  await labelled.close();
});

async function check(url: string, against: LoadedSpec = spec): Promise<Report> {
  return runContract({
    baseUrl: url,
    tokens: TOKENS,
    spec: against,
    level: 'interface',
    seed: 5,
    runs: 5,
    timeoutMs: 5000,
    concurrency: 4,
  });
}

const outcome = (report: Report) =>
  judgeAt(report, 'interface').results.find((result) => result.id === 'generated./v1/warehouses')
    ?.outcome.kind;

describe('a filter on a field some records lack', () => {
  it('keeps none of them in the stand-in, and every record that has a match', async () => {
    const lacking = warehouses.filter((w) => w.manager === undefined).map((w) => w.id);
    expect(lacking.length).toBeGreaterThan(0);
    const response = await fetch(`${mock.url}/v1/warehouses?manager=a&limit=100`, {
      headers: STAFF,
    });
    const ids = ((await response.json()) as { data: Warehouse[] }).data.map((w) => w.id);
    expect(ids).toStrictEqual(
      warehouses.filter((w) => w.manager?.toLowerCase().includes('a') === true).map((w) => w.id),
    );
  });

  it('is judged by the same rule: the stand-in passes, a server that keeps them fails', async () => {
    expect(outcome(await check(mock.url))).toBe('passed');
    const lacking = warehouses.find((w) => w.manager === undefined);
    // The stand-in, but with a record lacking the field added to each first filtered page.
    const keeper: Server = createServer((request, response) => {
      void (async () => {
        const url = request.url ?? '/';
        const headers = { authorization: request.headers.authorization ?? '' };
        const answer = await fetch(`${mock.url}${url}`, { headers });
        let body = await answer.text();
        const query = new URL(url, 'http://x').searchParams;
        if (query.has('manager') && (query.get('page') ?? '1') === '1' && answer.ok) {
          const record = (await (
            await fetch(`${mock.url}/v1/warehouses/${String(lacking?.id)}`, { headers })
          ).json()) as { data: object };
          const page = JSON.parse(body) as { data: object[] };
          body = JSON.stringify({ ...page, data: [record.data, ...page.data] });
        }
        response
          .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' })
          .end(body);
      })();
    });
    await new Promise<void>((resolve) => keeper.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = keeper.address() as AddressInfo;
      expect(outcome(await check(`http://127.0.0.1:${String(port)}`))).toBe('failed');
    } finally {
      await new Promise((resolve) => keeper.close(resolve));
    }
  });
});

/**
 * A proxy to a stand-in that changes the query first: a service that reads some values its own
 * way, the rest as the stand-in does. Its links name the proxy, as the service's own would.
 */
async function proxied(
  target: Stockmock,
  rewrite: (query: URLSearchParams) => void,
  run: (url: string) => Promise<void>,
): Promise<void> {
  let origin = '';
  const proxy: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://x');
      rewrite(url.searchParams);
      const answer = await fetch(`${target.url}${url.pathname}${url.search}`, {
        headers: { authorization: request.headers.authorization ?? '' },
      });
      response
        .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' })
        .end((await answer.text()).replaceAll(target.url, origin));
    })();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = proxy.address() as AddressInfo;
    origin = `http://127.0.0.1:${String(port)}`;
    await run(origin);
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
  }
}

describe('a label some records lack', () => {
  const labelCheck = (report: Report) =>
    judgeAt(report, 'interface').results.find((result) => result.id === 'generated./v1/warehouses');

  it('an empty needle keeps only the labelled records in the stand-in, and the checker agrees', async () => {
    const response = await fetch(`${labelled.url}/v1/warehouses?manager=&limit=100`, {
      headers: STAFF,
    });
    const ids = ((await response.json()) as { data: Warehouse[] }).data.map((w) => w.id);
    expect(ids).toStrictEqual(warehouses.filter((w) => w.manager !== undefined).map((w) => w.id));
    const result = labelCheck(await check(labelled.url, labelledSpec));
    expect(result?.outcome.kind).toBe('passed');
    expect(result?.observed).toMatch(/^\d+ requests/);
  });

  it('a service that reads an empty needle as no filter passes too', async () => {
    await proxied(
      labelled,
      (query) => {
        if (query.get('manager') === '') query.delete('manager');
      },
      async (url) => {
        expect(labelCheck(await check(url, labelledSpec))?.outcome.kind).toBe('passed');
      },
    );
  });

  it('a service whose empty needle matches nothing fails', async () => {
    await proxied(
      labelled,
      (query) => {
        if (query.get('manager') === '') query.set('manager', '\u0000no manager holds this');
      },
      async (url) => {
        expect(labelCheck(await check(url, labelledSpec))?.outcome.kind).toBe('failed');
      },
    );
  });
});
