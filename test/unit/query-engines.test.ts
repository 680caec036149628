/**
 * One equivalence suite that every query engine passes: the reference (the definition, in
 * test/helpers), the engine as served, and the indexed engine in tunings that reach each of its
 * paths with small catalogues. Each is judged by the definition applied to the raw products,
 * not to the catalogue, so that the catalogue's id order is judged too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/dataset/dataset.ts';
import { buildEngineData } from '../../src/query/engine.ts';
import {
  createIndexedEngine,
  SERVING_TUNING,
  type EngineTuning,
} from '../../src/query/indexed-engine.ts';
import { paginate } from '../../src/query/paginate.ts';
import { arbitraryProducts, NAME_CHARS, plainFilterIds } from '../helpers/arbitraries.ts';
import {
  conditionsOf,
  datasetOf,
  parseDataset,
  productAt,
  STOCK_STATUSES,
  type ProductFilter,
  type StockStatus,
} from '../helpers/datasets.ts';
import { createReferenceEngine, type ReferenceEngine } from '../helpers/reference-engine.ts';

type MakeEngine = (dataset: Dataset) => ReferenceEngine;

/** An engine of the dataset's products, asked with ProductFilters. */
function indexedEngine(tuning?: EngineTuning): MakeEngine {
  return (dataset) => {
    const served = dataset.loaded('products');
    // The engine as the dataset serves it knows the shipped filters; ranges on the quantity
    // (which a spec may declare) need its postings too.
    const engine = createIndexedEngine(
      served.records,
      buildEngineData(served.records.data.columns, {
        exact: ['status', 'quantity'],
        contains: ['name'],
      }),
      tuning ?? SERVING_TUNING,
    );
    return {
      select: (filter) =>
        filter.minQuantity === undefined && filter.maxQuantity === undefined && tuning === undefined
          ? served.engine.select(conditionsOf(filter))
          : engine.select(conditionsOf(filter)),
    };
  };
}

/** Small prefixes make listings grow and outgrow the cache within a few pages. */
const TUNINGS: readonly EngineTuning[] = [
  { strategy: 'scan', firstPrefix: 1, cachedPrefixLimit: 0 },
  { strategy: 'scan', firstPrefix: 2, cachedPrefixLimit: 5 },
  { strategy: 'collect', firstPrefix: 1, cachedPrefixLimit: 3 },
  { strategy: 'collect', firstPrefix: 4, cachedPrefixLimit: 9 },
  { strategy: 'auto', firstPrefix: 1, cachedPrefixLimit: 0 },
  { strategy: 'auto', firstPrefix: 3, cachedPrefixLimit: 9 },
];

const ENGINES: readonly (readonly [string, MakeEngine])[] = [
  ['the reference engine', createReferenceEngine],
  ['the engine as served', indexedEngine()],
  ...TUNINGS.map(
    (tuning) =>
      [
        `the indexed engine (${tuning.strategy}, prefixes from ${String(tuning.firstPrefix)}, ` +
          `cached up to ${String(tuning.cachedPrefixLimit)})`,
        indexedEngine(tuning),
      ] as const,
  ),
];

const EXAMPLES = `products:
  - { id: 5, name: "Oak Table", quantity: 3 }
  - { id: 1, name: "Walnut side table", quantity: 0 }
  - { id: 2, name: "Café chair 100% wool", quantity: 1 }
  - { id: 3, name: "Straße bench", quantity: null }
  - { id: 4, name: "Lamp_2 *LED*", quantity: 2, status: incoming }
  - { id: 6, name: "a.b table", quantity: 9 }
`;

const arbitraryFilter: fc.Arbitrary<ProductFilter> = fc
  .record(
    {
      name: fc.string({ unit: NAME_CHARS, maxLength: 3 }),
      status: fc.constantFrom<StockStatus>(...STOCK_STATUSES),
      id: fc.integer({ min: 1, max: 300 }),
      minQuantity: fc.integer({ min: -1, max: 4 }),
      maxQuantity: fc.integer({ min: -1, max: 4 }),
      minId: fc.integer({ min: -1, max: 301 }),
      maxId: fc.integer({ min: -1, max: 301 }),
    },
    { requiredKeys: [] },
  )
  .map((filter) => filter as ProductFilter);

/** Dense matches, so that pages fall inside the list and a scan stops within it. */
const denseFilter = fc.record(
  {
    name: fc.constantFrom('', 'a', 'x', 'é', 's'),
    status: fc.constantFrom<StockStatus>(...STOCK_STATUSES),
  },
  { requiredKeys: ['name'] },
) as fc.Arbitrary<ProductFilter>;

const smallCatalogue = arbitraryProducts({ maxId: 300, maxNameLength: 4, maxLength: 80 });

/** Every match of a filter, as ids, read through the engine's seam; its total is their count. */
function selectedIds(engine: ReferenceEngine, dataset: Dataset, filter: ProductFilter): number[] {
  const selection = engine.select(filter);
  const positions = selection.slice(0, selection.total + 2);
  expect(positions).toHaveLength(selection.total);
  return positions.map((position) => productAt(dataset, position).id);
}

describe.each(ENGINES)('%s', (_name, makeEngine) => {
  const examples = parseDataset('q.yaml', EXAMPLES);
  const engine = makeEngine(examples);

  it.each([
    ['no filter: all, ascending id', {}, [1, 2, 3, 4, 5, 6]],
    ['name, case-insensitive substring', { name: 'TABLE' }, [1, 5, 6]],
    ['name with an accent', { name: 'CAFÉ' }, [2]],
    ['name with ß against SS', { name: 'STRASSE' }, [3]],
    ['% is literal', { name: '100%' }, [2]],
    ['% alone is no wildcard', { name: '%' }, [2]],
    ['_ is literal', { name: 'p_2' }, [4]],
    ['* is literal', { name: '*led*' }, [4]],
    ['. is no regex', { name: 'a.b' }, [6]],
    ['.* matches nothing', { name: '.*' }, []],
    ['status', { status: 'out_of_stock' }, [1]],
    ['derived on_request', { status: 'on_request' }, [3]],
    ['id', { id: 4 }, [4]],
    ['unknown id', { id: 99 }, []],
    ['name AND status', { name: 'table', status: 'available' }, [5, 6]],
    ['id AND status that disagree', { id: 4, status: 'available' }, []],
    ['id AND name that agree', { id: 5, name: 'oak' }, [5]],
    ['a quantity of at least 2 (unknown ones never)', { minQuantity: 2 }, [4, 5, 6]],
    ['a quantity of at most 1', { maxQuantity: 1 }, [1, 2]],
    ['a range', { minQuantity: 1, maxQuantity: 3 }, [2, 4, 5]],
    ['a range AND a name', { minQuantity: 1, name: 'table' }, [5, 6]],
    ['an empty range', { minQuantity: 4, maxQuantity: 3 }, []],
    ['ids from 3', { minId: 3 }, [3, 4, 5, 6]],
    ['ids up to 2', { maxId: 2 }, [1, 2]],
    ['ids from 2 to 5 AND a name', { minId: 2, maxId: 5, name: 'table' }, [5]],
    ['ids from 2 to 5 AND a status', { minId: 2, maxId: 5, status: 'available' }, [2, 5]],
    ['an id within a range of ids', { id: 4, minId: 4, maxId: 4 }, [4]],
    ['an id outside a range of ids', { id: 4, minId: 5 }, []],
    ['an empty range of ids', { minId: 4, maxId: 3 }, []],
    ['ids past the last', { minId: 7 }, []],
  ] as const)('%s', (_title, filter, expected) => {
    // Twice: the second asking may be answered from what the first kept.
    expect(selectedIds(engine, examples, filter)).toEqual(expected);
    expect(selectedIds(engine, examples, filter)).toEqual(expected);
  });

  it('answers a kept filter the same after other filters on its field were listed', () => {
    // Each asked twice, so that each is kept; then the first again, from what it kept.
    const asked = ['table', 'table', 'ch', 'ch', 'table', 'ch', 'table'];
    const expected = { table: [1, 5, 6], ch: [2, 3] } as Record<string, number[]>;
    for (const name of asked) {
      expect(selectedIds(engine, examples, { name }), name).toEqual(expected[name]);
    }
  });

  it('answers a needle that spells another filter in separators by what names contain', () => {
    expect(selectedIds(engine, examples, { name: 'table', status: 'available' })).toEqual([5, 6]);
    expect(selectedIds(engine, examples, { name: 'table', status: 'available' })).toEqual([5, 6]);
    // Every way of spelling the two conditions with separators a key might use.
    const separators = ['\u0000', '\u0001', ',', '|', ':', '"],["', '","'];
    for (const between of separators) {
      for (const within of separators) {
        const needle = ['table', 'status', 'exact', '"available"'].join(within);
        const spelled = needle.replace(within, between);
        expect(selectedIds(engine, examples, { name: spelled }), JSON.stringify(spelled)).toEqual(
          [],
        );
      }
    }
  });

  it('finds nothing for a value no record holds, alone or with other conditions', () => {
    const none = parseDataset('n.yaml', 'products:\n  - { id: 1, name: Oak, quantity: 2 }\n');
    const engineOfNone = makeEngine(none);
    for (const filter of [
      { status: 'incoming' },
      { status: 'incoming', name: 'oak' },
      { status: 'incoming', minQuantity: 1 },
      { minQuantity: 3 },
    ] as const) {
      expect(selectedIds(engineOfNone, none, filter)).toEqual([]);
    }
  });

  it('equals the definition for random catalogues and filters, cold, cached, and after a reload', () => {
    fc.assert(
      fc.property(
        smallCatalogue,
        smallCatalogue,
        fc.array(arbitraryFilter, { minLength: 1, maxLength: 6 }),
        (first, second, filters) => {
          const before = datasetOf('before', first);
          const after = datasetOf('after', second);
          const [old, fresh] = [makeEngine(before), makeEngine(after)];
          for (const filter of filters) {
            const expected = plainFilterIds(first, filter);
            expect(selectedIds(old, before, filter)).toEqual(expected);
            expect(selectedIds(old, before, filter)).toEqual(expected);
            // A reload is a new engine: nothing kept for the old catalogue may leak into it.
            expect(selectedIds(fresh, after, filter)).toEqual(plainFilterIds(second, filter));
          }
          // Again, after every other filter was listed: what was kept is still this filter's.
          for (const filter of filters) {
            expect(selectedIds(old, before, filter)).toEqual(plainFilterIds(first, filter));
          }
        },
      ),
      { numRuns: 150, seed: 11 },
    );
  });

  it('a lookup by id holds every other condition against that one record', () => {
    fc.assert(
      fc.property(smallCatalogue, arbitraryFilter, (products, filter) => {
        const dataset = datasetOf('by id', products);
        const byId = makeEngine(dataset);
        // Every id the catalogue holds, so that each other condition is weighed on a real record.
        for (const product of products) {
          const { id } = product;
          const lookup = { ...filter, id };
          expect(selectedIds(byId, dataset, lookup)).toEqual(plainFilterIds(products, lookup));
          // And conditions that this record meets, or would meet if its quantity were known.
          expect(selectedIds(byId, dataset, { id })).toEqual([id]);
          const own = product.quantity ?? 0;
          const bounds = { id, minQuantity: own, maxQuantity: own, minId: id, maxId: id };
          expect(selectedIds(byId, dataset, bounds)).toEqual(plainFilterIds(products, bounds));
        }
      }),
      { numRuns: 60, seed: 12 },
    );
  });

  it('gives every page as a slice of the definition, paging forward and back', () => {
    fc.assert(
      fc.property(
        smallCatalogue,
        fc.array(fc.oneof(denseFilter, arbitraryFilter), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 7 }),
        (products, filters, limit) => {
          const catalog = datasetOf('c', products);
          const paged = makeEngine(catalog);
          const expected = filters.map((filter) => plainFilterIds(products, filter));
          const pages = Math.max(...expected.map((ids) => Math.ceil(ids.length / limit))) + 1;
          // The filters take turns, so later pages meet prefixes that earlier ones kept, and
          // listings of the other filters in between.
          const order = Array.from({ length: pages }, (_, i) => i + 1);
          for (const page of [...order, ...order.reverse()]) {
            filters.forEach((filter, f) => {
              const got = paginate(paged.select(filter), { start: (page - 1) * limit, limit });
              const ids = expected[f] ?? [];
              expect(got.items.map((p) => productAt(catalog, p).id)).toEqual(
                ids.slice((page - 1) * limit, page * limit),
              );
              expect(got.total).toBe(ids.length);
            });
          }
        },
      ),
      { numRuns: 150, seed: 12 },
    );
  });
});
