/** @module The one mutable thing: which Catalog is being served. */
import type { Catalog } from './catalog.ts';

/**
 * Holds the served Catalog. A reload builds a whole new Catalog and swaps the reference, so a
 * request that has read `current` keeps one consistent catalogue to its end.
 */
export interface CatalogStore {
  readonly current: Catalog;
  replace(next: Catalog): void;
}

export function createCatalogStore(initial: Catalog): CatalogStore {
  let current = initial;
  return {
    get current() {
      return current;
    },
    replace(next) {
      current = next;
    },
  };
}
