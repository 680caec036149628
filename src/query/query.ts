/** @module The shapes the query engine takes and gives. */
import type { StockStatus } from '../catalog/stock-status.ts';

/** Filters of a list request; absent members do not filter. Combined with AND. */
export interface ProductFilter {
  /** Case-insensitive, literal substring of the name. */
  readonly name?: string;
  readonly id?: number;
  readonly status?: StockStatus;
}

/** A page request, already validated against the spec's bounds. */
export interface PageRequest {
  /** From 1. */
  readonly page: number;
  /** From 1. */
  readonly limit: number;
}

/** One page of a filtered, ordered list. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly page: number;
  readonly limit: number;
  /** Items matching the filter, over all pages. */
  readonly total: number;
  /** max(1, ceil(total / limit)): an empty list still has one (empty) page. */
  readonly lastPage: number;
}
