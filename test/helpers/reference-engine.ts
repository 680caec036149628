/** @module The query engine by its definition alone: every product tested, nothing kept. */
import { allProducts, type Catalog, type Product } from '../../src/catalog/catalog.ts';
import { foldName } from '../../src/catalog/fold-name.ts';
import type { QueryEngine } from '../../src/query/engine.ts';
import type { ProductFilter } from '../../src/query/query.ts';
import { slicesOf } from '../../src/query/selection.ts';

/** Keeps a product when its id and status equal and its folded name contains the folded needle. */
export function matches(product: Product, filter: ProductFilter): boolean {
  return (
    (filter.id === undefined || product.id === filter.id) &&
    (filter.status === undefined || product.status === filter.status) &&
    (filter.name === undefined || foldName(product.name).includes(foldName(filter.name)))
  );
}

/** Positions are the catalogue's, in its id order; the suite checks that order on its own. */
export function createReferenceEngine(catalog: Catalog): QueryEngine {
  const products = allProducts(catalog);
  return {
    select(filter) {
      return slicesOf(
        products.flatMap((product, position) => (matches(product, filter) ? [position] : [])),
      );
    },
  };
}
