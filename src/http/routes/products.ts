/** @module GET /v1/products and /v1/products/{id}: product records. */
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
