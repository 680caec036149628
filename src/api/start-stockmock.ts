/**
 * @module `startStockmock`: one call that gives a test suite a running stand-in.
 *
 * It is `stockmock serve` without the command line: the same config validation, loading,
 * reloads and answers. What differs is what a test suite wants by default: a free port, no
 * request log, no config file or environment variable read unless named, and products that may
 * be given inline. The requests it served are kept for the suite to assert on, without the
 * admin API.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createRequestJournal,
  type JournalEntry,
  type JournalFilter,
} from '../admin/request-journal.ts';
import { loadConfigMarked, type ConfigLayer, type ConfigRequest } from '../config/load-config.ts';
import { FIXTURE_HEADER, formatFixtureLine } from '../generate/format-fixture.ts';
import { createAppLogger } from '../http/app-logger.ts';
import { formatSourceIssue, SourceError, type SourceIssue } from '../problems/source-error.ts';
import type { ReloadResult } from '../scenarios/reloader.ts';
import { launch } from './launch.ts';

/** One record as a fixture file lists it: `{ id, name, quantity?, status?, …extra fields }`. */
export type FixtureRecord = Readonly<Record<string, unknown>>;

/** The data: products inline, or a fixture file (default: the shipped catalogue); not both. */
type DataOptions =
  | {
      /** As a fixture file lists them: `{ id, name, quantity?, status?, …extra fields }`. */
      readonly products: readonly FixtureRecord[];
      readonly fixtures?: never;
    }
  | { readonly fixtures?: string; readonly products?: never };

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
}

/** Enough for any one test; the oldest entries go first. */
const JOURNAL_SIZE = 10_000;

/** How inline products are named in an issue, in place of the file they are written to. */
const INLINE_SOURCE = 'startStockmock({ products })';

export async function startStockmock(options: StockmockOptions = {}): Promise<Stockmock> {
  const { products, config: configFile, cwd = process.cwd(), ...settings } = options;
  const inline = products === undefined ? undefined : await writeInlineFixture(products);
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
    const { server, catalogs, reloader } = await launch({
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
      ? { file: INLINE_SOURCE, field: issue.field, message: issue.message }
      : issue,
  );
}

interface InlineFixture {
  readonly file: string;
  remove(): Promise<void>;
}

/**
 * Inline products go through the very path a fixture file takes (validation, the loading
 * worker, reloads), written to a file of their own that `close` removes.
 */
async function writeInlineFixture(products: readonly FixtureRecord[]): Promise<InlineFixture> {
  const folder = await mkdtemp(join(tmpdir(), 'stockmock-'));
  const file = join(folder, 'products.yaml');
  await writeFile(file, FIXTURE_HEADER + products.map(formatFixtureLine).join(''));
  return { file, remove: () => rm(folder, { recursive: true, force: true }) };
}
