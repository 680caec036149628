/** @module The four stock statuses of the interface. */

export const STOCK_STATUSES = ['available', 'incoming', 'on_request', 'out_of_stock'] as const;

export type StockStatus = (typeof STOCK_STATUSES)[number];

export function isStockStatus(value: unknown): value is StockStatus {
  return (STOCK_STATUSES as readonly unknown[]).includes(value);
}
