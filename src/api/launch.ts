/** @module Load, build and listen: the one start-up sequence of `stockmock serve` and `startStockmock`. */
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { RequestJournal } from '../admin/request-journal.ts';
import type { Config } from '../config/config-schema.ts';
import {
  findConfigFile,
  loadConfig,
  whereConfigSets,
  type ConfigRequest,
} from '../config/load-config.ts';
import { orderIssues, unviewedLevelIssues } from '../resources/config-fit.ts';
import { refuseOnIssues } from '../source/read-yaml-source.ts';
import { buildApp } from './build-app.ts';
import { startServer, type RunningServer } from '../http/start-server.ts';
import { defaultLoadCacheDir } from '../scenarios/load-cache.ts';
import { beginLoad, loadPlanOf, type LoadPlan } from '../scenarios/load-scenarios.ts';
import { readDeclarations, type Declarations } from '../resources/declarations.ts';
import { createReloader, fixtureFiles, type Reloader } from '../scenarios/reloader.ts';
import { marksOf, type FileMark } from '../source/read-source-text.ts';
import {
  createScenarioStore,
  DEFAULT_SCENARIO,
  type ScenarioStore,
} from '../scenarios/scenario-store.ts';
import { loadSpec, type LoadedSpec } from '../spec/load-spec.ts';
import { describeAnswers } from '../spec/route-table.ts';

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
  /** How the config file looked just before it was read (loadConfigMarked). */
  readonly configMarks?: Readonly<Record<string, FileMark>>;
  readonly request: ConfigRequest;
  readonly log: Logger;
  readonly journal?: RequestJournal;
  /** Called once the port is open, before that is logged (startServer). */
  readonly onListening?: (launched: Launched) => void;
}): Promise<Launched> {
  const { config, configMarks = {}, request, log, journal, onListening } = options;
  // How the files look before they are read: what a reload may take as read whole.
  const lastRead = marksOf(fixtureFiles(config)).then((marks) => ({ ...configMarks, ...marks }));
  // The files are read while the spec is: nothing is served yet, so every core may load.
  const loading = beginLoad(config, {
    workers: availableParallelism(),
    ...(config.loadCache === false ? {} : { cache: { dir: loadCacheDirOf(config.loadCache) } }),
  });
  const readingSince = performance.now();
  const { spec, declarations, plan } = await readDeclared(config, request).catch(
    (error: unknown) => {
      loading.cancel();
      throw error;
    },
  );
  const readingMs = performance.now() - readingSince;
  // A spec of thousands of operations takes seconds (about 0.45 ms each, bench/README.md): say
  // what the wait was, rather than nothing until the port opens.
  if (readingMs >= SLOW_SPEC_MS) {
    log.info(
      `read the spec ${spec.file} (${String(declarations.operations.size)} operations) in ${(readingMs / 1000).toFixed(1)} s; building the routes`,
    );
  }
  log.info(describeAnswers(spec, new Set(declarations.operations.keys())));
  const configFile = await findConfigFile(request);
  const { datasets, cached } = await loading.finish(plan);
  if (cached.length > 0) {
    log.info(
      `read back from the load cache, as built before from the same data: ${cached.join(', ')}`,
    );
  }
  const catalogs = createScenarioStore(datasets, config.scenario ?? DEFAULT_SCENARIO);
  const reloader = createReloader({
    store: catalogs,
    plan,
    lastRead,
    initialConfig: config,
    // The config file too is read once it settles, as the last good config says.
    readConfig: (lastRead) =>
      loadConfig({ ...request, settleMs: reloader.config.reloadSettleMs, lastRead }),
    ...(configFile === undefined ? {} : { configFile }),
  });
  const app = await buildApp({
    config,
    spec,
    declarations,
    catalogs,
    reloader,
    log,
    ...(journal === undefined ? {} : { journal }),
  });
  const server = await startServer(app, config, (listening) => {
    onListening?.({ server: listening, catalogs, reloader });
  });
  return { server, catalogs, reloader };
}

/** A spec that takes longer than this to read is told of in the log. */
const SLOW_SPEC_MS = 1000;

/** The load cache's folder: the user's own by default (`loadCache: true`). */
function loadCacheDirOf(setting: true | string): string {
  return setting === true ? defaultLoadCacheDir() : setting;
}

/** The spec, what it declares, and what a load must build for it; refused where the config does not fit. */
async function readDeclared(
  config: Config,
  request: ConfigRequest,
): Promise<{ spec: LoadedSpec; declarations: Declarations; plan: LoadPlan }> {
  const spec = await loadSpec(config.spec);
  const declarations = readDeclarations(spec, { strict: config.strict });
  // Checked here, where the config's own place of each token is known.
  refuseOnIssues([
    ...unviewedLevelIssues(declarations, config.tokens, await whereConfigSets(request, 'tokens')),
    ...orderIssues(
      declarations,
      config.compatibility.order,
      await whereConfigSets(request, 'compatibility'),
    ),
  ]);
  return { spec, declarations, plan: loadPlanOf(declarations, config.compatibility) };
}
