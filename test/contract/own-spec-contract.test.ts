/**
 * The checker on a team's own spec (examples/orders): it passes stockmock serving it and the
 * servers written from the spec alone that decide differently, fails each broken one whose
 * fault a read shows, and never sends a write the spec declares, even with every token.
 */
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { runMain } from '../../src/cli/main.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { judgeAt, runContract, type Report } from '../../src/contract/run-contract.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { ORDERS_REFERENCE, ORDERS_VARIANTS, type OrdersServer } from './orders/orders-servers.ts';

const example = fileURLToPath(new URL('../../examples/orders/', import.meta.url));
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec(`${example}openapi.yaml`);
});

async function check(
  url: string,
  tokens: Readonly<Record<string, string>>,
  writes = false,
): Promise<Report> {
  return runContract({
    baseUrl: url,
    tokens,
    spec,
    writes,
    level: 'interface',
    seed: 11,
    runs: 20,
    timeoutMs: 5000,
    concurrency: 4,
  });
}

const failed = (report: Report, level: 'interface' | 'stand-in' = 'interface') =>
  judgeAt(report, level)
    .results.filter((result) => result.outcome.kind === 'failed')
    .map((result) => result.id);

async function judged(server: OrdersServer): Promise<string[]> {
  const running = await server.start();
  try {
    return failed(await check(running.url, { ...running.tokens }, true));
  } finally {
    await running.close();
  }
}

describe('stockmock contract on a spec of its own', () => {
  it('passes stockmock serving it, from data and from examples, its writes too', async () => {
    const mock = await startStockmock({ config: `${example}stockmock.config.yaml` });
    try {
      const report = await check(
        mock.url,
        { clerk: 'clerk-demo-token', manager: 'manager-demo-token' },
        true,
      );
      expect(failed(report)).toStrictEqual([]);
      // The operations without data were asked, and judged by the spec.
      const ids = report.results.map((result) => result.id);
      expect(ids).toContain('operations./v1/reports/summary');
      expect(ids).toContain('operations./v1/status');
      expect(ids).toContain('writes./v1/orders.post');
      expect(ids).toContain('writes./v1/orders/{orderId}.delete');
    } finally {
      await mock.close();
    }
  });

  it.each([ORDERS_REFERENCE, ...ORDERS_VARIANTS.filter((server) => server.kind === 'different')])(
    'passes a correct server: $name',
    async (server) => {
      expect(await judged(server)).toStrictEqual([]);
    },
  );

  // Judged with --writes: a fault in a POST or a DELETE shows only when one is sent.
  const broken = ORDERS_VARIANTS.filter(
    (server) => server.kind === 'broken' && server.level === 'interface',
  );
  // Judged by the loosest reading the spec allows (a contains filter may fold case or not), or
  // by rules the checker keeps at the stand-in level (absolute links, a problem's detail).
  const FREE_AT_THE_INTERFACE = new Set([
    'customer filter case-sensitive',
    'links are relative',
    'unknown order 404 without detail',
  ]);
  it.each(broken.filter((server) => !FREE_AT_THE_INTERFACE.has(server.name)))(
    'fails a broken server: $name',
    async (server) => {
      expect(await judged(server)).not.toStrictEqual([]);
    },
  );
  // Those rules the stand-in keeps have a check of their own at its level.
  it.each([
    ['customer filter case-sensitive', 'filters./v1/orders.customer-case'],
    ['customer filter folds ASCII only', 'filters./v1/orders.customer-case'],
    ['links are relative', 'pagination./v1/orders.links-absolute'],
  ])('fails %s at the stand-in level, by %s', async (name, id) => {
    const server = ORDERS_VARIANTS.find((candidate) => candidate.name === name);
    if (server === undefined) throw new Error(`no broken server named ${name}`);
    const running = await server.start();
    try {
      expect(failed(await check(running.url, { ...running.tokens }), 'stand-in')).toContain(id);
    } finally {
      await running.close();
    }
    const reference = await ORDERS_REFERENCE.start();
    try {
      const report = await check(reference.url, { ...reference.tokens });
      expect(failed(report, 'stand-in')).not.toContain(id);
    } finally {
      await reference.close();
    }
  });
});

describe('specs that name no level', () => {
  /** The orders example rewritten: `edit` applied to its text, saved in a folder of its own. */
  async function variantOf(edit: (text: string) => string): Promise<string> {
    const text = await readFile(`${example}openapi.yaml`, 'utf8');
    const changed = edit(text);
    expect(changed).not.toBe(text);
    const file = join(await mkdtemp(join(tmpdir(), 'stockmock-orders-')), 'openapi.yaml');
    await writeFile(file, changed);
    return file;
  }

  it('checks a spec that secures nothing without a token', async () => {
    const file = await variantOf((text) =>
      text
        .replace(/^security:\n {2}- bearerAuth: \[\]\n/m, '')
        .replaceAll(/^(\s*)x-stockmock(-collections)?:/gm, '$1x-was$2:'),
    );
    const open = await loadSpec(file);
    const mock = await startStockmock({ spec: file });
    try {
      const report = await runContract({
        baseUrl: mock.url,
        tokens: {},
        spec: open,
        level: 'interface',
        seed: 3,
        runs: 5,
        timeoutMs: 5000,
        concurrency: 4,
      });
      expect(failed(report)).toStrictEqual([]);
      const asked = report.results.filter((result) => result.id.startsWith('operations.'));
      expect(asked.map((result) => [result.id, result.outcome.kind])).toStrictEqual([
        ['operations./v1/orders', 'passed'],
        ['operations./v1/orders/{orderId}', 'passed'],
        ['operations./v1/customers', 'passed'],
        ['operations./v1/reports/summary', 'passed'],
        ['operations./v1/status', 'passed'],
      ]);
    } finally {
      await mock.close();
    }
  });

  it("takes a token of any level name where the views are everyone's, and only known ones elsewhere", async () => {
    const file = await variantOf((text) =>
      text.replaceAll(
        /views:\n\s+clerk: (\{[^\n]+\})\n\s+manager: \{[^\n]+\}/g,
        (_match, view: string) => `view: ${view}`,
      ),
    );
    const fixtures = `${example}orders.yaml`;
    const mock = await startStockmock({
      spec: file,
      fixtures,
      tokens: [{ token: 'client-token', level: 'client' }],
    });
    try {
      const io = memoryIo();
      const code = await runMain(
        ['contract', mock.url, '--spec', file, '--token', 'client=client-token', '--runs', '5'],
        io,
      );
      expect(io.err).toBe('');
      expect(io.out).toContain('views./v1/orders');
      expect(code).toBe(0);
      // The example's own spec names its levels: another name is refused as a typo.
      const typo = memoryIo();
      const refused = await runMain(
        ['contract', mock.url, '--spec', `${example}openapi.yaml`, '--token', 'clrek=x'],
        typo,
      );
      expect(refused).toBe(2);
      expect(typo.err).toContain('LEVEL status, quantity, clerk, manager, not "clrek=…"');
    } finally {
      await mock.close();
    }
  });
});

describe('the checker only reads', () => {
  let proxy: Server;
  const writes: string[] = [];
  let upstream: Awaited<ReturnType<OrdersServer['start']>>;
  beforeAll(async () => {
    upstream = await ORDERS_REFERENCE.start();
    // Records every request on its way to the reference, and passes it on.
    proxy = createServer((request, response) => {
      const method = request.method ?? 'GET';
      if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) {
        writes.push(`${method} ${request.url ?? ''}`);
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(request.headers).flatMap(([name, value]) =>
            typeof value === 'string' && name !== 'host' ? [[name, value]] : [],
          ),
        );
        void fetch(`${upstream.url}${request.url ?? '/'}`, {
          method,
          headers,
          ...(chunks.length === 0 || method === 'GET' || method === 'HEAD'
            ? {}
            : { body: Buffer.concat(chunks) }),
        })
          .then(async (answer) => {
            const body = Buffer.from(await answer.arrayBuffer());
            const passed: Record<string, string> = {};
            answer.headers.forEach((value, name) => {
              if (!['content-length', 'transfer-encoding', 'connection'].includes(name)) {
                passed[name] = value;
              }
            });
            response.writeHead(answer.status, passed).end(method === 'HEAD' ? undefined : body);
          })
          .catch(() => response.writeHead(502).end());
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await upstream.close();
  });

  it('sends no method the spec declares as a write, only ones it does not declare', async () => {
    const { port } = proxy.address() as AddressInfo;
    await check(`http://127.0.0.1:${String(port)}`, { ...upstream.tokens });
    const declared = (method: string, url: string): boolean => {
      const path = url.split('?', 1)[0] ?? '';
      return (
        (method === 'POST' && path === '/v1/orders') ||
        (method === 'DELETE' && /^\/v1\/orders\/[^/]+$/.test(path))
      );
    };
    expect(writes.length).toBeGreaterThan(0);
    expect(
      writes.filter((write) => declared(...(write.split(' ', 2) as [string, string]))),
    ).toStrictEqual([]);
  });
});
