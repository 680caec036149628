/**
 * @module What is served, the spec, its declarations, the data and the app built for them, and
 * how a reload replaces it as one unit: the data alone while the spec and the settings stay, a
 * new app with its own data when either changed.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/config-schema.ts';
import {
  isDemoToken,
  whereConfigSets,
  withDemoTokensFor,
  type ConfigRequest,
} from '../config/load-config.ts';
import { orderIssues, unviewedLevelIssues } from '../resources/config-fit.ts';
import { readDeclarations, type Declarations } from '../resources/declarations.ts';
import { loadScenarios } from '../scenarios/begin-load.ts';
import { loadPlanOf, type LoadPlan } from '../scenarios/load-scenarios.ts';
import { swapData, type SwapServed } from '../scenarios/reloader.ts';
import {
  createScenarioStore,
  DEFAULT_SCENARIO,
  type ScenarioStore,
} from '../scenarios/scenario-store.ts';
import type { ReadOptions } from '../source/read-source-text.ts';
import { refuseOnIssues } from '../source/read-yaml-source.ts';
import { loadSpec, specChanged, type LoadedSpec } from '../spec/load-spec.ts';
import { describeAnswers } from '../spec/route-table.ts';
import { describeWrites } from '../resources/write-declarations.ts';
import { operationsOf } from '../spec/operation-rules.ts';
import { routeSecurityOf } from '../spec/security.ts';
import type { OpenAPIV3_1 } from 'openapi-types';

/** The spec, what it declares, and what a load must build for it. */
export interface Declared {
  readonly spec: LoadedSpec;
  readonly declarations: Declarations;
  readonly plan: LoadPlan;
}

/** Everything an app is built from: one spec, one config, and data loaded for both. */
export interface Served extends Declared {
  readonly config: Config;
  /** Each scenario's data, built by the spec's plan; this app's alone. */
  readonly store: ScenarioStore;
}

/**
 * Settings read once, at start: a reload that changes them keeps the ones in use and says so
 * (a new port would need a new socket, a new log format a new logger).
 */
const START_ONLY = ['host', 'port', 'logFormat', 'watch', 'loadCache', 'scenario'] as const;

/** Settings of the data alone: a reload applies them by loading the data again, in the same app. */
const DATA_ONLY: ReadonlySet<string> = new Set([
  'fixtures',
  'scenarios',
  'reloadSettleMs',
  'maxFixtureBytes',
]);

export interface Serving {
  /** The scenarios of what is served now, whichever app serves them. */
  readonly catalogs: ScenarioStore;
  /** The spec served now. */
  readonly spec: LoadedSpec;
  /** A reload's swap (reloader.ts): the data alone, or a new app when the spec or a setting changed. */
  readonly swap: SwapServed;
}

/**
 * Holds what is served and replaces it. `build` makes an app for a Served and `serveWith` puts
 * it in front of the listening socket; a request meets one spec and its own data from its first
 * hook to its last, since each app reads only the store it was built with.
 */
export function createServing(options: {
  readonly initial: Served;
  readonly request: ConfigRequest;
  readonly log: Logger;
  readonly build: (served: Served) => Promise<FastifyInstance>;
  readonly serveWith: (app: FastifyInstance) => void;
}): Serving {
  const { request, log } = options;
  let served = options.initial;

  const swap: SwapServed = async (read, reading) => {
    const kept = keepStartOnly(served.config, read, log);
    // As the spec now served would take it: if it stays, so do its demo tokens.
    const next = withDemoTokensFor(kept, served.declarations.levels);
    if (!(await rebuildNeeded(served, next))) {
      const { datasets } = await swapData(served.store, served.plan)(next, reading);
      served = { ...served, config: next };
      return { datasets, config: next };
    }
    const declared = await readDeclared(kept, request, reading);
    const datasets = await loadScenarios(declared.config, declared.plan, reading);
    const store = createScenarioStore(datasets, DEFAULT_SCENARIO);
    if (declared.config.logLevel !== served.config.logLevel) log.level = declared.config.logLevel;
    const app = await options.build({ ...declared, store });
    await app.ready();
    // The scenario chosen while the new app was built, if the new data has it.
    if (datasets.has(served.store.active)) store.activate(served.store.active);
    options.serveWith(app);
    served = { ...declared, store };
    log.info(`serving the spec ${declared.spec.file} anew: ${answersOf(declared)}`);
    return { datasets, config: declared.config };
  };

  const catalogs: ScenarioStore = {
    get active() {
      return served.store.active;
    },
    get names() {
      return served.store.names;
    },
    get current() {
      return served.store.current;
    },
    get: (name) => served.store.get(name),
    activate: (name) => {
      served.store.activate(name);
    },
    replace: (dataset) => {
      served.store.replace(dataset);
    },
    replaceAll: (datasets) => {
      served.store.replaceAll(datasets);
    },
  };

  return {
    catalogs,
    get spec() {
      return served.spec;
    },
    swap,
  };
}

/** The start log's line: which operations come from data, which from the spec's examples. */
export function answersOf({ spec, declarations }: Declared): string {
  const writes = describeWrites(declarations.operations);
  const answers = describeAnswers(spec, new Set(declarations.operations.keys()));
  return writes === undefined ? answers : `${answers}; ${writes}`;
}

/**
 * The start log's line on credentials: where they come from, by levels and schemes, and how
 * they are checked (http/plugins/route-security.ts); never a token, not even a demo one.
 */
export function credentialsLine(
  { spec, declarations }: Declared,
  config: Pick<Config, 'tokens'>,
): string {
  const document = spec.dereferenced;
  const schemes = (document.components?.securitySchemes ?? {}) as Record<
    string,
    OpenAPIV3_1.SecuritySchemeObject | undefined
  >;
  const secured = operationsOf(spec).some(
    ({ operation }) =>
      routeSecurityOf(operation.security ?? document.security ?? [], schemes).kind === 'secured',
  );
  if (!secured) return 'credentials: none asked (the spec secures no operation)';
  const levels = [...new Set(config.tokens.map(({ level }) => level))].join(', ');
  const configured = config.tokens.filter((grant) => !isDemoToken(grant)).length;
  if (declarations.levels.length > 0) {
    return configured === 0
      ? `tokens: the demo tokens (LEVEL-demo-token), at the levels ${levels} (README, "Try it"); set tokens in the config, or STOCKMOCK_TOKENS, for your own`
      : `tokens: ${String(config.tokens.length)} from the config, at the levels ${levels}`;
  }
  return configured === 0
    ? 'credentials: any of the form each security scheme asks for is taken, as the spec names no access levels; set tokens in the config, or STOCKMOCK_TOKENS, to check them'
    : `credentials: ${String(configured)} from the config, checked for the schemes they name (every scheme where they name none); a scheme without one takes any credential of its form`;
}

/**
 * The spec, what it declares, what a load must build for it, and the config as it serves that
 * spec (with no tokens set, the demo tokens of its levels); refused where the config does not fit.
 */
export async function readDeclared(
  read: Config,
  request: ConfigRequest,
  reading: ReadOptions = {},
): Promise<Declared & { readonly config: Config }> {
  const spec = await loadSpec(read.spec, reading);
  const declarations = readDeclarations(spec, { strict: read.strict });
  const config = withDemoTokensFor(read, declarations.levels);
  // Checked here, where the config's own place of each token is known.
  refuseOnIssues([
    ...unviewedLevelIssues(declarations, config.tokens, await whereConfigSets(request, 'tokens')),
    ...orderIssues(
      declarations,
      config.compatibility.order,
      await whereConfigSets(request, 'compatibility'),
    ),
  ]);
  return { spec, declarations, plan: loadPlanOf(declarations, config.compatibility), config };
}

/** Whether the app must be built again: a setting it is built from changed, or the spec did. */
async function rebuildNeeded(served: Served, next: Config): Promise<boolean> {
  const builtFrom = (config: Config): string =>
    JSON.stringify(
      Object.entries(config)
        .filter(([key]) => !DATA_ONLY.has(key))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  return builtFrom(next) !== builtFrom(served.config) || (await specChanged(served.spec));
}

/** The config a reload read, with the start-only settings in use; a change to one is logged. */
function keepStartOnly(current: Config, read: Config, log: Logger): Config {
  const changed = START_ONLY.filter(
    (key) => JSON.stringify(read[key]) !== JSON.stringify(current[key]),
  );
  if (changed.length === 0) return read;
  log.warn(
    `${changed.join(', ')} changed in the config: read at start only, so the next start applies ${changed.length === 1 ? 'it' : 'them'}`,
  );
  return { ...read, ...Object.fromEntries(changed.map((key) => [key, current[key]])) };
}
