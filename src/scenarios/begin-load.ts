/**
 * @module A load's start: its scenarios shared out to loading workers (load-worker.ts), each
 * reading its files at once, and the plan sent once the spec says it.
 *
 * Light on purpose: `serve` begins the load as soon as the config is read, and only then loads
 * the server's own modules, so that the worker reads the files meanwhile.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DEFAULT_SCENARIO, type Config } from '../config/config-schema.ts';
import type { Dataset } from '../dataset/dataset.ts';
import { GENERATED_BYTES_PER_RECORD } from '../generate/format-fixture.ts';
import { SourceError } from '../problems/source-error.ts';
import type { ReadOptions } from '../source/read-source-text.ts';
import { defaultLoadCacheDir } from './load-cache.ts';
import type { LoadJob, LoadOutcome, LoadPlan, ScenarioSource } from './load-scenarios.ts';
import { takeLoadWorker, WORKER_READY } from './load-threads.ts';

/**
 * The load of a start: every core (nothing is served yet), and the load cache unless the
 * config turns it off.
 */
export function beginStartLoad(config: Config): PendingLoad {
  const { loadCache } = config;
  return beginLoad(config, {
    workers: availableParallelism(),
    ...(loadCache === false
      ? {}
      : { cache: { dir: loadCache === true ? defaultLoadCacheDir() : loadCache } }),
  });
}

/** A load under way: its workers read the files while the declarations are still unknown. */
export interface PendingLoad {
  /**
   * Builds every scenario by the plan. Rejects with the issues of the first scenario, in config
   * order, that fails, so that nothing is served, or swapped in, unless all of it is valid.
   */
  finish(plan: LoadPlan): Promise<LoadedScenarios>;
  /** Ends the workers: the start failed before the plan was known. */
  cancel(): void;
}

export interface LoadedScenarios {
  readonly datasets: ReadonlyMap<string, Dataset>;
  /** The scenarios read back from the load cache, in config order. */
  readonly cached: readonly string[];
}

/**
 * Starts loading `default` (the `fixtures`) and every named scenario, in up to `workers`
 * threads, each reading its files at once: a start reads the spec meanwhile, which says what
 * the records must be. Scenarios are shared out by their size, largest first, so that the
 * shipped config's generated `large` loads beside the default catalogue, not after it.
 */
export function beginLoad(
  config: Pick<Config, 'fixtures' | 'scenarios' | 'maxFixtureBytes'>,
  options: ReadOptions & { readonly workers?: number; readonly cache?: LoadJob['cache'] } = {},
): PendingLoad {
  const { workers = 1, cache, ...readOptions } = options;
  const sources: [string, ScenarioSource][] = [
    [DEFAULT_SCENARIO, config.fixtures],
    ...Object.entries(config.scenarios),
  ];
  const shares = shareOut(sources, Math.max(1, Math.min(workers, sources.length)));
  const started = shares.map((share) =>
    startWorker({
      sources: share,
      options: { ...readOptions, maxBytes: config.maxFixtureBytes },
      ...(cache === undefined ? {} : { cache }),
    }),
  );
  return {
    async finish(plan) {
      const outcomes = await Promise.all(started.map((worker) => worker.finish(plan)));
      const loaded = new Map(outcomes.flatMap((outcome) => (outcome.ok ? outcome.scenarios : [])));
      const failed = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome]));
      const order = sources.map(([name]) => name);
      const [first] = failed.sort((a, b) => order.indexOf(a.scenario) - order.indexOf(b.scenario));
      if (first !== undefined) throw new SourceError(first.issues);
      const cached = new Set(outcomes.flatMap((outcome) => (outcome.ok ? outcome.cached : [])));
      const { datasetOf } = await import('./load-scenarios.ts');
      return {
        datasets: new Map(
          order.map((name) => [name, datasetOf(loaded.get(name) ?? [], plan)] as const),
        ),
        cached: order.filter((name) => cached.has(name)),
      };
    },
    cancel() {
      for (const worker of started) worker.cancel();
    },
  };
}

/** Loads every scenario of a config, in a worker (see beginLoad); the load cache is not used. */
export async function loadScenarios(
  config: Config,
  plan: LoadPlan,
  options: ReadOptions = {},
): Promise<ReadonlyMap<string, Dataset>> {
  return (await beginLoad(config, options).finish(plan)).datasets;
}

/**
 * The scenarios in `count` shares of about equal work, each in config order: a file's work is
 * its size, a generated scenario's the size of the generator's file of as many records.
 */
function shareOut(
  sources: readonly (readonly [string, ScenarioSource])[],
  count: number,
): (readonly [string, ScenarioSource])[][] {
  if (count === 1) return [[...sources]];
  const weightOf = ([, source]: readonly [string, ScenarioSource]): number => {
    if (typeof source !== 'string') return source.generate.count * GENERATED_BYTES_PER_RECORD;
    try {
      return statSync(source).size;
    } catch {
      // Told by the worker that reads it.
      return 0;
    }
  };
  const weighed = sources.map((source, index) => ({ source, index, weight: weightOf(source) }));
  const shares = Array.from({ length: count }, () => ({
    weight: 0,
    members: [] as typeof weighed,
  }));
  for (const one of [...weighed].sort((a, b) => b.weight - a.weight)) {
    const lightest = shares.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.weight += one.weight;
    lightest.members.push(one);
  }
  return shares
    .filter((share) => share.members.length > 0)
    .map((share) => share.members.sort((a, b) => a.index - b.index).map((one) => one.source));
}

/** What the serving thread sends a loading worker: its job, then the plan. */
export type LoadMessage =
  | { readonly kind: 'job'; readonly job: LoadJob }
  | { readonly kind: 'plan'; readonly plan: LoadPlan };

/** One loading worker, reading from its job; the plan is sent once known. */
function startWorker(job: LoadJob): {
  finish(plan: LoadPlan): Promise<LoadOutcome>;
  cancel(): void;
} {
  const worker = takeLoadWorker();
  const ready = Promise.withResolvers<undefined>();
  const outcome = new Promise<LoadOutcome>((resolve, reject) => {
    worker.on('message', (message: LoadOutcome | typeof WORKER_READY) => {
      if (message === WORKER_READY) ready.resolve(undefined);
      else resolve(message);
    });
    worker.once('error', reject);
    // After its answer the worker ends by itself; an end without one is a failure.
    worker.once('exit', (code) => {
      reject(new Error(`the loading worker ended (exit code ${String(code)}) without an answer`));
    });
  });
  // Read only through finish(); a cancelled worker's end is no failure to report.
  outcome.catch(() => undefined);
  const send = (message: LoadMessage): void => {
    worker.postMessage(message);
  };
  send({ kind: 'job', job });
  return {
    finish(plan) {
      send({ kind: 'plan', plan });
      return outcome;
    },
    cancel() {
      // Not while it loads its modules: a thread ended in the middle of that has crashed the
      // process (SIGSEGV, seen once in the test suite). Once loaded, or once ended, it goes.
      worker.once('exit', () => {
        ready.resolve(undefined);
      });
      void ready.promise.then(() => worker.terminate());
    },
  };
}
