/** @module Access levels, and what each one sees of a product's stock. */
import type { Product } from '../catalog/catalog.ts';
import type { StockStatus } from '../catalog/stock-status.ts';

export const ACCESS_LEVELS = ['status', 'quantity'] as const;

/** `status`: stock as a status string. `quantity`: the absolute quantity as well. */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export interface StockStatusView {
  readonly product_id: number;
  readonly status: StockStatus;
}

export interface StockQuantityView {
  readonly product_id: number;
  readonly quantity: number | null;
  readonly status: StockStatus;
}

export type StockView = StockStatusView | StockQuantityView;

/** The stock object of a product as a caller of the given level sees it. */
export function toStockView(product: Product, level: AccessLevel): StockView {
  return level === 'quantity'
    ? { product_id: product.id, quantity: product.quantity, status: product.status }
    : { product_id: product.id, status: product.status };
}

/** The product record of /v1/products: id and name first, then the fixture's extra fields. */
export function toProductRecord(product: Product): Readonly<Record<string, unknown>> {
  return { id: product.id, name: product.name, ...product.extra };
}
