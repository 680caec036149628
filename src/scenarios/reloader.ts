/** @module Reload config and data as one unit: all of it valid and swapped at once, or none of it. */
import type { Config } from '../config/config-schema.ts';
import type { SourceIssue } from '../problems/source-error.ts';
import { SourceError } from '../problems/source-error.ts';
import { marksOf, type FileMark } from '../source/read-source-text.ts';
import { loadScenarios, type LoadPlan } from './load-scenarios.ts';
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
}

/**
 * Builds the complete new set of catalogues first and swaps the store's reference only when every
 * file was valid; on any error the last good data stays served. Reloads run one at a time: a
 * reload asked for while one runs is queued once behind it (editors save in bursts).
 */
export function createReloader(options: {
  readonly store: ScenarioStore;
  readonly initialConfig: Config;
  /** Reads the config again; `lastRead` says how its file looked when last read whole. */
  readonly readConfig: (lastRead: Readonly<Record<string, FileMark>>) => Promise<Config>;
  /** The config file, if one is read: a reload reads it once it settles, as the fixtures. */
  readonly configFile?: string;
  /** What the spec's declarations ask a load to build; the spec is read once, at start. */
  readonly plan: LoadPlan;
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

  const once = async (): Promise<ReloadResult> => {
    try {
      const marks = await lastRead;
      const configMarks = marksOf(options.configFile === undefined ? [] : [options.configFile]);
      const next = await options.readConfig(marks);
      const fixtureMarks = marksOf(fixtureFiles(next));
      // A reload may meet a file in the middle of being written in place: read each such file
      // once it settles; one that was renamed into place at once.
      const datasets = await loadScenarios(next, options.plan, {
        settleMs: next.reloadSettleMs,
        lastRead: marks,
      });
      options.store.replaceAll(datasets);
      lastRead = Promise.all([configMarks, fixtureMarks]).then(([a, b]) => ({ ...a, ...b }));
      config = next;
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
