/** @module The servers written apart from the checker, by family, each with its spec. */
import { resolve } from 'node:path';
import { runContract, type Report } from '../../src/contract/run-contract.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { shippedSpecOnce } from '../helpers/test-app.ts';
import { BILLING_REFERENCE } from './billing/billing-servers.ts';
import { BILLING_VARIANTS } from './billing/billing-variants.ts';
import { CHARGES_REFERENCE, CHARGES_VARIANTS } from './charges/charges-servers.ts';
import { EVENTS_REFERENCE, EVENTS_VARIANTS } from './events/events-servers.ts';
import { INDEPENDENT_SERVERS, REFERENCE } from './independent/servers.ts';
import { ORDERS_REFERENCE, ORDERS_VARIANTS } from './orders/orders-servers.ts';
import { WAREHOUSE_REFERENCE, WAREHOUSE_VARIANTS } from './warehouses/warehouse-servers.ts';

export interface WrittenApart {
  readonly name: string;
  readonly kind: 'reference' | 'broken' | 'different';
  readonly level: 'interface' | 'stand-in';
  start(): Promise<{
    readonly url: string;
    readonly tokens: object;
    close(): Promise<void>;
  }>;
}

const root = resolve(import.meta.dirname, '../..');
const specOf = (path: string) => () => loadSpec(resolve(root, path));
export const FAMILIES: readonly {
  readonly family: string;
  readonly spec: () => Promise<LoadedSpec>;
  readonly servers: readonly WrittenApart[];
}[] = [
  { family: 'stock', spec: shippedSpecOnce, servers: [REFERENCE, ...INDEPENDENT_SERVERS] },
  {
    family: 'warehouses',
    spec: specOf('examples/warehouses/openapi.yaml'),
    servers: [WAREHOUSE_REFERENCE, ...WAREHOUSE_VARIANTS],
  },
  {
    family: 'billing',
    spec: specOf('examples/billing/openapi.yaml'),
    servers: [BILLING_REFERENCE, ...BILLING_VARIANTS],
  },
  {
    family: 'orders',
    spec: specOf('examples/orders/openapi.yaml'),
    servers: [ORDERS_REFERENCE, ...ORDERS_VARIANTS],
  },
  {
    family: 'events',
    spec: specOf('examples/events/openapi.yaml'),
    servers: [EVENTS_REFERENCE, ...EVENTS_VARIANTS],
  },
  {
    family: 'charges',
    spec: specOf('test/contract/charges/openapi.yaml'),
    servers: [CHARGES_REFERENCE, ...CHARGES_VARIANTS],
  },
];

/** One run of the checker, at the stand-in level, against a server started for it. */
export async function checkServer(
  server: WrittenApart,
  spec: LoadedSpec,
  seed: number,
): Promise<Report> {
  const running = await server.start();
  try {
    return await runContract({
      baseUrl: running.url,
      tokens: { ...(running.tokens as Record<string, string>) },
      spec,
      level: 'stand-in',
      seed,
      runs: 30,
      timeoutMs: 5000,
      concurrency: 4,
    });
  } finally {
    await running.close();
  }
}
