/** @module Load, build and listen: the one start-up sequence of `stockmock serve` and `startStockmock`. */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createRequestJournal, type RequestJournal } from '../admin/request-journal.ts';
import type { Config } from '../config/config-schema.ts';
import { findConfigFile, loadConfig, type ConfigRequest } from '../config/load-config.ts';
import { buildApp, DEFAULT_JOURNAL_SIZE } from './build-app.ts';
import { beginStart, type StartBegun } from './begin-start.ts';
import { answersOf, createServing, credentialsLine, type Served } from './serving.ts';
import { startServer, type RunningServer } from '../http/start-server.ts';
import { holdTickObjectShape } from '../util/held-tick-shape.ts';
import { createReloader, type Reloader } from '../scenarios/reloader.ts';
import type { FileMark } from '../source/read-source-text.ts';
import { DEFAULT_SCENARIO, storeToFill, type ScenarioStore } from '../scenarios/scenario-store.ts';
import { specFiles } from '../spec/load-spec.ts';
import { loadPlanOf } from '../scenarios/load-scenarios.ts';
import {
  createSessionStore,
  sessionLimitsOf,
  type SessionStore,
} from '../sessions/session-store.ts';

export interface Launched {
  readonly server: RunningServer;
  readonly catalogs: ScenarioStore;
  readonly reloader: Reloader;
  /** The sessions of the app that answers now: a new spec starts them anew. */
  readonly sessions: () => SessionStore;
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
  /** The start's first half, if the caller began it (serve does, before this module loads). */
  readonly begun?: StartBegun;
  readonly log: Logger;
  readonly journal?: RequestJournal;
  /** Called once the port is open, before that is logged (startServer). */
  readonly onListening?: (launched: Launched) => void;
}): Promise<Launched> {
  // The command did so first thing; a test suite's process (startStockmock) does it here.
  holdTickObjectShape();
  const { request, log, onListening } = options;
  const begun = options.begun ?? (await beginStart(options.config, request, options.configMarks));
  const { declared, lastRead, readingMs } = begun;
  const { spec, declarations, config } = declared;
  // A spec of thousands of operations takes seconds (about 0.45 ms each, bench/README.md): say
  // what the wait was, rather than nothing until the port opens.
  if (readingMs >= SLOW_SPEC_MS) {
    log.info(
      `read the spec ${spec.file} (${String(declarations.operations.size)} operations) in ${(readingMs / 1000).toFixed(1)} s; building the routes`,
    );
  }
  log.info(answersOf(declared));
  log.info(credentialsLine(declared, config));
  const configFile = await findConfigFile(request);
  // The app is built while the workers build the data (80-100 ms of a start).
  const filling = storeToFill(config.scenario ?? DEFAULT_SCENARIO);
  const initial: Served = { ...declared, config, store: filling.store };
  // One journal for every app a reload builds: the requests served stay listed across them.
  let journal = options.journal;
  // Writes are kept by the spec's collections: a new spec (a reload that changed it) ends them,
  // and says so. A reload of data alone keeps them, replayed over the new data.
  let sessions: SessionStore | undefined;
  const build = async (served: Served): Promise<FastifyInstance> => {
    if (journal === undefined && served.config.admin?.token !== undefined) {
      journal = createRequestJournal(served.config.admin.journalSize ?? DEFAULT_JOURNAL_SIZE);
    }
    const next = createSessionStore(
      loadPlanOf(served.declarations, served.config.compatibility),
      sessionLimitsOf(served.config.sessions),
    );
    const app = await buildApp({
      config: served.config,
      spec: served.spec,
      declarations: served.declarations,
      catalogs: served.store,
      reloader,
      log,
      sessions: next,
      ...(journal === undefined ? {} : { journal }),
    });
    const ended = sessions?.list().length ?? 0;
    if (ended > 0) {
      log.info(
        `the spec changed: ${String(ended)} session${ended === 1 ? '' : 's'} with writes ended`,
      );
    }
    sessions = next;
    return app;
  };
  let running: RunningServer | undefined;
  const serving = createServing({
    initial,
    request,
    log,
    build,
    // Reloads are asked for only once the port is open (signals, the admin API, the returned
    // handle), so there is always a server to point at the new app.
    serveWith: (app) => {
      if (running === undefined) throw new Error('a new spec can be served only once listening');
      running.serveWith(app);
    },
  });
  const reloader: Reloader = createReloader({
    swap: serving.swap,
    specFiles: () => specFiles(serving.spec),
    lastRead,
    initialConfig: config,
    // The config file too is read once it settles, as the last good config says.
    readConfig: (lastRead) =>
      loadConfig({ ...request, settleMs: reloader.config.reloadSettleMs, lastRead }),
    ...(configFile === undefined ? {} : { configFile }),
  });
  const app = await build(initial);
  try {
    const { datasets, cached } = await begun.loaded;
    if (cached.length > 0) {
      log.info(
        `read back from the load cache, as built before from the same data: ${cached.join(', ')}`,
      );
    }
    filling.fill(datasets);
  } catch (error) {
    await app.close();
    throw error;
  }
  const { catalogs } = serving;
  const currentSessions = (): SessionStore => {
    if (sessions === undefined) throw new Error('no app is built yet');
    return sessions;
  };
  const server = await startServer(app, config, (listening) => {
    running = listening;
    onListening?.({ server: listening, catalogs, reloader, sessions: currentSessions });
  });
  return { server, catalogs, reloader, sessions: currentSessions };
}

/** A spec that takes longer than this to read is told of in the log. */
const SLOW_SPEC_MS = 1000;
