/**
 * @module GET /v1/products and /v1/products/{id}: product records.
 *
 * Records are serialized by JSON.stringify, not fast-json-stringify: a record carries whatever
 * extra fields its fixture holds (`additionalProperties: true`), which fast-json-stringify can
 * only hand back to JSON.stringify. Stock objects, whose shape is fixed, have their own writer.
 */
import { toProductRecord } from '../../access/access-level.ts';
import { listPage, positionOfPathId, type OperationHandler } from '../operation-handler.ts';
import { notFound } from './stock.ts';

export const productHandlers: Record<string, OperationHandler> = {
  listProducts: (context) => ({
    body: listPage(context, (catalog, position) => toProductRecord(catalog.productAt(position))),
  }),
  getProduct: (context) => {
    const position = positionOfPathId(context);
    if (position < 0) throw notFound(context.values.get('id'));
    return { body: { data: toProductRecord(context.catalog.productAt(position)) } };
  },
};
