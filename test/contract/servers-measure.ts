/**
 * The servers written from an example's spec alone (test/contract/orders/, billing/), judged by
 * the checker through its public API: prints, for each, what failed at the interface level and
 * at the stand-in level.
 *
 *   node test/contract/servers-measure.ts orders|billing [--writes]
 */
import { resolve } from 'node:path';
import { judgeAt, runContract } from '../../src/contract/run-contract.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { BILLING_REFERENCE } from './billing/billing-servers.ts';
import { BILLING_VARIANTS } from './billing/billing-variants.ts';
import { ORDERS_REFERENCE, ORDERS_VARIANTS } from './orders/orders-servers.ts';

const EXAMPLES = {
  orders: [ORDERS_REFERENCE, ...ORDERS_VARIANTS],
  billing: [BILLING_REFERENCE, ...BILLING_VARIANTS],
} as const;

const example = process.argv[2];
if (example !== 'orders' && example !== 'billing') {
  throw new Error('Usage: node test/contract/servers-measure.ts orders|billing [--writes]');
}
const spec = await loadSpec(resolve(import.meta.dirname, `../../examples/${example}/openapi.yaml`));
const failedIds = (report: { results: readonly { id: string; outcome: { kind: string } }[] }) =>
  report.results.filter((r) => r.outcome.kind === 'failed').map((r) => r.id);

for (const server of EXAMPLES[example]) {
  const running = await server.start();
  try {
    const report = await runContract({
      baseUrl: running.url,
      tokens: { ...running.tokens },
      spec,
      level: 'stand-in',
      writes: process.argv.includes('--writes'),
      seed: 11,
      runs: 30,
      timeoutMs: 5000,
      concurrency: 4,
    });
    const atInterface = failedIds(judgeAt(report, 'interface'));
    const atStandIn = failedIds(report);
    console.log(
      `${server.kind.padEnd(9)} ${server.level.padEnd(9)} ${server.name.padEnd(48)} interface: ${atInterface.join(' ') || '-'} | stand-in: ${atStandIn.join(' ') || '-'}`,
    );
  } catch (error) {
    console.log(
      `${server.kind} ${server.name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await running.close();
  }
}
