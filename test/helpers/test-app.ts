/** @module Builds the app for tests: the shipped spec, a catalogue from YAML text or a file. */
import type { FastifyInstance } from 'fastify';
import { createScenarioStore, type ScenarioStore } from '../../src/scenarios/scenario-store.ts';
import type { Compatibility } from '../../src/compatibility/compatibility.ts';
import type { Config } from '../../src/config/config-schema.ts';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { buildApp, type AppDeps } from '../../src/api/build-app.ts';
import { loadDataset, parseDataset } from './datasets.ts';
import { shippedSpecOnce } from './shipped-spec.ts';

export { shippedSpecOnce } from './shipped-spec.ts';

export const STATUS_TOKEN = 'status-demo-token';
export const QUANTITY_TOKEN = 'quantity-demo-token';

export interface TestAppOptions {
  /** Fixture YAML text; default: the shipped catalogue. */
  readonly fixture?: string;
  /** Settings over the defaults; `compatibility` merges one level deep, as config layers do. */
  readonly config?: Partial<Omit<Config, 'compatibility'>> & {
    readonly compatibility?: Partial<Compatibility>;
  };
  /** The server's logger; silent by default. */
  readonly log?: AppDeps['log'];
}

export async function buildTestApp(
  options: TestAppOptions = {},
): Promise<{ app: FastifyInstance; catalogs: ScenarioStore }> {
  const order = { order: options.config?.compatibility?.order ?? 'id' };
  const dataset =
    options.fixture === undefined
      ? await loadDataset(DEFAULTS.fixtures, order)
      : parseDataset('test.yaml', options.fixture, order);
  const catalogs = createScenarioStore(dataset);
  const app = await buildApp({
    config: {
      ...DEFAULTS,
      ...options.config,
      compatibility: { ...DEFAULTS.compatibility, ...options.config?.compatibility },
    },
    spec: await shippedSpecOnce(),
    catalogs,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  return { app, catalogs };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}
