/**
 * @module Reload what is served as one unit, the config first: all of it valid and swapped at
 * once, or none of it.
 */
import type { Config } from '../config/config-schema.ts';
import type { SourceIssue } from '../problems/source-error.ts';
import { SourceError } from '../problems/source-error.ts';
import { marksOf, type FileMark } from '../source/read-source-text.ts';
import { loadScenarios } from './begin-load.ts';
import type { LoadPlan } from './load-scenarios.ts';
import type { Dataset, ScenarioStore } from './scenario-store.ts';

/** How many records a dataset holds, over all its collections. */
function recordsIn(dataset: Dataset): number {
  return [...dataset.sizes.values()].reduce((sum, size) => sum + size, 0);
}

export type ReloadResult =
  | { readonly ok: true; readonly scenarios: Readonly<Record<string, number>> }
  | { readonly ok: false; readonly issues: readonly SourceIssue[] };

export interface Reloader {
  /** Re-reads the config and every scenario; swaps only if all of it is valid. */
  reload(): Promise<ReloadResult>;
  /** The config the served data came from (the last good one). */
  readonly config: Config;
  /** Every local file what is served was read from: the config, the spec's files, the fixtures. */
  readonly files: readonly string[];
}

/** How a reload reads a file that may be in the middle of being written (read-source-text.ts). */
export interface ReloadReading {
  readonly settleMs: number;
  readonly lastRead: Readonly<Record<string, FileMark>>;
}

/**
 * Loads what a config serves and puts it in place at once, resolving to the datasets now
 * served and the config as served (the demo tokens of a new spec, say); or throws (a
 * SourceError names file, line and field) and leaves what is served.
 */
export type SwapServed = (
  next: Config,
  reading: ReloadReading,
) => Promise<{ readonly datasets: ReadonlyMap<string, Dataset>; readonly config: Config }>;

/** The swap of the data alone, for a spec that stays: every scenario built anew, then swapped. */
export function swapData(store: ScenarioStore, plan: LoadPlan): SwapServed {
  return async (next, reading) => {
    const datasets = await loadScenarios(next, plan, reading);
    store.replaceAll(datasets);
    return { datasets, config: next };
  };
}

/**
 * Builds the complete new set of catalogues first and swaps the store's reference only when every
 * file was valid; on any error the last good data stays served. Reloads run one at a time: a
 * reload asked for while one runs is queued once behind it (editors save in bursts).
 */
export function createReloader(options: {
  readonly swap: SwapServed;
  readonly initialConfig: Config;
  /** Reads the config again; `lastRead` says how its file looked when last read whole. */
  readonly readConfig: (lastRead: Readonly<Record<string, FileMark>>) => Promise<Config>;
  /** The config file, if one is read: a reload reads it once it settles, as the fixtures. */
  readonly configFile?: string;
  /** The local files of the spec now served (none for a spec fetched from a URL). */
  readonly specFiles?: () => readonly string[];
  /**
   * How the served files looked just before they were read (default: none known, so that each
   * file must settle or be renamed before a reload reads it).
   */
  readonly lastRead?: Promise<Record<string, FileMark>>;
}): Reloader {
  let config = options.initialConfig;
  let running: Promise<ReloadResult> | undefined;
  let queued: Promise<ReloadResult> | undefined;
  // How the files looked when last read whole: one renamed over, or not changed since, needs
  // no settling (read-source-text.ts). Each mark is taken before its file is read, never after:
  // a write in place that starts after the read must not look like the version read.
  let lastRead = options.lastRead ?? Promise.resolve({});

  const specFiles = options.specFiles ?? (() => []);
  const once = async (): Promise<ReloadResult> => {
    try {
      const marks = await lastRead;
      const configMarks = marksOf(options.configFile === undefined ? [] : [options.configFile]);
      const next = await options.readConfig(marks);
      const servedMarks = marksOf([...specFiles(), ...fixtureFiles(next)]);
      // A reload may meet a file in the middle of being written in place: read each such file
      // once it settles; one that was renamed into place at once.
      const swapped = await options.swap(next, { settleMs: next.reloadSettleMs, lastRead: marks });
      const { datasets } = swapped;
      lastRead = Promise.all([configMarks, servedMarks]).then(([a, b]) => ({ ...a, ...b }));
      config = swapped.config;
      return {
        ok: true,
        scenarios: Object.fromEntries(
          [...datasets].map(([name, dataset]) => [name, recordsIn(dataset)]),
        ),
      };
    } catch (error) {
      if (error instanceof SourceError) return { ok: false, issues: error.issues };
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, issues: [{ file: 'reload', field: '', message }] };
    }
  };

  return {
    get config() {
      return config;
    },
    get files() {
      const configFile = options.configFile === undefined ? [] : [options.configFile];
      return [...new Set([...configFile, ...specFiles(), ...fixtureFiles(config)])];
    },
    reload() {
      if (running === undefined) {
        running = once().finally(() => {
          running = undefined;
        });
        return running;
      }
      queued ??= running.then(() => {
        queued = undefined;
        return this.reload();
      });
      return queued;
    },
  };
}

/** The fixture files a config serves from: the default scenario's and each named one's. */
export function fixtureFiles(config: Config): string[] {
  return [config.fixtures, ...Object.values(config.scenarios)].filter(
    (source) => typeof source === 'string',
  );
}
