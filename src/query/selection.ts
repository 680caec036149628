/** @module A filtered list that knows its size and gives out slices, without being built whole. */
import type { Catalog, Product } from '../catalog/catalog.ts';

/** The result of a filter: its total, and any slice of it in id order. */
export interface Selection {
  readonly total: number;
  slice(start: number, end: number): readonly Product[];
}

export function selectionOf(items: readonly Product[]): Selection {
  return { total: items.length, slice: (start, end) => items.slice(start, end) };
}

/** The products at the given positions of the catalogue, or all of them; made a page at a time. */
export function selectionAt(catalog: Catalog, positions?: Int32Array): Selection {
  const total = positions === undefined ? catalog.size : positions.length;
  return {
    total,
    slice(start, end) {
      const page: Product[] = [];
      const stop = Math.min(end, total);
      for (let i = start; i < stop; i++) {
        page.push(catalog.productAt(positions === undefined ? i : (positions[i] as number)));
      }
      return page;
    },
  };
}
