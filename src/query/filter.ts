/** @module Filtering the catalogue: name substring, id and status, combined with AND. */
import type { Catalog, Product } from '../catalog/catalog.ts';
import { foldName } from '../catalog/fold-name.ts';
import { FilterCache } from './filter-cache.ts';
import type { ProductFilter } from './query.ts';

/** One cache per catalogue: the data cannot change under it, and a reload brings a new catalogue. */
const caches = new WeakMap<Catalog, FilterCache<Product>>();

/**
 * The products that match every given filter, in the catalogue's order (ascending id).
 *
 * The definition is plain (keep each product whose status equals and whose folded name contains
 * the folded needle); the work is not. An id is a map lookup, a status alone is a list built at
 * load, and a name is tested once per distinct name, then the result is cached by the folded
 * filter. Property tests hold this to the plain definition.
 */
export function filterProducts(catalog: Catalog, filter: ProductFilter): readonly Product[] {
  const needle = filter.name === undefined ? undefined : foldName(filter.name);
  if (filter.id !== undefined) {
    const product = catalog.byId.get(filter.id);
    const keep =
      product !== undefined &&
      (filter.status === undefined || product.status === filter.status) &&
      (needle === undefined || product.foldedName.includes(needle));
    return keep ? [product] : [];
  }
  if (needle === undefined) {
    return filter.status === undefined
      ? catalog.products
      : (catalog.index.byStatus.get(filter.status) ?? []);
  }
  let cache = caches.get(catalog);
  if (cache === undefined) {
    cache = new FilterCache<Product>();
    caches.set(catalog, cache);
  }
  const key = `${filter.status ?? ''}\u0000${needle}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const result = filterByName(catalog, needle, filter.status);
  cache.set(key, result);
  return result;
}

function filterByName(catalog: Catalog, needle: string, status: string | undefined): Product[] {
  const { names, nameOf } = catalog.index;
  // `includes` compares code units literally: `%`, `*`, `_` and regex syntax mean themselves.
  const matches = new Uint8Array(names.length);
  let any = false;
  for (let i = 0; i < names.length; i++) {
    if ((names[i] as string).includes(needle)) {
      matches[i] = 1;
      any = true;
    }
  }
  if (!any) return [];
  const { products } = catalog;
  const result: Product[] = [];
  for (let position = 0; position < products.length; position++) {
    if (matches[nameOf[position] as number] === 1) {
      const product = products[position] as Product;
      if (status === undefined || product.status === status) result.push(product);
    }
  }
  return result;
}
