/** @module Access levels, and what each one sees of a product's stock. */
import { extraFieldsOf, type Product, type ProductStock } from '../catalog/catalog.ts';
import { STOCK_STATUSES, type StockStatus } from '../catalog/stock-status.ts';
import { DEFAULT_COMPATIBILITY, type StockShape } from './compatibility.ts';

export const ACCESS_LEVELS = ['status', 'quantity'] as const;

/** `status`: stock as a status string. `quantity`: the absolute quantity as well. */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** A stock object: `{product_id, status}`, plus the absolute level for a quantity token. */
export type StockView = Readonly<Record<string, string | number | null>>;

/** The product record of /v1/products: id and name first, then the fixture's extra fields. */
export function toProductRecord(
  product: Product,
  productIdType: StockShape['productIdType'] = 'integer',
): Readonly<Record<string, unknown>> {
  const id = productIdType === 'string' ? String(product.id) : product.id;
  return { id, name: product.name, ...extraFieldsOf(product) };
}

/** Writes a stock view as JSON text. */
export type StockJsonWriter = (product: ProductStock) => string;

/**
 * The JSON text of a stock object as a caller of the level sees it (`{product_id, status}`, and
 * the absolute level for `quantity`), for one set of compatibility settings, written without
 * making a view object: pages of stock views are the mock's hot path, and a page of 20
 * with its links took 6.5 µs through JSON.stringify and 3 µs written so. Every part is text that
 * needs no escaping: field names and statuses are quoted once here, and a number's text (an id, a
 * quantity) holds no character that JSON escapes. The unit tests hold it to
 * JSON.stringify of a plain view built the obvious way. Not fast-json-stringify: the spec's stock
 * object is a `oneOf` of the two levels' shapes, and fast-json-stringify serves a `oneOf` by
 * validating each item against every branch, which costs more than it saves here.
 */
export function stockJsonWriter(
  level: AccessLevel,
  compatibility: StockShape = DEFAULT_COMPATIBILITY,
): StockJsonWriter {
  const statusJson = Object.fromEntries(
    STOCK_STATUSES.map((status) => [status, JSON.stringify(status)]),
  ) as Record<StockStatus, string>;
  const idJson =
    compatibility.productIdType === 'string'
      ? (id: number) => `"${String(id)}"`
      : (id: number) => String(id);
  const quantityKey = `,${JSON.stringify(compatibility.stockField)}:`;
  return level === 'quantity'
    ? (product) =>
        `{"product_id":${idJson(product.id)}${quantityKey}${product.quantity === null ? 'null' : String(product.quantity)},"status":${statusJson[product.status]}}`
    : (product) => `{"product_id":${idJson(product.id)},"status":${statusJson[product.status]}}`;
}
