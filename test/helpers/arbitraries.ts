/** @module fast-check arbitraries of catalogues, and the plain definition they are judged by. */
import fc from 'fast-check';
import { STOCK_STATUSES, type ProductFilter } from './datasets.ts';
import { matches, type PlainProduct } from './reference-engine.ts';

/** Characters that stress folding and literal matching: accents, ß, wildcards, regex syntax. */
export const NAME_CHARS = fc.constantFrom(
  'a',
  'B',
  'é',
  'É',
  'ß',
  'S',
  '%',
  '_',
  '*',
  ' ',
  '.',
  'x',
);

/** Products with unique ids; short names from NAME_CHARS repeat, as real catalogues' names do. */
export function arbitraryProducts(options: {
  maxId: number;
  maxNameLength: number;
  maxLength: number;
}): fc.Arbitrary<PlainProduct[]> {
  return fc
    .uniqueArray(
      fc.record({
        id: fc.integer({ min: 1, max: options.maxId }),
        name: fc.string({ unit: NAME_CHARS, minLength: 1, maxLength: options.maxNameLength }),
        // Unknown as null, or as no field at all: the engine stores the two apart.
        quantity: fc.option(fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }), {
          nil: undefined,
          freq: 4,
        }),
        status: fc.option(fc.constantFrom(...STOCK_STATUSES), { nil: undefined }),
      }),
      { selector: (entry) => entry.id, maxLength: options.maxLength },
    )
    .map((entries) =>
      entries.map(({ status, quantity, ...entry }) => ({
        ...entry,
        ...(quantity === undefined ? {} : { quantity }),
        ...(status === undefined ? {} : { status }),
      })),
    );
}

/** The ids a filter keeps, by the definition alone, from products in any order. */
export function plainFilterIds(products: readonly PlainProduct[], filter: ProductFilter): number[] {
  return products
    .filter((product) => matches(product, filter))
    .map((product) => product.id)
    .sort((a, b) => a - b);
}
