/**
 * The checker on a spec shaped like a real service (examples/billing: string keys, decimal and
 * date filters, a sort parameter, its own list envelope and a bare array with Link headers):
 * it passes stockmock serving it at both levels, passes the servers written from the spec alone
 * that decide differently, and fails each broken one at the level its fault belongs to.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import type { Report } from '../../src/contract/run-contract.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { checkAtStandIn, failedAt } from '../helpers/stand-in-check.ts';
import { BILLING_REFERENCE, type BillingServer } from './billing/billing-servers.ts';
import { BILLING_VARIANTS } from './billing/billing-variants.ts';

const example = fileURLToPath(new URL('../../examples/billing/', import.meta.url));
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec(`${example}openapi.yaml`);
});

function check(url: string, tokens: Readonly<Record<string, string>>): Promise<Report> {
  return checkAtStandIn(url, tokens, spec, { seed: 11, runs: 20 });
}

async function judged(server: BillingServer, level: 'interface' | 'stand-in'): Promise<string[]> {
  const running = await server.start();
  try {
    return failedAt(await check(running.url, { ...running.tokens }), level);
  } finally {
    await running.close();
  }
}

describe('stockmock contract on the billing example', () => {
  it('passes stockmock serving it, at the interface level and the stand-in level', async () => {
    const mock = await startStockmock({ config: `${example}stockmock.config.yaml` });
    try {
      const report = await check(mock.url, {
        support: 'support-demo-token',
        partner: 'partner-demo-token',
      });
      expect(failedAt(report, 'stand-in')).toStrictEqual([]);
      const ids = report.results.map((result) => result.id);
      for (const id of [
        'sort./v1/invoices.code-points',
        'sort./v1/invoices.default',
        'generated./v1/invoices',
        'pagination./v1/customers.links-absolute',
        'single./v1/invoices/{invoiceId}',
      ]) {
        expect(ids).toContain(id);
      }
    } finally {
      await mock.close();
    }
  });

  it.each([BILLING_REFERENCE, ...BILLING_VARIANTS.filter((server) => server.kind === 'different')])(
    'passes a correct server at the interface level: $name',
    async (server) => {
      expect(await judged(server, 'interface')).toStrictEqual([]);
    },
  );

  it.each(
    BILLING_VARIANTS.filter(
      (server) => server.kind === 'different' && server.level === 'interface',
    ),
  )('passes a server that decides within the stand-in too: $name', async (server) => {
    expect(await judged(server, 'stand-in')).toStrictEqual([]);
  });

  /**
   * The spec's own words ("Case-insensitive" in q's description) are prose the checker does not
   * read; the declared `contains` keeps the case rule at the stand-in's level, as the interface's
   * name filter does (compatibility.nameMatch). A 403 for a level is refused before any check.
   */
  const AT_THE_STAND_IN: Readonly<Record<string, string>> = {
    'q case-sensitive': 'filters./v1/customers.name-case-insensitive',
    'q folds ASCII letters only': 'filters./v1/customers.name-case-insensitive',
  };
  const REFUSED_AT_START = new Set(['partner refused invoices']);

  it.each(
    BILLING_VARIANTS.filter(
      (server) =>
        server.kind === 'broken' &&
        server.level === 'interface' &&
        !(server.name in AT_THE_STAND_IN) &&
        !REFUSED_AT_START.has(server.name),
    ),
  )('fails a broken server at the interface level: $name', async (server) => {
    expect(await judged(server, 'interface')).not.toStrictEqual([]);
  });

  it.each(
    BILLING_VARIANTS.filter(
      (server) =>
        server.kind === 'broken' && (server.level === 'stand-in' || server.name in AT_THE_STAND_IN),
    ),
  )('fails a server that departs from the stand-in at that level: $name', async (server) => {
    const failures = await judged(server, 'stand-in');
    const expected = AT_THE_STAND_IN[server.name];
    if (expected === undefined) expect(failures).not.toStrictEqual([]);
    else expect(failures).toContain(expected);
  });

  it.each(BILLING_VARIANTS.filter((server) => REFUSED_AT_START.has(server.name)))(
    'refuses to judge a server that refuses a level its views name: $name',
    async (server) => {
      const running = await server.start();
      try {
        await expect(check(running.url, { ...running.tokens })).rejects.toThrow(/refuses/);
      } finally {
        await running.close();
      }
    },
  );
});
