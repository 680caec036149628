/** @module The immutable product catalogue that one data load produces. */
import type { StockStatus } from './stock-status.ts';

/** A JSON value, as a fixture's extra fields may hold. */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One product with its stock, as loaded and derived from a fixture. */
export interface Product {
  readonly id: number;
  readonly name: string;
  /** Absolute stock; null when unknown. */
  readonly quantity: number | null;
  readonly status: StockStatus;
  /** Fields of the fixture beyond id, name, quantity and status, in their order. */
  readonly extra: Readonly<Record<string, JsonValue>>;
  /** The name case-folded once at load, for the name filter. */
  readonly foldedName: string;
}

/**
 * The products of one load, ordered by id. A new load builds a new Catalog; the server swaps
 * the reference, so a request sees one catalogue whole.
 */
export interface Catalog {
  /** Where the data came from, for logs and /healthz. */
  readonly source: string;
  /** Ascending by id. */
  readonly products: readonly Product[];
  readonly byId: ReadonlyMap<number, Product>;
}

/** Builds a Catalog from products in any order; ids must be unique (the loader checks). */
export function createCatalog(source: string, products: readonly Product[]): Catalog {
  const sorted = Object.freeze([...products].sort((a, b) => a.id - b.id));
  return Object.freeze({
    source,
    products: sorted,
    byId: new Map(sorted.map((product) => [product.id, product])),
  });
}
