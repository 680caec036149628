/** @module `stockmock serve`: load, validate, listen. */
import { loadScenarios } from '../../scenarios/load-scenarios.ts';
import { createScenarioStore, DEFAULT_SCENARIO } from '../../scenarios/scenario-store.ts';
import { loadConfig } from '../../config/load-config.ts';
import { buildApp } from '../../http/build-app.ts';
import { closeOnSignals, startServer } from '../../http/start-server.ts';
import { loadSpec } from '../../spec/load-spec.ts';
import type { Command } from '../command.ts';
import { CONFIG_FLAGS, configFlags } from '../config-flags.ts';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the stock API from the spec and the fixtures',
  usage:
    'stockmock serve [--config FILE] [--fixtures FILE] [--scenario NAME] [--port N] [--host H]\n' +
    '                [--spec FILE] [--base-url URL] [--log-level LEVEL]',
  flags: CONFIG_FLAGS,
  async run(args, io) {
    const config = await loadConfig({ cwd: io.cwd, env: io.env, ...configFlags(args) });
    // Everything is loaded and validated before the port opens: no start on bad data.
    const spec = await loadSpec(config.spec);
    const catalogs = createScenarioStore(
      await loadScenarios(config),
      config.scenario ?? DEFAULT_SCENARIO,
    );
    const catalog = catalogs.current;
    const app = await buildApp({
      config,
      spec,
      catalogs,
      logger: { level: config.logLevel },
    });
    const server = await startServer(app, config);
    app.log.info(
      {
        products: catalog.products.length,
        scenario: catalogs.active,
        source: catalog.source,
        scenarios: catalogs.names,
      },
      `serving ${String(catalog.products.length)} products on ${server.url} (docs: ${server.url}/docs)`,
    );
    await new Promise<void>((resolve) => {
      closeOnSignals(server, resolve);
    });
    return 0;
  },
};
