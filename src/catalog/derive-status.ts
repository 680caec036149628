/** @module The status a product has when its fixture gives none. */
import type { StockStatus } from './stock-status.ts';

/**
 * An explicit status wins. Otherwise: a known positive quantity is `available`, zero is
 * `out_of_stock`, and an unknown quantity (null or absent) is `on_request`. `incoming`
 * cannot be derived: it is always explicit.
 */
export function deriveStatus(quantity: number | null, explicit?: StockStatus): StockStatus {
  if (explicit !== undefined) return explicit;
  if (quantity === null) return 'on_request';
  return quantity > 0 ? 'available' : 'out_of_stock';
}
