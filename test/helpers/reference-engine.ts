/** @module The query engine by its definition alone: every product tested, nothing kept. */
import type { QueryEngine } from '../../src/query/engine.ts';
import { slicesOf } from '../../src/query/selection.ts';
import type { Dataset } from '../../src/dataset/dataset.ts';
import { allProducts, type ProductFilter, type StockStatus } from './datasets.ts';
import { referenceFold } from './reference-fold.ts';

/** A product as the definition reads it: its status derived by the definition too. */
export interface PlainProduct {
  readonly id: number;
  readonly name: string;
  readonly quantity?: number | null;
  readonly status?: StockStatus;
}

/** PRODUCT.md's rule: an explicit status wins; else > 0 available, 0 out of stock, else on request. */
export function statusOf(product: PlainProduct): StockStatus {
  if (product.status !== undefined) return product.status;
  if (product.quantity === null || product.quantity === undefined) return 'on_request';
  return product.quantity > 0 ? 'available' : 'out_of_stock';
}

/**
 * Keeps a product when its id and status equal, its folded name contains the folded needle, and
 * its quantity and id are within the ranges given.
 */
export function matches(product: PlainProduct, filter: ProductFilter): boolean {
  return (
    (filter.id === undefined || product.id === filter.id) &&
    (filter.status === undefined || statusOf(product) === filter.status) &&
    (filter.name === undefined ||
      referenceFold(product.name).includes(referenceFold(filter.name))) &&
    inRange(product.quantity, filter.minQuantity, filter.maxQuantity) &&
    inRange(product.id, filter.minId, filter.maxId)
  );
}

/** A known quantity within the bounds given; an unknown one is in no range. */
function inRange(quantity: number | null | undefined, min?: number, max?: number): boolean {
  if (min === undefined && max === undefined) return true;
  if (quantity === null || quantity === undefined) return false;
  return (min === undefined || quantity >= min) && (max === undefined || quantity <= max);
}

/** The reference engine answers ProductFilters; `select` takes one as its conditions. */
export interface ReferenceEngine {
  select(filter: ProductFilter): ReturnType<QueryEngine['select']>;
}

/** Positions are the dataset's, in its id order; the suite checks that order on its own. */
export function createReferenceEngine(dataset: Dataset): ReferenceEngine {
  const products = allProducts(dataset);
  return {
    select(filter) {
      return slicesOf(
        products.flatMap((product, position) => (matches(product, filter) ? [position] : [])),
      );
    },
  };
}
