/** Every fast path of the query engine against the plain definition: filter, sort by id, slice. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { STOCK_STATUSES, type StockStatus } from '../../src/catalog/stock-status.ts';
import { FilterCache } from '../../src/query/filter-cache.ts';
import { filterProducts, selectProducts } from '../../src/query/filter.ts';
import { paginate } from '../../src/query/paginate.ts';
import type { ProductFilter } from '../../src/query/query.ts';
import {
  arbitraryProducts as arbitraryProductsOf,
  NAME_CHARS,
  plainFilterIds,
} from '../helpers/arbitraries.ts';

const plain = plainFilterIds;
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

  it('pages of the fast path are slices of the plain result', () => {
    // Dense matches and pages inside the list, so that the scan stops within the list.
    const denseFilter = fc.record(
      {
        name: fc.constantFrom('', 'a', 'x', 'é', 's'),
        status: fc.constantFrom<StockStatus>(...STOCK_STATUSES),
      },
      { requiredKeys: ['name'] },
    ) as fc.Arbitrary<ProductFilter>;
    fc.assert(
      fc.property(
        arbitraryProducts,
        fc.oneof(denseFilter, arbitraryFilter),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 6 }),
        (products, filter, limit, page) => {
          const catalog = createCatalog('c', products);
          const expected = plain(products, filter);
          // Both strategies: positions merged and cached, and the scan that stops at the page.
          for (const materializeLimit of [0, 1_000_000]) {
            const got = paginate(selectProducts(catalog, filter, materializeLimit), {
              page,
              limit,
            });
            expect(got.items.map((p) => p.id)).toEqual(
              expected.slice((page - 1) * limit, page * limit),
            );
            expect(got.total).toBe(expected.length);
          }
        },
      ),
      { numRuns: 300, seed: 12 },
    );
  });
});

describe('FilterCache', () => {
  it('drops the least recently used entries past its entry or item budget', () => {
    const cache = new FilterCache<number[]>(2, 5);
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
});
