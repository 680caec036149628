/** Every fast path of the query engine against the plain definition: filter, sort by id, slice. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { STOCK_STATUSES, type StockStatus } from '../../src/catalog/stock-status.ts';
import { FilterCache } from '../../src/query/filter-cache.ts';
import { filterProducts, selectProducts, type PageStrategy } from '../../src/query/filter.ts';
import { createNameIndex } from '../../src/query/name-index.ts';
import { sortPositions } from '../../src/query/name-pages.ts';
import { seededRandom } from '../../src/util/seeded-random.ts';
import { paginate } from '../../src/query/paginate.ts';
import type { ProductFilter } from '../../src/query/query.ts';
import {
  arbitraryProducts as arbitraryProductsOf,
  NAME_CHARS,
  plainFilterIds,
} from '../helpers/arbitraries.ts';

const plain = plainFilterIds;
const PAGE_STRATEGIES: readonly PageStrategy[] = ['scan', 'collect', 'auto'];
const arbitraryProducts = arbitraryProductsOf({ maxId: 300, maxNameLength: 4, maxLength: 80 });

const arbitraryFilter: fc.Arbitrary<ProductFilter> = fc
  .record(
    {
      name: fc.string({ unit: NAME_CHARS, maxLength: 3 }),
      status: fc.constantFrom<StockStatus>(...STOCK_STATUSES),
      id: fc.integer({ min: 1, max: 300 }),
    },
    { requiredKeys: [] },
  )
  .map((filter) => filter as ProductFilter);

describe('the query engine equals the plain definition', () => {
  it('for random catalogues and filters, asked twice (cold, then cached), and across reloads', () => {
    fc.assert(
      fc.property(
        arbitraryProducts,
        arbitraryProducts,
        fc.array(arbitraryFilter, { minLength: 1, maxLength: 6 }),
        (first, second, filters) => {
          const before = createCatalog('before', first);
          const after = createCatalog('after', second);
          for (const filter of filters) {
            const expected = plain(first, filter);
            expect(filterProducts(before, filter).map((p) => p.id)).toEqual(expected);
            expect(filterProducts(before, filter).map((p) => p.id)).toEqual(expected);
            // A reload is a new catalogue: nothing cached for the old one may leak into it.
            expect(filterProducts(after, filter).map((p) => p.id)).toEqual(plain(second, filter));
          }
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });

  it('every page of every strategy is a slice of the plain result', () => {
    // Dense matches, so that pages fall inside the list and a scan stops within it.
    const denseFilter = fc.record(
      {
        name: fc.constantFrom('', 'a', 'x', 'é', 's'),
        status: fc.constantFrom<StockStatus>(...STOCK_STATUSES),
      },
      { requiredKeys: ['name'] },
    ) as fc.Arbitrary<ProductFilter>;
    const anyFilter = fc.oneof(denseFilter, arbitraryFilter);
    fc.assert(
      fc.property(
        arbitraryProducts,
        fc.array(anyFilter, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 9 }),
        (products, filters, limit, firstPrefix, cachedPrefixLimit) => {
          const expected = filters.map((filter) => plain(products, filter));
          const pages = Math.max(...expected.map((ids) => Math.ceil(ids.length / limit))) + 1;
          // Each strategy on a catalogue of its own, so that none meets another's cache. Small
          // prefixes make them grow and outgrow the cache within a few pages.
          for (const strategy of PAGE_STRATEGIES) {
            const catalog = createCatalog('c', products);
            const options = { strategy, firstPrefix, cachedPrefixLimit };
            // Every page, forward then backward, the filters taking turns: later pages meet
            // prefixes that earlier ones cached, and listings of the other filters in between.
            const order = Array.from({ length: pages }, (_, i) => i + 1);
            for (const page of [...order, ...order.reverse()]) {
              filters.forEach((filter, f) => {
                const got = paginate(selectProducts(catalog, filter, options), { page, limit });
                const ids = expected[f] ?? [];
                expect(got.items.map((p) => catalog.productAt(p).id)).toEqual(
                  ids.slice((page - 1) * limit, page * limit),
                );
                expect(got.total).toBe(ids.length);
              });
            }
          }
        },
      ),
      { numRuns: 300, seed: 12 },
    );
  });
});

describe('the trigram name index', () => {
  it('finds exactly the names that contain the needle', () => {
    // A small alphabet, so that trigrams are shared and needles of every length match.
    const text = (maxLength: number) =>
      fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'ß'), maxLength });
    fc.assert(
      fc.property(
        fc.uniqueArray(text(12), { maxLength: 60 }),
        fc.array(text(6), { minLength: 1, maxLength: 10 }),
        (names, needles) => {
          const index = createNameIndex(names);
          for (const needle of needles) {
            const expected = names.flatMap((name, i) => (name.includes(needle) ? [i] : []));
            expect([...index.namesContaining(needle)]).toEqual(expected);
          }
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });
});

describe('FilterCache', () => {
  it('drops the least recently used entries past its entry or item budget', () => {
    const cache = new FilterCache<number[]>({ maxEntries: 2, maxItems: 5 });
    cache.set('a', [1]);
    cache.set('b', [2]);
    cache.get('a');
    cache.set('c', [3]);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([[1], undefined, [3]]);
    cache.set('big', [1, 2, 3, 4]);
    expect(cache.get('a')).toBeUndefined();
    cache.set('huge', [1, 2, 3, 4, 5, 6]);
    expect(cache.get('huge')).toBeUndefined();
  });
  it('with a doorkeeper, stores a key the second time it is set, not the first', () => {
    const cache = new FilterCache<number[]>({ admitOnSecondSight: true });
    cache.set('once', [1]);
    expect(cache.get('once')).toBeUndefined();
    cache.set('once', [1]);
    expect(cache.get('once')).toEqual([1]);
    cache.set('once', [2]);
    expect(cache.get('once')).toEqual([2]);
    expect(cache.size).toBe(1);
  });
  it('counts a replaced entry once', () => {
    const cache = new FilterCache<number[]>({ maxEntries: 10, maxItems: 5 });
    cache.set('a', [1, 2, 3]);
    cache.set('a', [1, 2, 3, 4]);
    cache.set('b', [1]);
    expect([cache.get('a'), cache.get('b')]).toEqual([[1, 2, 3, 4], [1]]);
  });
});

describe('sortPositions', () => {
  it('sorts like a comparison sort, below and above the radix threshold and limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer(),
        (limit, length, seed) => {
          const random = seededRandom(seed);
          const values = Int32Array.from({ length }, () => Math.floor(random() * limit));
          const expected = [...values].sort((a, b) => a - b);
          expect([...sortPositions(values, limit, new Int32Array(length))]).toEqual(expected);
        },
      ),
      { numRuns: 200, seed: 14 },
    );
  });
});
