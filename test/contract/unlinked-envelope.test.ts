/**
 * A list whose envelope places no links (`{items, meta: {total}}`, as many real APIs page): the
 * checker walks it by page number, as its clients do. It passes stockmock serving the billing
 * example so declared, and fails the same answers with a page's items dropped or repeated.
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStockmock, type Stockmock } from '../../src/api/start-stockmock.ts';
import type { Report } from '../../src/contract/run-contract.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { checkAtStandIn, failedAt } from '../helpers/stand-in-check.ts';
import { unlinkedSpec } from './unlinked/unlinked-spec.ts';

const example = fileURLToPath(new URL('../../examples/billing/', import.meta.url));
const TOKENS = { support: 'support-demo-token', partner: 'partner-demo-token' };

/**
 * A proxy in front of stockmock that breaks the invoice list's paging: `drops last` leaves the
 * last item out of the list's last page; `repeats` answers every page past the first with the
 * first page.
 */
async function brokenProxy(
  target: string,
  fault: 'drops last' | 'repeats',
): Promise<{ url: string; server: Server }> {
  const server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', target);
    const isList = url.pathname === '/v1/invoices';
    if (isList && fault === 'repeats') url.searchParams.delete('page');
    const forwarded = httpRequest(
      url,
      { method: incoming.method, headers: { ...incoming.headers, host: url.host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          if (isList && fault === 'drops last' && answer.statusCode === 200 && body !== '') {
            const page = JSON.parse(body) as { items: unknown[]; meta: { total: number } };
            const limit = Number(url.searchParams.get('limit') ?? 20);
            if (page.items.length > 0 && page.items.length < limit) page.items.pop();
            body = JSON.stringify(page);
          }
          const headers = { ...answer.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          outgoing.end(body);
        });
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, server };
}

let spec: LoadedSpec;
let mock: Stockmock;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-unlinked-'));
  const file = await unlinkedSpec(dir);
  spec = await loadSpec(file);
  mock = await startStockmock({
    config: join(example, 'stockmock.config.yaml'),
    spec: file,
    fixtures: join(example, 'billing.yaml'),
  });
});
afterAll(async () => {
  await mock.close();
});

function check(url: string): Promise<Report> {
  return checkAtStandIn(url, TOKENS, spec, { seed: 5, runs: 10 });
}

describe('a list envelope without links', () => {
  it('is walked by page number, and stockmock serving it passes at both levels', async () => {
    const report = await check(mock.url);
    expect(failedAt(report, 'stand-in')).toStrictEqual([]);
    const skipped = report.results
      .filter((result) => result.outcome.kind === 'skipped')
      .map((result) => result.id);
    expect(skipped).toContain('pagination./v1/invoices.links-absolute');
    // The walk read every invoice: the generated requests ran, not skipped.
    expect(skipped).not.toContain('generated./v1/invoices');
    expect(report.results.map((result) => result.id)).toContain('generated./v1/invoices');
  }, 60_000);

  it.each(['drops last', 'repeats'] as const)(
    'fails a server whose paging %s, at the interface level',
    async (fault) => {
      const proxy = await brokenProxy(mock.url, fault);
      try {
        const ids = failedAt(await check(proxy.url), 'interface');
        expect(ids).toContain('generated./v1/invoices');
      } finally {
        proxy.server.closeAllConnections();
        proxy.server.close();
      }
    },
    60_000,
  );
});
