/**
 * The checker on the charges spec (test/contract/charges: charges paged by a charge's id both
 * ways, as Stripe pages, and refunds paged by an opaque cursor each page gives both ways): it
 * passes stockmock serving it, passes the servers written from the spec alone that decide
 * differently, and fails each broken one on the paging check its defect breaks
 * (test/contract/charges/charges-servers.ts, written without reading src/contract/).
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import type { Report } from '../../src/contract/run-contract.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { checkAtStandIn, failedAt } from '../helpers/stand-in-check.ts';
import {
  CHARGES_REFERENCE,
  CHARGES_VARIANTS,
  type ChargesServer,
} from './charges/charges-servers.ts';

const folder = fileURLToPath(new URL('./charges/', import.meta.url));
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec(`${folder}openapi.yaml`);
});

function check(url: string, tokens: Readonly<Record<string, string>>): Promise<Report> {
  return checkAtStandIn(url, tokens, spec, { seed: 49, runs: 20 });
}

async function judged(server: ChargesServer, level: 'interface' | 'stand-in'): Promise<string[]> {
  const running = await server.start();
  try {
    return failedAt(await check(running.url, { ...running.tokens }), level);
  } finally {
    await running.close();
  }
}

describe('stockmock contract on the charges spec', () => {
  it('passes stockmock serving it at the stand-in level, walking both lists both ways', async () => {
    const mock = await startStockmock({ config: `${folder}stockmock.config.yaml` });
    try {
      const report = await check(mock.url, { reader: 'charges-demo-token' });
      expect(failedAt(report, 'stand-in')).toStrictEqual([]);
      const passed = report.results
        .filter((result) => result.outcome.kind === 'passed')
        .map((result) => result.id);
      for (const id of [
        'paging./v1/charges.walks',
        'paging./v1/charges.walks-back',
        'paging./v1/refunds.walks',
        'paging./v1/refunds.walks-back',
        'paging./v1/refunds.foreign-cursor',
      ]) {
        expect(passed).toContain(id);
      }
    } finally {
      await mock.close();
    }
  });

  it.each([CHARGES_REFERENCE, ...CHARGES_VARIANTS.filter((server) => server.kind === 'different')])(
    'passes a correct server at the interface level: $name',
    async (server) => {
      expect(await judged(server, 'interface')).toStrictEqual([]);
    },
  );

  /** The paging check each broken server fails. */
  const CAUGHT_BY: Readonly<Record<string, string>> = {
    'prev_cursor includes the first refund': 'paging./v1/refunds.walks-back',
    'ending_before read as starting_after': 'paging./v1/charges.walks-back',
    'ending_before skips the charge right before': 'paging./v1/charges.walks-back',
    'has_more before a page never false': 'paging./v1/charges.walks-back',
    'starting_after repeats the cursor charge': 'paging./v1/charges.walks',
    'refunds last page gives a cursor to an empty page that has more': 'paging./v1/refunds.walks',
  };

  it.each(
    CHARGES_VARIANTS.filter((server) => server.kind === 'broken' && server.name in CAUGHT_BY),
  )('fails a broken server at the interface level: $name', async (server) => {
    const failures = await judged(server, 'interface');
    expect(failures).not.toStrictEqual([]);
    expect(failures).toContain(CAUGHT_BY[server.name]);
  });

  it('expects every broken server to fail, each on a named check', () => {
    const broken = CHARGES_VARIANTS.filter((server) => server.kind === 'broken').map(
      (server) => server.name,
    );
    expect(Object.keys(CAUGHT_BY).sort()).toStrictEqual([...broken].sort());
  });
});
