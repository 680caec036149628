/**
 * @module GET /v1/products and /v1/products/{id}: product records.
 *
 * Records are serialized by JSON.stringify, not fast-json-stringify: a record carries whatever
 * extra fields its fixture holds (`additionalProperties: true`), which fast-json-stringify can
 * only hand back to JSON.stringify. Stock objects, whose shape is fixed, have their own writer.
 */
import { toProductRecord } from '../../access/access-level.ts';
import type { StockShape } from '../../access/compatibility.ts';
import type { Catalog } from '../../catalog/catalog.ts';
import { listPage, positionOfPathId, type OperationHandler } from '../operation-handler.ts';
import { notFound } from './stock.ts';

/** Records carry their id as the stock objects do: `productIdType` decides for both. */
export function productHandlers(shape: StockShape): Record<string, OperationHandler> {
  const record = (catalog: Catalog, position: number) =>
    toProductRecord(catalog.productAt(position), shape.productIdType);
  return {
    listProducts: (context) => ({ body: listPage(context, record) }),
    getProduct: (context) => {
      const position = positionOfPathId(context);
      if (position < 0) throw notFound(context.values.get('id'));
      return { body: { data: record(context.catalog, position) } };
    },
  };
}
