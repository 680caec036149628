/** @module A filtered list that knows its size and gives out slices, without being built whole. */
import type { Product } from '../catalog/catalog.ts';

/** The result of a filter: its total, and any slice of it in id order. */
export interface Selection {
  readonly total: number;
  slice(start: number, end: number): readonly Product[];
}

export function selectionOf(items: readonly Product[]): Selection {
  return { total: items.length, slice: (start, end) => items.slice(start, end) };
}
