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
import type { Compatibility } from '../compatibility/compatibility.ts';
import type { Config } from '../config/config-schema.ts';
import { buildCollection, type RecordInput } from '../dataset/build-collection.ts';
import {
  collectionBuffers,
  collectionFromData,
  type Collection,
  type CollectionData,
} from '../dataset/collection.ts';
import { createDataset, type Dataset, type IndexedCollection } from '../dataset/dataset.ts';
import {
  derivationWarnings,
  fixtureCollections,
  parseFixtureText,
  readFixture,
} from '../dataset/load-fixture.ts';
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
import { keyCount } from '../query/keys.ts';
import { labelOrderOf, type LabelCollation } from '../query/list-rules.ts';
import { orderKeyOf, type RankKind, type SortKey } from '../query/sort.ts';
import type { CollectionDeclaration, Declarations } from '../resources/declarations.ts';
import { readSourceBytes, readSourceText, type ReadOptions } from '../source/read-source-text.ts';
import type { YamlSource } from '../source/read-yaml-source.ts';
import { openLoadCache, planDigestOf, type CachedLoad, type LoadCache } from './load-cache.ts';

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
  interface Indexing {
    readonly exact: Set<string>;
    readonly contains: Set<string>;
    readonly ranked: Record<string, RankKind>;
    /** Whole orders by their names, so that each is built once. */
    readonly orders: Map<string, readonly SortKey[]>;
  }
  const indexes: Record<string, Indexing> = {};
  for (const collection of collections) {
    indexes[collection.name] = {
      exact: new Set(),
      contains: new Set(),
      ranked: {},
      orders: new Map(),
    };
  }
  for (const operation of declarations.operations.values()) {
    if (operation.kind !== 'list') continue;
    const plan = indexes[operation.collection];
    const key = declarations.collections.get(operation.collection)?.key;
    if (plan === undefined) continue;
    // A nested list keeps its parent's records: an exact condition on the parent's field.
    const [nearest] = operation.parents;
    if (nearest !== undefined) plan.exact.add(nearest.field);
    for (const filter of operation.filters) {
      // A condition on the key is a lookup in the sorted keys: it needs no index.
      if (filter.field === key) continue;
      // Ranges read the same postings as exact values, in the values' numeric order.
      plan[filter.match === 'contains' ? 'contains' : 'exact'].add(filter.field);
    }
    // The key needs no ranks: positions are in its order. Each other field's orders, both
    // ways, and the default order are built at load; an order of several fields asked for
    // starts from its last field's.
    const { sort } = operation;
    for (const [field, kind] of sort?.fields ?? []) {
      if (field === key) continue;
      plan.ranked[field] = kind;
      for (const descending of [false, true]) {
        const order = [{ field, descending }];
        plan.orders.set(orderKeyOf(order), order);
      }
    }
    const byDefault = sort?.byDefault;
    if (byDefault?.some(({ field }) => field !== key) === true) {
      plan.orders.set(orderKeyOf(byDefault), byDefault);
    }
  }
  return {
    collections,
    indexes: Object.fromEntries(
      collections.map(({ name, key }) => {
        const plan = indexes[name] as Indexing;
        return [
          name,
          {
            exact: [...plan.exact],
            contains: [...plan.contains],
            ranked: plan.ranked,
            orders: [...plan.orders.values()],
            key,
          },
        ];
      }),
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

/**
 * A scenario's source as far as it is read before the declarations are known: a fixture file
 * read and parsed, or the generator ready.
 */
type ReadScenario =
  | { readonly kind: 'fixture'; readonly fixture: YamlSource }
  | { readonly kind: 'generated'; readonly count: number; readonly seed: number };

/** Reads what a scenario's source can give without the declarations (see beginLoad). */
async function readScenario(source: ScenarioSource, options: ReadOptions): Promise<ReadScenario> {
  if (typeof source === 'string') {
    return { kind: 'fixture', fixture: await readFixture(source, options) };
  }
  // Loaded on use: faker's word lists cost start-up time that file-only configs should not pay.
  await Promise.all([
    import('../generate/generate-products.ts'),
    import('../generate/generated-extras.ts'),
    import('../generate/generate-collections.ts'),
  ]);
  const { count, seed = 1 } = source.generate;
  return { kind: 'generated', count, seed };
}

/** One scenario's collections as columns, by the declarations. */
async function scenarioData(
  read: ReadScenario,
  plan: LoadPlan,
): Promise<{ data: CollectionData; generated?: GeneratedExtrasData }[]> {
  if (read.kind === 'fixture') {
    return fixtureCollections(read.fixture, plan.collections).map((data) => ({ data }));
  }
  // A spec that declares no collections answers from its examples: nothing to generate.
  if (plan.collections.length === 0) return [];
  const { count, seed } = read;
  const label = `generated: ${String(count)} records, seed ${String(seed)}`;
  const { isCatalogue } = await import('../generate/generate-collections.ts');
  const [collection, ...others] = plan.collections;
  if (collection === undefined || others.length > 0 || !isCatalogue(collection)) {
    return generatedCollections(plan.collections, count, seed, label);
  }
  // The catalogue alone: its extra fields kept by column (generated-extras.ts).
  const { generateProducts } = await import('../generate/generate-products.ts');
  const { createGeneratedExtras } = await import('../generate/generated-extras.ts');
  const extras = createGeneratedExtras(count);
  const records = Array.from(generateProducts({ count, seed }), (record) => {
    extras.record(record);
    return record;
  });
  return [
    {
      data: buildCollection(collection, label, records, 'elsewhere'),
      generated: extras.data(),
    },
  ];
}

/** Every collection generated from its record schema (generate-collections.ts). */
async function generatedCollections(
  collections: readonly CollectionDeclaration[],
  count: number,
  seed: number,
  label: string,
): Promise<{ data: CollectionData }[]> {
  const { generateCollections } = await import('../generate/generate-collections.ts');
  const generated = generateCollections(collections, count, seed);
  if ('issues' in generated) {
    throw new Error(
      `generate cannot make ${generated.issues
        .map((issue) => `${issue.collection}.${issue.path.at(-1) ?? ''}: ${issue.message}`)
        .join('; ')}`,
    );
  }
  return collections.map((collection) => ({
    data: buildCollection(collection, label, Array.from(generated.records(collection.name))),
  }));
}

/** Loads one scenario's collections as columns: a fixture file, or generated products. */
async function loadScenarioData(
  source: ScenarioSource,
  plan: LoadPlan,
  options: ReadOptions,
): Promise<{ data: CollectionData; generated?: GeneratedExtrasData }[]> {
  return scenarioData(await readScenario(source, options), plan);
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

/** What a loading worker is asked to read: its share of the scenarios, in config order. */
export interface LoadJob {
  readonly sources: readonly (readonly [name: string, source: ScenarioSource])[];
  readonly options: ReadOptions;
  /** The load cache's folder (load-cache.ts), and the smallest file it keeps; none: no cache. */
  readonly cache?: { readonly dir: string; readonly minBytes?: number };
}

/** What it answers once given the plan: its scenarios, or the issues of its first failing one. */
export type LoadOutcome =
  | {
      readonly ok: true;
      readonly scenarios: readonly (readonly [string, readonly LoadedCollectionData[]])[];
      /** The scenarios read back from the load cache rather than built. */
      readonly cached: readonly string[];
    }
  | { readonly ok: false; readonly scenario: string; readonly issues: readonly SourceIssue[] };

type LoadedScenario = readonly LoadedCollectionData[];

/**
 * A scenario as far as a worker reads it before the plan is known: parsed (or the generator
 * ready), or, where the load cache has an entry for it, that entry, parsed only if its plan
 * turns out to differ.
 */
interface PendingScenario {
  /** Its load cache entry's name, where it is kept. */
  readonly key?: string;
  readonly cached?: CachedLoad<LoadedScenario>;
  read(): Promise<ReadScenario>;
}

/** Reads a scenario's source, and its cache entry where there is one (see PendingScenario). */
async function readPending(
  source: ScenarioSource,
  options: ReadOptions,
  cache: LoadCache<LoadedScenario> | undefined,
): Promise<PendingScenario> {
  if (cache === undefined) return { read: ready(await readScenario(source, options)) };
  if (typeof source !== 'string') {
    const { count, seed = 1 } = source.generate;
    const key = await cache.keyOf({ kind: 'generated', count, seed });
    const cached = key === undefined ? undefined : await cache.read(key);
    const read = () => readScenario(source, options);
    return {
      ...(key === undefined ? {} : { key }),
      ...(cached === undefined ? {} : { cached }),
      read,
    };
  }
  let bytes: Buffer | undefined = await readSourceBytes(source, options);
  const key = await cache.keyOf({ kind: 'file', bytes });
  const cached = key === undefined ? undefined : await cache.read(key);
  if (cached === undefined) {
    const text = bytes.toString('utf8');
    // eslint-disable-next-line no-useless-assignment -- let go of before the parse: a million products' file is 174 MB
    bytes = undefined;
    // Parsed now, while the serving thread still reads the spec.
    const read = ready({ kind: 'fixture', fixture: parseFixtureText(source, text) });
    return { ...(key === undefined ? {} : { key }), read };
  }
  // Parsed only if the entry's plan turns out to differ.
  const kept = bytes;
  const parse = (): ReadScenario => ({
    kind: 'fixture',
    fixture: parseFixtureText(source, kept.toString('utf8')),
  });
  return { ...(key === undefined ? {} : { key }), cached, read: () => Promise.resolve(parse()) };
}

/** A scenario already read. */
function ready(read: ReadScenario): () => Promise<ReadScenario> {
  return () => Promise.resolve(read);
}

/**
 * What a loading worker does: reads its scenarios at once, then builds them by the plan, or
 * takes them from the load cache where it holds them built by the same plan. A scenario that
 * fails ends the job: the load is refused with the first failure anyway.
 */
export async function runLoadJob(
  job: LoadJob,
  plan: Promise<LoadPlan>,
): Promise<{ readonly outcome: LoadOutcome; readonly buffers: ArrayBuffer[] }> {
  const cache =
    job.cache === undefined
      ? undefined
      : await openLoadCache<LoadedScenario>(job.cache.dir, job.cache.minBytes);
  try {
    return await loadWith(job, plan, cache);
  } finally {
    await cache?.close();
  }
}

async function loadWith(
  job: LoadJob,
  plan: Promise<LoadPlan>,
  cache: LoadCache<LoadedScenario> | undefined,
): Promise<{ readonly outcome: LoadOutcome; readonly buffers: ArrayBuffer[] }> {
  const read: (readonly [string, PendingScenario])[] = [];
  let failure: { readonly scenario: string; readonly error: unknown } | undefined;
  for (const [name, source] of job.sources) {
    try {
      read.push([name, await readPending(source, job.options, cache)]);
    } catch (error) {
      failure = { scenario: name, error };
      break;
    }
  }
  const declarations = await plan;
  const planDigest = cache === undefined ? '' : planDigestOf(declarations);
  const buffers: ArrayBuffer[] = [];
  const scenarios: (readonly [string, readonly LoadedCollectionData[]])[] = [];
  const cached: string[] = [];
  const built: { readonly key: string; readonly loaded: readonly LoadedCollectionData[] }[] = [];
  // Taken off the list as they are built: what a parse made is garbage once its columns are.
  for (let next = read.shift(); next !== undefined; next = read.shift()) {
    const [name, pending] = next;
    try {
      if (pending.cached !== undefined && pending.cached.planDigest === planDigest) {
        const { loaded } = pending.cached;
        buffers.push(...loaded.flatMap(loadedBuffers));
        scenarios.push([name, loaded]);
        cached.push(name);
        continue;
      }
      const indexed = await indexedScenario(await pending.read(), declarations);
      buffers.push(...indexed.buffers);
      scenarios.push([name, indexed.loaded]);
      if (pending.key !== undefined) built.push({ key: pending.key, loaded: indexed.loaded });
    } catch (error) {
      failure = { scenario: name, error };
      break;
    }
  }
  if (failure !== undefined) {
    const { scenario, error } = failure;
    return { outcome: { ok: false, scenario, issues: issuesOf(error) }, buffers: [] };
  }
  // Written before the buffers move: from the arrays themselves.
  for (const { key, loaded } of built) await cache?.write(key, planDigest, loaded);
  // Once each: arrays read back from the cache may share a buffer.
  return { outcome: { ok: true, scenarios, cached }, buffers: [...new Set(buffers)] };
}

/** A failure as the issues it is told by: a file's own, or one line for anything else. */
function issuesOf(error: unknown): readonly SourceIssue[] {
  return error instanceof SourceError
    ? error.issues
    : [
        {
          file: 'load',
          field: '',
          message: error instanceof Error ? error.message : String(error),
        },
      ];
}

/** What the worker does with one scenario: load it, index it, and list the buffers to move. */
export async function loadIndexedScenario(
  source: ScenarioSource,
  options: ReadOptions,
  plan: LoadPlan,
): Promise<{ readonly loaded: LoadedCollectionData[]; readonly buffers: ArrayBuffer[] }> {
  return indexedScenario(await readScenario(source, options), plan);
}

/** A read scenario built by the plan and indexed, with the buffers to move. */
async function indexedScenario(
  read: ReadScenario,
  plan: LoadPlan,
): Promise<{ readonly loaded: LoadedCollectionData[]; readonly buffers: ArrayBuffer[] }> {
  const loaded = (await scenarioData(read, plan)).map((one) => ({
    ...one,
    ...indexesOf(one.data, plan),
  }));
  return { loaded, buffers: loaded.flatMap(loadedBuffers) };
}

/** A collection's indexes and label order, as the plan asks for them. */
function indexesOf(
  data: CollectionData,
  plan: LoadPlan,
): Pick<LoadedCollectionData, 'indexes' | 'labelOrder'> {
  const declaration = plan.collections.find((c) => c.name === data.name);
  const indexes = buildEngineData(
    data.columns,
    plan.indexes[data.name] ?? { exact: [], contains: [] },
  );
  const label = declaration?.label === undefined ? undefined : data.columns[declaration.label];
  const labelOrder =
    plan.labelCollation !== undefined && label !== undefined
      ? labelOrderOf(label, keyCount(data.keys), plan.labelCollation)
      : undefined;
  return { indexes, ...(labelOrder === undefined ? {} : { labelOrder }) };
}

/** A collection built in this thread from its records, indexed by the plan: a session's writes. */
export function indexedCollectionOf(
  declaration: CollectionDeclaration,
  source: string,
  records: readonly RecordInput[],
  plan: LoadPlan,
): IndexedCollection {
  const data = buildCollection(declaration, source, records);
  const { indexes, labelOrder } = indexesOf(data, plan);
  return {
    collection: collectionFromData(data),
    indexes,
    ...(labelOrder === undefined ? {} : { labelOrder }),
  };
}

/** The buffers of a loaded collection, which move to the serving thread. */
function loadedBuffers(one: LoadedCollectionData): ArrayBuffer[] {
  return [
    ...collectionBuffers(one.data),
    ...engineDataBuffers(one.indexes),
    ...(one.labelOrder === undefined ? [] : [one.labelOrder.buffer as ArrayBuffer]),
    ...(one.generated === undefined ? [] : extrasBuffersOf(one.generated)),
  ];
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
