/** @module Load, build and listen: the one start-up sequence of `stockmock serve` and `startStockmock`. */
import type { Logger } from 'pino';
import type { RequestJournal } from '../admin/request-journal.ts';
import type { Config } from '../config/config-schema.ts';
import { loadConfig, type ConfigRequest } from '../config/load-config.ts';
import { buildApp } from '../http/build-app.ts';
import { startServer, type RunningServer } from '../http/start-server.ts';
import { loadScenarios } from '../scenarios/load-scenarios.ts';
import { createReloader, type Reloader } from '../scenarios/reloader.ts';
import {
  createScenarioStore,
  DEFAULT_SCENARIO,
  type ScenarioStore,
} from '../scenarios/scenario-store.ts';
import { loadSpec } from '../spec/load-spec.ts';

export interface Launched {
  readonly server: RunningServer;
  readonly catalogs: ScenarioStore;
  readonly reloader: Reloader;
}

/**
 * Everything is loaded and validated before the port opens: no start on bad data. A reload
 * reads the config again from the same request, once its files have settled.
 */
export async function launch(options: {
  readonly config: Config;
  readonly request: ConfigRequest;
  readonly log: Logger;
  readonly journal?: RequestJournal;
}): Promise<Launched> {
  const { config, request, log, journal } = options;
  // The scenarios load in a worker, so the spec is read here meanwhile.
  const [spec, scenarios] = await Promise.all([loadSpec(config.spec), loadScenarios(config)]);
  const catalogs = createScenarioStore(scenarios, config.scenario ?? DEFAULT_SCENARIO);
  const reloader = createReloader({
    store: catalogs,
    initialConfig: config,
    // The config file too is read once it settles, as the last good config says.
    readConfig: () => loadConfig({ ...request, settleMs: reloader.config.reloadSettleMs }),
  });
  const app = await buildApp({
    config,
    spec,
    catalogs,
    reloader,
    log,
    ...(journal === undefined ? {} : { journal }),
  });
  return { server: await startServer(app, config), catalogs, reloader };
}
