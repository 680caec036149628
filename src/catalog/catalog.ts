/** @module The immutable product catalogue that one data load produces. */
import { packedAt, packStrings, type PackedStrings } from '../util/packed-strings.ts';
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
 *
 * Products are stored by column (typed arrays of ids, quantities, statuses and name numbers,
 * one string of extra fields each), and a Product object is made only when a request reads one.
 * A million Product objects were a million objects for every full collection to mark, under load,
 * in pauses of 10–30 ms; the columns are a handful.
 */
export interface Catalog {
  /** Where the data came from, for logs and /healthz. */
  readonly source: string;
  /** How many products. */
  readonly size: number;
  /** The product at a position, 0 to size − 1 ascending by id; made anew on each call. */
  productAt(position: number): Product;
  /**
   * The stock of the product at a position: what stock views read, without the extra fields
   * (a generated catalogue writes their JSON text on each read).
   */
  stockAt(position: number): ProductStock;
  /** The display name of the product at a position, without making the product. */
  nameAt(position: number): string;
  readonly byId: ProductLookup;
  /** How the products are stored, for the query engine to index; see CatalogColumns. */
  readonly columns: CatalogColumns;
}

/** What a stock view reads of a product. */
export type ProductStock = Pick<Product, 'id' | 'quantity' | 'status'>;

/** Every product, in order: for tests and small listings, never for a request. */
export function allProducts(catalog: Catalog): Product[] {
  return Array.from({ length: catalog.size }, (_, position) => catalog.productAt(position));
}

/** Finds a product by id. */
export interface ProductLookup {
  get(id: number): Product | undefined;
  /** Its position, or -1. */
  positionOf(id: number): number;
}

/**
 * The columns that the query engine reads, position by position. Names are numbered by distinct
 * folded name: catalogues repeat names a lot (the generated ones use about ten thousand for a
 * million products), so a name filter can test each distinct name once. What the engine derives
 * from these (lists by status, by name, counts) is its own, in src/query/.
 */
export interface CatalogColumns {
  /**
   * Every distinct folded name, packed: a catalogue of a hundred thousand distinct names would
   * otherwise put a hundred thousand strings on the serving thread's heap at every reload.
   */
  readonly foldedNames: PackedStrings;
  /** For the product at each position, the index of its folded name in `foldedNames`. */
  readonly foldedNameOf: Int32Array;
  /** For the product at each position, the index of its status in STOCK_STATUSES. */
  readonly statusOf: Uint8Array;
}

/**
 * A catalogue as plain columns: what a loading worker builds and hands to the serving thread.
 * Typed arrays move across without a copy; strings are packed, so each list crosses as one.
 */
export interface CatalogData {
  readonly source: string;
  readonly ids: Float64Array;
  /** NaN where the quantity is unknown (null): a fixture's quantity is an integer or null. */
  readonly quantities: Float64Array;
  readonly statusOf: Uint8Array;
  readonly foldedNameOf: Int32Array;
  readonly foldedNames: PackedStrings;
  /** Display names, which folded names may merge ("Oak" and "oak"). */
  readonly displayNameOf: Int32Array;
  readonly displayNames: PackedStrings;
  /** Each product's extra fields as JSON text; absent where the caller keeps them (generated). */
  readonly extraJson?: PackedStrings;
}

/** The buffers of a CatalogData, to move to another thread instead of copying them. */
export function buffersOf(data: CatalogData): ArrayBuffer[] {
  return [
    data.ids,
    data.quantities,
    data.statusOf,
    data.foldedNameOf,
    data.displayNameOf,
    data.foldedNames.ends,
    data.displayNames.ends,
    ...(data.extraJson === undefined ? [] : [data.extraJson.ends]),
  ].map((array) => array.buffer as ArrayBuffer);
}

/**
 * Builds a Catalog from products in any order; ids must be unique (the loader checks). A caller
 * that keeps the extra fields in a form of its own (generated catalogues) gives `extraJsonOf`,
 * and the products' own `extraJson` is then not read.
 */
export function createCatalog(
  source: string,
  products: readonly Product[],
  extraJsonOf?: (id: number) => string,
): Catalog {
  return catalogFromData(catalogData(source, products, extraJsonOf === undefined), extraJsonOf);
}

/** The columns of products in any order; `keepExtras` keeps their extra fields' text. */
export function catalogData(
  source: string,
  products: readonly Product[],
  keepExtras: boolean,
): CatalogData {
  // Generated and hand-written fixtures usually come sorted: check in one pass before sorting.
  const sorted = isSortedById(products) ? products : [...products].sort((a, b) => a.id - b.id);
  const statusNumber = new Map<StockStatus, number>(STOCK_STATUSES.map((status, i) => [status, i]));
  const size = sorted.length;
  const ids = new Float64Array(size);
  const quantities = new Float64Array(size);
  const statusOf = new Uint8Array(size);
  const folded = numbering(size);
  const display = numbering(size);
  const extras = keepExtras ? new Array<string>(size) : undefined;
  sorted.forEach((product, position) => {
    ids[position] = product.id;
    quantities[position] = product.quantity ?? Number.NaN;
    statusOf[position] = statusNumber.get(product.status) ?? 0;
    folded.add(position, product.foldedName);
    display.add(position, product.name);
    if (extras !== undefined) extras[position] = product.extraJson;
  });
  return {
    source,
    ids,
    quantities,
    statusOf,
    foldedNameOf: folded.of,
    foldedNames: packStrings(folded.names()),
    displayNameOf: display.of,
    displayNames: packStrings(display.names()),
    ...(extras === undefined ? {} : { extraJson: packStrings(extras) }),
  };
}

/** Numbers each distinct string in the order first seen, and records each position's number. */
function numbering(size: number) {
  const numbers = new Map<string, number>();
  const of = new Int32Array(size);
  return {
    of,
    add(position: number, text: string): void {
      let number = numbers.get(text);
      if (number === undefined) {
        number = numbers.size;
        numbers.set(text, number);
      }
      of[position] = number;
    },
    names: () => [...numbers.keys()],
  };
}

/**
 * The Catalog over its columns: a few closures; names and extra fields are sliced from their
 * packed text when read, or the extra fields come from `extraJsonOf` where the caller keeps
 * them.
 */
export function catalogFromData(data: CatalogData, extraJsonOf?: (id: number) => string): Catalog {
  const { ids, quantities, statusOf, foldedNameOf, foldedNames } = data;
  const { displayNameOf, displayNames, extraJson } = data;
  const extraJsonAt =
    extraJsonOf !== undefined
      ? (position: number) => extraJsonOf(ids[position] as number)
      : extraJson !== undefined
        ? (position: number) => packedAt(extraJson, position)
        : () => NO_EXTRA_FIELDS;
  const quantityAt = (position: number): number | null => {
    const quantity = quantities[position] as number;
    return Number.isNaN(quantity) ? null : quantity;
  };
  const statusAt = (position: number): StockStatus =>
    STOCK_STATUSES[statusOf[position] as number] as StockStatus;
  // Fields in the order toProduct gives them: one object shape for every product.
  const nameAt = (position: number): string =>
    packedAt(displayNames, displayNameOf[position] as number);
  const productAt = (position: number): Product => ({
    id: ids[position] as number,
    name: nameAt(position),
    quantity: quantityAt(position),
    status: statusAt(position),
    extraJson: extraJsonAt(position),
    foldedName: packedAt(foldedNames, foldedNameOf[position] as number),
  });
  const stockAt = (position: number): ProductStock => ({
    id: ids[position] as number,
    quantity: quantityAt(position),
    status: statusAt(position),
  });
  return Object.freeze({
    source: data.source,
    size: ids.length,
    productAt,
    stockAt,
    nameAt,
    byId: lookupById(ids, productAt),
    columns: Object.freeze({ foldedNames, foldedNameOf, statusOf }),
  });
}

/** The text of no extra fields. */
const NO_EXTRA_FIELDS = '{}';

/**
 * Ids to positions without a Map: a Map of a million entries holds about 40 MB. When the ids run
 * without gaps (generated catalogues, most fixtures), an id's offset from the first is its
 * position; otherwise a binary search over the sorted ids finds it.
 */
function lookupById(ids: Float64Array, productAt: (position: number) => Product): ProductLookup {
  const first = ids[0] ?? 0;
  const gapless = ids.every((id, position) => id === first + position);
  const positionOf = (id: number): number => {
    if (!Number.isInteger(id)) return -1;
    if (gapless) return id >= first && id - first < ids.length ? id - first : -1;
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = ids[middle] as number;
      if (found === id) return middle;
      if (found < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  };
  return {
    get(id) {
      const position = positionOf(id);
      return position < 0 ? undefined : productAt(position);
    },
    positionOf,
  };
}

function isSortedById(products: readonly Product[]): boolean {
  for (let i = 1; i < products.length; i++) {
    if ((products[i - 1] as Product).id > (products[i] as Product).id) return false;
  }
  return true;
}
