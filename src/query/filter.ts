/** @module Filtering the catalogue: name substring, id and status, combined with AND. */
import type { Catalog, Product } from '../catalog/catalog.ts';
import { foldName } from '../catalog/fold-name.ts';
import type { ProductFilter } from './query.ts';

/** The products that match every given filter, in the catalogue's order (ascending id). */
export function filterProducts(catalog: Catalog, filter: ProductFilter): readonly Product[] {
  const needle = filter.name === undefined ? undefined : foldName(filter.name);
  // `includes` compares code units literally: `%`, `*`, `_` and regex syntax mean themselves.
  const keep = (product: Product): boolean =>
    (filter.status === undefined || product.status === filter.status) &&
    (needle === undefined || product.foldedName.includes(needle));

  if (filter.id !== undefined) {
    const product = catalog.byId.get(filter.id);
    return product !== undefined && keep(product) ? [product] : [];
  }
  if (needle === undefined && filter.status === undefined) return catalog.products;
  return catalog.products.filter(keep);
}
