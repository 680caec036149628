/** @module The immutable product catalogue that one data load produces. */
import { STOCK_STATUSES, type StockStatus } from './stock-status.ts';

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
  /**
   * Fields of the fixture beyond id, name, quantity and status, in their order, as the text of a
   * JSON object (`{}` when there are none). Text, not an object: at a million products the
   * objects, their property stores and boxed prices were three quarters of the heap's objects,
   * and every full collection marked them all. Only /v1/products reads them, a page at a time.
   */
  readonly extraJson: string;
  /** The name case-folded once at load, for the name filter. */
  readonly foldedName: string;
}

/** A product's extra fields, as an object. */
export function extraFieldsOf(product: Product): Readonly<Record<string, JsonValue>> {
  return JSON.parse(product.extraJson) as Readonly<Record<string, JsonValue>>;
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
  readonly byId: ProductLookup;
  /** What the query engine needs, computed once per load. */
  readonly index: CatalogIndex;
  /** What is derived later, on first use; it goes when the catalogue goes. */
  readonly memo: CatalogMemo;
}

/**
 * Slots for work derived from a catalogue after its load, such as the query engine's caches; each
 * module that keeps some declares its slot by augmenting this interface. The catalogue holds
 * them itself rather than a WeakMap keyed by catalogue: V8 marks a WeakMap's values as
 * ephemerons, in the pause of each full collection, and these caches hold tens of megabytes
 * (measured at a million products: 47 ms of one pause went to ephemeron marking).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by augmentation
export interface CatalogMemo {}

/** Finds a product by id. */
export interface ProductLookup {
  get(id: number): Product | undefined;
}

/**
 * Lookups built once per load, so that a request never scans more than it must. Names are
 * indexed by distinct folded name: catalogues repeat names a lot (the generated ones use about
 * ten thousand for a million products), so a name filter tests each distinct name once.
 */
export interface CatalogIndex {
  /** The products of each status, ascending by id. */
  readonly byStatus: ReadonlyMap<StockStatus, readonly Product[]>;
  /** Every distinct folded name. */
  readonly names: readonly string[];
  /** For the product at each position of `products`, the index of its name in `names`. */
  readonly nameOf: Int32Array;
  /** For each distinct name, the positions of its products, ascending. */
  readonly postings: readonly Int32Array[];
  /** For the product at each position, the index of its status in STOCK_STATUSES. */
  readonly statusOf: Uint8Array;
  /** How many products have each name and status: `counts[name * 4 + status]`. */
  readonly counts: Int32Array;
}

/** Builds a Catalog from products in any order; ids must be unique (the loader checks). */
export function createCatalog(source: string, products: readonly Product[]): Catalog {
  // Generated and hand-written fixtures usually come sorted: check in one pass before sorting.
  const sorted = isSortedById(products) ? [...products] : [...products].sort((a, b) => a.id - b.id);
  // The lists are readonly by type, not frozen: V8 slices a frozen array twenty times slower
  // (measured: 1.5 µs against 74 ns for ten items), and every page is a slice.
  return Object.freeze({
    source,
    products: sorted,
    byId: lookupById(sorted),
    index: buildIndex(sorted),
    memo: {},
  });
}

/**
 * Ids to products without a Map: a Map of a million entries holds about 40 MB. When the ids run
 * without gaps (generated catalogues, most fixtures), an id's offset from the first is its
 * position; otherwise a binary search over the sorted ids finds it.
 */
function lookupById(sorted: readonly Product[]): ProductLookup {
  const first = sorted[0]?.id ?? 0;
  if (sorted.every((product, position) => product.id === first + position)) {
    return { get: (id) => (Number.isInteger(id) ? sorted[id - first] : undefined) };
  }
  const ids = Float64Array.from(sorted, (product) => product.id);
  return {
    get(id) {
      let low = 0;
      let high = ids.length - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const found = ids[middle] as number;
        if (found === id) return sorted[middle];
        if (found < id) low = middle + 1;
        else high = middle - 1;
      }
      return undefined;
    },
  };
}

function isSortedById(products: readonly Product[]): boolean {
  for (let i = 1; i < products.length; i++) {
    if ((products[i - 1] as Product).id > (products[i] as Product).id) return false;
  }
  return true;
}

function buildIndex(products: readonly Product[]): CatalogIndex {
  const byStatus = new Map<StockStatus, Product[]>(STOCK_STATUSES.map((status) => [status, []]));
  const statusNumber = new Map<StockStatus, number>(STOCK_STATUSES.map((status, i) => [status, i]));
  const nameIds = new Map<string, number>();
  const nameOf = new Int32Array(products.length);
  const statusOf = new Uint8Array(products.length);
  products.forEach((product, position) => {
    byStatus.get(product.status)?.push(product);
    statusOf[position] = statusNumber.get(product.status) ?? 0;
    let id = nameIds.get(product.foldedName);
    if (id === undefined) {
      id = nameIds.size;
      nameIds.set(product.foldedName, id);
    }
    nameOf[position] = id;
  });
  const counts = new Int32Array(nameIds.size * STOCK_STATUSES.length);
  const sizes = new Int32Array(nameIds.size);
  for (let position = 0; position < products.length; position++) {
    const name = nameOf[position] as number;
    sizes[name] = (sizes[name] as number) + 1;
    const cell = name * STOCK_STATUSES.length + (statusOf[position] as number);
    counts[cell] = (counts[cell] as number) + 1;
  }
  const postings = Array.from(sizes, (size) => new Int32Array(size));
  const filled = new Int32Array(nameIds.size);
  for (let position = 0; position < products.length; position++) {
    const name = nameOf[position] as number;
    (postings[name] as Int32Array)[filled[name] as number] = position;
    filled[name] = (filled[name] as number) + 1;
  }
  return Object.freeze({
    byStatus,
    names: Object.freeze([...nameIds.keys()]),
    nameOf,
    postings,
    statusOf,
    counts,
  });
}
