/** @module Access levels, and what each one sees of a product's stock. */
import { extraFieldsOf, type Product, type ProductStock } from '../catalog/catalog.ts';

export const ACCESS_LEVELS = ['status', 'quantity'] as const;

/** `status`: stock as a status string. `quantity`: the absolute quantity as well. */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/**
 * The two points the interface leaves open, as settings: the name of the absolute level
 * (`quantity` in the samples, `stock` in the field list) and the type of `product_id` (integer in
 * the samples, string in the field list). The defaults follow the samples.
 */
export interface Compatibility {
  readonly stockField: 'quantity' | 'stock';
  readonly productIdType: 'integer' | 'string';
}

export const DEFAULT_COMPATIBILITY: Compatibility = {
  stockField: 'quantity',
  productIdType: 'integer',
};

/** A stock object: `{product_id, status}`, plus the absolute level for a quantity token. */
export type StockView = Readonly<Record<string, string | number | null>>;

/** The stock object of a product as a caller of the given level sees it. */
export function toStockView(
  product: ProductStock,
  level: AccessLevel,
  compatibility: Compatibility = DEFAULT_COMPATIBILITY,
): StockView {
  const productId = compatibility.productIdType === 'string' ? String(product.id) : product.id;
  return level === 'quantity'
    ? {
        product_id: productId,
        [compatibility.stockField]: product.quantity,
        status: product.status,
      }
    : { product_id: productId, status: product.status };
}

/** The product record of /v1/products: id and name first, then the fixture's extra fields. */
export function toProductRecord(product: Product): Readonly<Record<string, unknown>> {
  return { id: product.id, name: product.name, ...extraFieldsOf(product) };
}
