/**
 * @module Every scenario of a config, loaded and validated before any of it is served.
 *
 * Reading, parsing, validating, building the columns and the query engine's indexes happen in
 * a worker thread (load-worker.ts), one per load: a 100 000-product file took the serving
 * thread 0.3–0.6 s, during which nothing was answered. The worker hands over columns (typed
 * arrays move, strings come packed); the serving thread only wraps them (8–37 ms at 100 000
 * products), so a reload never stalls the requests it serves meanwhile, and the parse's garbage
 * never reaches the serving thread's heap: it ends with the worker.
 */
import { Worker } from 'node:worker_threads';
import {
  buffersOf,
  catalogData,
  catalogFromData,
  type Catalog,
  type CatalogData,
} from '../catalog/catalog.ts';
import { createNameTable, loadCatalogData, toProduct } from '../catalog/load-catalog.ts';
import type { Config } from '../config/config-schema.ts';
import {
  extrasBuffersOf,
  extrasJsonOf,
  type GeneratedExtrasData,
} from '../generate/generated-extras.ts';
import { SourceError, type SourceIssue } from '../problems/source-error.ts';
import type { ReadOptions } from '../source/read-source-text.ts';
import { buildEngineData, engineDataBuffers, type EngineData } from '../query/engine.ts';
import { adoptNameOrder, nameOrderOf } from '../query/list-rules.ts';
import { DEFAULT_SCENARIO, type LoadedScenario } from './scenario-store.ts';

export type ScenarioSource = Config['scenarios'][string];

/** One scenario as columns: what a load builds. */
export interface ScenarioData {
  readonly catalog: CatalogData;
  /** A generated catalogue's extra fields, kept by column. */
  readonly generated?: GeneratedExtrasData;
}

/** A scenario as the loading worker hands it over: its columns and the engine's indexes. */
export interface IndexedScenarioData {
  readonly data: ScenarioData;
  readonly indexes: EngineData;
  /** The positions in name order, made only where lists are ordered by name. */
  readonly nameOrder?: Int32Array;
}

/** Loads one scenario as columns: a fixture file, or a catalogue generated from a count and a seed. */
export async function loadScenarioData(
  source: ScenarioSource,
  options: ReadOptions = {},
): Promise<ScenarioData> {
  if (typeof source === 'string') return { catalog: await loadCatalogData(source, options) };
  const { count, seed = 1 } = source.generate;
  // Loaded on use: faker's word lists cost start-up time that file-only configs should not pay.
  const { generateProducts } = await import('../generate/generate-products.ts');
  const { createGeneratedExtras } = await import('../generate/generated-extras.ts');
  const names = createNameTable();
  const extras = createGeneratedExtras(count);
  const products = Array.from(generateProducts({ count, seed }), (entry) => {
    extras.record(entry);
    return toProduct(entry, names, 'elsewhere');
  });
  const label = `generated: ${String(count)} products, seed ${String(seed)}`;
  return { catalog: catalogData(label, products, false), generated: extras.data() };
}

/** The Catalog over a scenario's columns. */
export function scenarioFromData(data: ScenarioData): Catalog {
  const { generated } = data;
  return catalogFromData(
    data.catalog,
    generated === undefined ? undefined : extrasJsonOf(generated),
  );
}

/** The buffers of a scenario's columns, moved to the serving thread rather than copied. */
export function scenarioBuffers(data: ScenarioData): ArrayBuffer[] {
  const { generated } = data;
  return [
    ...buffersOf(data.catalog),
    ...(generated === undefined ? [] : extrasBuffersOf(generated)),
  ];
}

/** Loads one scenario in this thread: for `stockmock validate`, which serves nothing meanwhile. */
export async function loadScenario(
  source: ScenarioSource,
  options: ReadOptions = {},
): Promise<Catalog> {
  return scenarioFromData(await loadScenarioData(source, options));
}

/** What the loading worker is asked to load. */
export interface LoadJob {
  readonly sources: readonly (readonly [name: string, source: ScenarioSource])[];
  readonly options: ReadOptions;
  /** Whether lists are ordered by name (`compatibility.order`): then the worker orders them. */
  readonly byName: boolean;
}

/** What it answers: every scenario, or every issue of the first file that failed. */
export type LoadOutcome =
  | { readonly ok: true; readonly scenarios: readonly (readonly [string, IndexedScenarioData])[] }
  | { readonly ok: false; readonly issues: readonly SourceIssue[] };

/** What the worker does with one scenario: load it, index it, and list the buffers to move. */
export async function loadIndexedScenario(
  source: ScenarioSource,
  options: ReadOptions,
  byName: boolean,
): Promise<{ readonly loaded: IndexedScenarioData; readonly buffers: ArrayBuffer[] }> {
  const data = await loadScenarioData(source, options);
  const catalog = scenarioFromData(data);
  const indexes = buildEngineData(catalog);
  const nameOrder = byName ? nameOrderOf(catalog) : undefined;
  return {
    loaded: nameOrder === undefined ? { data, indexes } : { data, indexes, nameOrder },
    buffers: [
      ...scenarioBuffers(data),
      ...engineDataBuffers(indexes),
      ...(nameOrder === undefined ? [] : [nameOrder.buffer as ArrayBuffer]),
    ],
  };
}

/**
 * Loads `default` (the `fixtures`) and every named scenario, in a worker. Rejects with the
 * issues of the first file that fails, so that nothing is served, or swapped in, unless all of
 * it is valid.
 */
export async function loadScenarios(
  config: Config,
  options: ReadOptions = {},
): Promise<ReadonlyMap<string, LoadedScenario>> {
  const sources: [string, ScenarioSource][] = [
    [DEFAULT_SCENARIO, config.fixtures],
    ...Object.entries(config.scenarios),
  ];
  const byName = config.compatibility.order === 'name';
  const scenarios = await inWorker({ sources, options, byName });
  return new Map(
    scenarios.map(([name, { data, indexes, nameOrder }]) => {
      const catalog = scenarioFromData(data);
      if (nameOrder !== undefined) adoptNameOrder(catalog, nameOrder);
      return [name, { catalog, indexes }];
    }),
  );
}

/** The worker's module: its TypeScript source where this module runs as source (tests). */
const WORKER_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './load-worker.ts' : './load-worker.js',
  import.meta.url,
);

/**
 * A small young generation: a load keeps most of what it makes, so a large one only copies
 * more, and its pages stay with the process after the worker ends. Measured at 100 000
 * products, 20 reloads in a row: RSS after the first load 260 → 187 MB, after the reloads
 * 462 → 382 MB; the load takes as long (490–520 ms), and 1 000 000 generated products too.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

function inWorker(job: LoadJob): Promise<readonly (readonly [string, IndexedScenarioData])[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_MODULE, { workerData: job, resourceLimits: WORKER_LIMITS });
    worker.once('message', (outcome: LoadOutcome) => {
      if (outcome.ok) resolve(outcome.scenarios);
      else reject(new SourceError(outcome.issues));
    });
    worker.once('error', reject);
    // After its answer the worker ends by itself; an end without one is a failure.
    worker.once('exit', (code) => {
      reject(new Error(`the loading worker ended (exit code ${String(code)}) without an answer`));
    });
  });
}
