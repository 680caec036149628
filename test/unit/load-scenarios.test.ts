/**
 * Loading in a worker hands over the same data as loading in this thread: every product with
 * every field, and an engine (over indexes built in the worker) that answers every filter as
 * the plain definition does. A refusal carries the same issues.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import { beginLoad, loadScenarios } from '../../src/scenarios/begin-load.ts';
import { loadPlanOf, loadScenario } from '../../src/scenarios/load-scenarios.ts';
import { prestartLoadWorker } from '../../src/scenarios/load-threads.ts';
import { createScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { generateProducts } from '../../src/generate/generate-products.ts';
import {
  allProducts,
  conditionsOf,
  datasetOf,
  loadDataset,
  parseDataset,
  SHIPPED,
  type ProductFilter,
} from '../helpers/datasets.ts';
import { createReferenceEngine } from '../helpers/reference-engine.ts';

const PLAN = loadPlanOf(SHIPPED, DEFAULTS.compatibility);

const FIXTURE = [
  'products:',
  '  - { id: 9, name: "Ōak Table", quantity: 3, colour: oak, dims: { w: 2 } }',
  '  - { id: 2, name: "oak table", quantity: null }',
  '  - { id: 5, name: "Straße Lamp", quantity: 0 }',
  '  - { id: 7, name: "Lamp 100%", status: incoming }',
  '  - { id: 3, name: "Chair_1", quantity: 12, tags: [a, b] }',
].join('\n');

async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-load-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const FILTERS: ProductFilter[] = [
  {},
  { name: 'oak' },
  { name: 'STRASSE' },
  { name: '100%' },
  { name: 'e_1' },
  { name: 'lamp', status: 'incoming' },
  { status: 'available' },
  { id: 9, name: 'table' },
  { name: 'steel' },
  { name: 'ergonomic desk' },
];

describe('loadScenarios, in a worker', () => {
  it('hands over the catalogues this thread would load, and engines that answer like the definition', async () => {
    const dir = await folderWith({ 'products.yaml': FIXTURE });
    const config = {
      ...DEFAULTS,
      fixtures: join(dir, 'products.yaml'),
      scenarios: { generated: { generate: { count: 700, seed: 3 } } },
    };
    const loaded = await loadScenarios(config, PLAN);
    expect([...loaded.keys()]).toEqual(['default', 'generated']);
    const store = createScenarioStore(loaded);
    for (const [name, source] of [
      ['default', config.fixtures],
      ['generated', config.scenarios.generated],
    ] as const) {
      const [collection] = await loadScenario(source, PLAN);
      const here =
        typeof source === 'string'
          ? await loadDataset(source)
          : datasetOf('here', [...generateProducts({ count: 700, seed: 3 })]);
      const there = store.get(name);
      expect(there?.source).toBe(collection?.source);
      expect(allProducts(there ?? here)).toEqual(allProducts(here));
      // Every field, the undeclared ones too, as this thread loads them.
      const served = there?.loaded('products').records;
      expect(Array.from({ length: collection?.size ?? 0 }, (_, at) => served?.restAt(at))).toEqual(
        Array.from({ length: collection?.size ?? 0 }, (_, at) => collection?.restAt(at)),
      );
      const reference = createReferenceEngine(here);
      for (const filter of FILTERS) {
        const served = there?.loaded('products').engine.select(conditionsOf(filter));
        const expected = reference.select(filter);
        expect(served?.total, JSON.stringify(filter)).toBe(expected.total);
        expect(served?.slice(0, 50), JSON.stringify(filter)).toEqual(expected.slice(0, 50));
      }
    }
  });

  it('refuses a bad file with the issues this thread finds', async () => {
    const bad = `${FIXTURE}\n  - { id: 3, name: Twin, quantity: -1 }\n`;
    const dir = await folderWith({ 'products.yaml': bad });
    const file = join(dir, 'products.yaml');
    const error = await loadScenarios({ ...DEFAULTS, fixtures: file }, PLAN).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SourceError);
    let here: SourceError | undefined;
    try {
      parseDataset(file, bad);
    } catch (caught) {
      here = caught as SourceError;
    }
    expect((error as SourceError).issues).toEqual(here?.issues);
    expect((error as SourceError).issues.length).toBeGreaterThan(0);
  });
});

describe('beginLoad, in several workers', () => {
  const fixtureOf = (ids: readonly number[]): string =>
    ['products:', ...ids.map((id) => `  - { id: ${String(id)}, name: "P${String(id)}" }`)].join(
      '\n',
    );

  it('gives every scenario, in config order, from any number of workers', async () => {
    const dir = await folderWith({
      'a.yaml': fixtureOf([1, 2, 3]),
      'b.yaml': fixtureOf([4]),
      'c.yaml': fixtureOf([5, 6]),
    });
    const config = {
      ...DEFAULTS,
      fixtures: join(dir, 'a.yaml'),
      scenarios: {
        b: join(dir, 'b.yaml'),
        generated: { generate: { count: 40, seed: 2 } },
        c: join(dir, 'c.yaml'),
      },
    };
    for (const workers of [1, 2, 3]) {
      const { datasets: loaded } = await beginLoad(config, { workers }).finish(PLAN);
      expect([...loaded.keys()], `${String(workers)} workers`).toEqual([
        'default',
        'b',
        'generated',
        'c',
      ]);
      expect([...loaded.values()].map((dataset) => allProducts(dataset).length)).toEqual([
        3, 1, 40, 2,
      ]);
      expect(allProducts(loaded.get('c') as never).map((product) => product.id)).toEqual([5, 6]);
    }
  });

  it('refuses with the first failing scenario in config order, whichever worker finds it', async () => {
    const dir = await folderWith({
      'good.yaml': fixtureOf([1]),
      'bad-syntax.yaml': 'products: [',
      'bad-record.yaml': 'products:\n  - { id: 1, name: 7 }\n',
    });
    const config = {
      ...DEFAULTS,
      fixtures: join(dir, 'good.yaml'),
      scenarios: {
        // A schema issue, found only once the plan comes: still told before the later one.
        record: join(dir, 'bad-record.yaml'),
        syntax: join(dir, 'bad-syntax.yaml'),
      },
    };
    for (const workers of [1, 2, 3]) {
      const error = await beginLoad(config, { workers })
        .finish(PLAN)
        .catch((caught: unknown) => caught);
      expect(error, `${String(workers)} workers`).toBeInstanceOf(SourceError);
      expect((error as SourceError).issues.map((issue) => issue.file)).toEqual([
        join(dir, 'bad-record.yaml'),
      ]);
    }
  });

  it('ends its workers when cancelled: a start that fails before the plan leaves none behind', async () => {
    const dir = await folderWith({ 'a.yaml': fixtureOf([1, 2]) });
    const loading = beginLoad({ ...DEFAULTS, fixtures: join(dir, 'a.yaml') }, { workers: 2 });
    loading.cancel();
    await expect(loading.finish(PLAN)).rejects.toThrow(/ended .* without an answer/);
  });
});

describe('a loading worker started early', () => {
  it('is taken by the next load, and the load after starts its own', async () => {
    const dir = await folderWith({ 'a.yaml': FIXTURE });
    const config = { ...DEFAULTS, fixtures: join(dir, 'a.yaml') };
    prestartLoadWorker();
    for (let load = 0; load < 2; load++) {
      const loaded = await loadScenarios(config, PLAN);
      expect(allProducts(loaded.get('default') as never).map((product) => product.id)).toEqual([
        2, 3, 5, 7, 9,
      ]);
    }
  });

  it('holds no process open while nothing takes it: a refused start still ends', () => {
    // A worker that held the process would run it into the spawn's time limit (status null).
    const result = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { prestartLoadWorker } from ${JSON.stringify(new URL('../../src/scenarios/load-threads.ts', import.meta.url).href)}; prestartLoadWorker();`,
      ],
      { timeout: 20_000 },
    );
    expect(result.status).toBe(0);
  });
});
