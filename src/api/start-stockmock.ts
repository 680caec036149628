/**
 * @module `startStockmock`: one call that gives a test suite a running stand-in.
 *
 * It is `stockmock serve` without the command line: the same config validation, loading,
 * reloads and answers. What differs is what a test suite wants by default: a free port, no
 * request log, no config file or environment variable read unless named, and products that may
 * be given inline. The requests it served are kept for the suite to assert on, without the
 * admin API.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createRequestJournal,
  type JournalEntry,
  type JournalFilter,
} from '../admin/request-journal.ts';
import { loadConfigMarked, type ConfigLayer, type ConfigRequest } from '../config/load-config.ts';
import { formatFixture } from '../generate/format-fixture.ts';
import { createAppLogger } from '../http/app-logger.ts';
import { formatSourceIssue, SourceError, type SourceIssue } from '../problems/source-error.ts';
import type { ReloadResult } from '../scenarios/reloader.ts';
import { launch } from './launch.ts';
import { SESSION_HEADER } from '../sessions/session-store.ts';

/** One record as a fixture file lists it: `{ id, name, quantity?, status?, …extra fields }`. */
export type FixtureRecord = Readonly<Record<string, unknown>>;

/**
 * The data: records inline, by collection, or a fixture file (default: the shipped catalogue);
 * one of them.
 */
type DataOptions =
  | {
      /** Each declared collection's records, as a fixture file lists them. */
      readonly data: Readonly<Record<string, readonly FixtureRecord[]>>;
      readonly products?: never;
      readonly fixtures?: never;
    }
  | {
      /** The shipped catalogue's records: `{ id, name, quantity?, status?, …extra fields }`. */
      readonly products: readonly FixtureRecord[];
      readonly data?: never;
      readonly fixtures?: never;
    }
  | { readonly fixtures?: string; readonly products?: never; readonly data?: never };

/**
 * Any setting of the config file (docs/configuration.md), plus the data. Relative paths
 * resolve against `cwd`.
 */
export type StockmockOptions = DataOptions &
  Omit<ConfigLayer, 'fixtures' | 'watch'> & {
    /** A config file to start from; the options above win over it. Default: none. */
    readonly config?: string;
    /** Default: the process's working directory. */
    readonly cwd?: string;
  };

export interface Stockmock {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  readonly url: string;
  /** Stops listening; in-flight requests finish first. */
  close(): Promise<void>;
  /** Reads the config, the spec and the fixture files again; on any issue the last good stay served. */
  reload(): Promise<ReloadResult>;
  /** Serves a scenario of the config from now on; throws for an unknown name. */
  useScenario(name: string): void;
  /** The requests served so far, oldest first (never their tokens). */
  requests(filter?: JournalFilter): JournalEntry[];
  /** Forgets the requests served so far: between tests, for instance. */
  clearRequests(): void;
  /**
   * A session of its own, for one test: its writes are seen by its requests alone. Named as
   * given, or with a fresh unique name.
   */
  session(name?: string): StockmockSession;
  /** Ends every session, the default one too: every request reads the loaded data again. */
  resetSessions(): void;
}

/** One test's session: send its `headers` with each request (docs/writes-and-sessions.md). */
export interface StockmockSession {
  readonly name: string;
  /** `{ 'stockmock-session': name }`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Ends it: its requests read the loaded data again. */
  reset(): void;
  /** Its data over the active scenario, as a fixture holds it. */
  data(): Record<string, Record<string, unknown>[]>;
  /** The requests it sent, oldest first. */
  requests(filter?: Omit<JournalFilter, 'session'>): JournalEntry[];
}

/** Enough for any one test; the oldest entries go first. */
const JOURNAL_SIZE = 10_000;

export async function startStockmock(options: StockmockOptions = {}): Promise<Stockmock> {
  const { products, data, config: configFile, cwd = process.cwd(), ...settings } = options;
  const records = data ?? (products === undefined ? undefined : { products });
  const inline =
    records === undefined
      ? undefined
      : await writeInlineFixture(
          records,
          data === undefined ? 'startStockmock({ products })' : 'startStockmock({ data })',
        );
  try {
    const request: ConfigRequest = {
      cwd,
      env: {},
      configFile: configFile ?? false,
      flags: {
        port: 0,
        logLevel: 'silent',
        ...settings,
        ...(inline === undefined ? {} : { fixtures: inline.file }),
      },
      flagsFrom: 'startStockmock',
      onWarning: (issue) => {
        process.emitWarning(formatSourceIssue(issue), 'DeprecationWarning');
      },
    };
    const { config, marks } = await loadConfigMarked(request);
    const journal = createRequestJournal(JOURNAL_SIZE);
    const log = createAppLogger({ level: config.logLevel, format: config.logFormat });
    const { server, catalogs, reloader, sessions } = await launch({
      config,
      configMarks: marks,
      request,
      log,
      journal,
    });
    return {
      url: server.url,
      async close() {
        await server.close();
        await inline?.remove();
      },
      reload: async () => {
        const result = await reloader.reload();
        return result.ok ? result : { ok: false, issues: nameInline(result.issues, inline) };
      },
      useScenario: (name) => {
        catalogs.activate(name);
      },
      requests: (filter) => journal.list(filter),
      clearRequests: () => {
        journal.clear();
      },
      session: (name = `test-${randomUUID()}`) => ({
        name,
        headers: { [SESSION_HEADER]: name },
        reset: () => {
          sessions().reset(name);
        },
        data: () => sessions().data(name, catalogs.active, catalogs.current),
        requests: (filter) => journal.list({ ...filter, session: name }),
      }),
      resetSessions: () => {
        sessions().reset();
      },
    };
  } catch (error) {
    await inline?.remove();
    throw error instanceof SourceError ? new SourceError(nameInline(error.issues, inline)) : error;
  }
}

/** The inline products' file is ours, not the user's: an issue names the option and the field. */
function nameInline(
  issues: readonly SourceIssue[],
  inline: InlineFixture | undefined,
): SourceIssue[] {
  return issues.map((issue) =>
    issue.file === inline?.file
      ? { file: inline.source, field: issue.field, message: issue.message }
      : issue,
  );
}

interface InlineFixture {
  readonly file: string;
  /** How an issue names it, in place of the file it is written to. */
  readonly source: string;
  remove(): Promise<void>;
}

/**
 * Inline records go through the very path a fixture file takes (validation, the loading
 * worker, reloads), written to a file of their own that `close` removes.
 */
async function writeInlineFixture(
  records: Readonly<Record<string, readonly FixtureRecord[]>>,
  /** How an issue names the option the records came in. */
  source: string,
): Promise<InlineFixture> {
  const folder = await mkdtemp(join(tmpdir(), 'stockmock-'));
  const file = join(folder, 'fixture.yaml');
  const text = formatFixture(records);
  await writeFile(file, text);
  return {
    file,
    source,
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
