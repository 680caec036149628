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
import type { Compatibility } from '../compatibility/compatibility.ts';
import type { Config } from '../config/config-schema.ts';
import { buildCollection } from '../dataset/build-collection.ts';
import {
  collectionBuffers,
  collectionFromData,
  type Collection,
  type CollectionData,
} from '../dataset/collection.ts';
import { createDataset, type Dataset } from '../dataset/dataset.ts';
import { derivationWarnings, loadFixture } from '../dataset/load-fixture.ts';
import {
  extrasBuffersOf,
  extrasJsonOf,
  type GeneratedExtrasData,
} from '../generate/generated-extras.ts';
import { SourceError, type SourceIssue } from '../problems/source-error.ts';
import {
  buildEngineData,
  engineDataBuffers,
  type EngineData,
  type IndexPlan,
} from '../query/engine.ts';
import { labelOrderOf, type LabelCollation } from '../query/list-rules.ts';
import type { CollectionDeclaration, Declarations } from '../resources/declarations.ts';
import { readSourceText, type ReadOptions } from '../source/read-source-text.ts';
import { DEFAULT_SCENARIO } from './scenario-store.ts';

export type ScenarioSource = Config['scenarios'][string];

/**
 * What a load needs to know of the declarations: each collection, what its filters index, and
 * whether lists are ordered by label. Plain data, to be sent to the loading worker.
 */
export interface LoadPlan {
  readonly collections: readonly CollectionDeclaration[];
  readonly indexes: Readonly<Record<string, IndexPlan>>;
  /** How lists are ordered by label, where they are (the `order` setting); absent: by key. */
  readonly labelCollation?: LabelCollation;
}

/** How each `order` by label compares labels. */
const COLLATION_OF_ORDER: Readonly<Record<Exclude<Compatibility['order'], 'id'>, LabelCollation>> =
  {
    name: 'code-units',
    'name-lowercase': 'lowercase',
    'name-locale': 'locale',
  };

/** The plan of every load the declarations and settings need. */
export function loadPlanOf(
  declarations: Declarations,
  compatibility: Pick<Compatibility, 'order'>,
): LoadPlan {
  const collections = [...declarations.collections.values()];
  const indexes: Record<string, { exact: Set<string>; contains: Set<string> }> = {};
  for (const collection of collections) {
    indexes[collection.name] = { exact: new Set(), contains: new Set() };
  }
  for (const operation of declarations.operations.values()) {
    if (operation.kind !== 'list') continue;
    const plan = indexes[operation.collection];
    const key = declarations.collections.get(operation.collection)?.key;
    for (const filter of operation.filters) {
      // A condition on the key is a lookup: it needs no index.
      if (filter.match === 'exact' && filter.field === key) continue;
      // Ranges read the same postings as exact values, in the values' numeric order.
      plan?.[filter.match === 'contains' ? 'contains' : 'exact'].add(filter.field);
    }
  }
  return {
    collections,
    indexes: Object.fromEntries(
      Object.entries(indexes).map(([name, plan]) => [
        name,
        { exact: [...plan.exact], contains: [...plan.contains] },
      ]),
    ),
    ...(compatibility.order === 'id'
      ? {}
      : { labelCollation: COLLATION_OF_ORDER[compatibility.order] }),
  };
}

/** One collection as a load builds it: columns, indexes, label order, generated fields. */
export interface LoadedCollectionData {
  readonly data: CollectionData;
  readonly indexes: EngineData;
  readonly labelOrder?: Int32Array;
  /** A generated collection's undeclared fields, kept by column. */
  readonly generated?: GeneratedExtrasData;
}

/** Loads one scenario's collections as columns: a fixture file, or generated products. */
async function loadScenarioData(
  source: ScenarioSource,
  plan: LoadPlan,
  options: ReadOptions,
): Promise<{ data: CollectionData; generated?: GeneratedExtrasData }[]> {
  if (typeof source === 'string') {
    return (await loadFixture(source, plan.collections, options)).map((data) => ({ data }));
  }
  const [collection, ...others] = plan.collections;
  if (collection === undefined || others.length > 0) {
    throw new Error(
      `generate makes one collection of products; the spec declares ${String(plan.collections.length)}`,
    );
  }
  const { count, seed = 1 } = source.generate;
  // Loaded on use: faker's word lists cost start-up time that file-only configs should not pay.
  const { generateProducts } = await import('../generate/generate-products.ts');
  const { createGeneratedExtras } = await import('../generate/generated-extras.ts');
  const extras = createGeneratedExtras(count);
  const records = Array.from(generateProducts({ count, seed }), (record) => {
    extras.record(record);
    return record;
  });
  const label = `generated: ${String(count)} records, seed ${String(seed)}`;
  return [
    {
      data: buildCollection(collection, label, records, 'elsewhere'),
      generated: extras.data(),
    },
  ];
}

/** A collection over its loaded columns. */
function collectionOf(
  loaded: Pick<LoadedCollectionData, 'data' | 'generated'>,
  plan: LoadPlan,
): Collection {
  const { generated } = loaded;
  const declared = plan.collections.find((c) => c.name === loaded.data.name)?.fields;
  return collectionFromData(
    loaded.data,
    generated === undefined ? undefined : extrasJsonOf(generated, declared ?? new Map()),
  );
}

/** Loads one scenario in this thread: for `stockmock validate`, which serves nothing meanwhile. */
export async function loadScenario(
  source: ScenarioSource,
  plan: LoadPlan,
  options: ReadOptions = {},
): Promise<Collection[]> {
  const loaded = await loadScenarioData(source, plan, options);
  return loaded.map((one) => collectionOf(one, plan));
}

/**
 * What a scenario's file holds that is served but may be a slip: records whose own value of a
 * derived field disagrees with the derivation. None for generated data.
 */
export async function scenarioWarnings(
  source: ScenarioSource,
  plan: LoadPlan,
): Promise<SourceIssue[]> {
  if (typeof source !== 'string') return [];
  return derivationWarnings(source, await readSourceText(source), plan.collections);
}

/** Loads one scenario as served, in this thread: for benchmarks and tools that serve nothing. */
export async function loadDataset(
  source: ScenarioSource,
  plan: LoadPlan,
  options: ReadOptions = {},
): Promise<Dataset> {
  return datasetOf((await loadIndexedScenario(source, options, plan)).loaded, plan);
}

/** What the loading worker is asked to load. */
export interface LoadJob {
  readonly sources: readonly (readonly [name: string, source: ScenarioSource])[];
  readonly options: ReadOptions;
  readonly plan: LoadPlan;
}

/** What it answers: every scenario, or every issue of the first file that failed. */
export type LoadOutcome =
  | {
      readonly ok: true;
      readonly scenarios: readonly (readonly [string, readonly LoadedCollectionData[]])[];
    }
  | { readonly ok: false; readonly issues: readonly SourceIssue[] };

/** What the worker does with one scenario: load it, index it, and list the buffers to move. */
export async function loadIndexedScenario(
  source: ScenarioSource,
  options: ReadOptions,
  plan: LoadPlan,
): Promise<{ readonly loaded: LoadedCollectionData[]; readonly buffers: ArrayBuffer[] }> {
  const buffers: ArrayBuffer[] = [];
  const loaded = (await loadScenarioData(source, plan, options)).map((one) => {
    const declaration = plan.collections.find((c) => c.name === one.data.name);
    const indexes = buildEngineData(
      one.data.columns,
      plan.indexes[one.data.name] ?? { exact: [], contains: [] },
    );
    const label =
      declaration?.label === undefined ? undefined : one.data.columns[declaration.label];
    const labelOrder =
      plan.labelCollation !== undefined && label !== undefined
        ? labelOrderOf(label, one.data.keys.length, plan.labelCollation)
        : undefined;
    buffers.push(
      ...collectionBuffers(one.data),
      ...engineDataBuffers(indexes),
      ...(labelOrder === undefined ? [] : [labelOrder.buffer as ArrayBuffer]),
      ...(one.generated === undefined ? [] : extrasBuffersOf(one.generated)),
    );
    return {
      ...one,
      indexes,
      ...(labelOrder === undefined ? {} : { labelOrder }),
    };
  });
  return { loaded, buffers };
}

/** The dataset a scenario's loaded collections make. */
export function datasetOf(loaded: readonly LoadedCollectionData[], plan: LoadPlan): Dataset {
  return createDataset(
    loaded.map((one) => ({
      collection: collectionOf(one, plan),
      indexes: one.indexes,
      ...(one.labelOrder === undefined ? {} : { labelOrder: one.labelOrder }),
    })),
  );
}

/**
 * Loads `default` (the `fixtures`) and every named scenario, in a worker. Rejects with the
 * issues of the first file that fails, so that nothing is served, or swapped in, unless all of
 * it is valid.
 */
export async function loadScenarios(
  config: Config,
  plan: LoadPlan,
  options: ReadOptions = {},
): Promise<ReadonlyMap<string, Dataset>> {
  const sources: [string, ScenarioSource][] = [
    [DEFAULT_SCENARIO, config.fixtures],
    ...Object.entries(config.scenarios),
  ];
  const scenarios = await inWorker({
    sources,
    options: { ...options, maxBytes: config.maxFixtureBytes },
    plan,
  });
  return new Map(scenarios.map(([name, loaded]) => [name, datasetOf(loaded, plan)]));
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

function inWorker(
  job: LoadJob,
): Promise<readonly (readonly [string, readonly LoadedCollectionData[]])[]> {
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
