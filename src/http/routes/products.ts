/** @module GET /v1/products and /v1/products/{id}: product records. */
import { toProductRecord } from '../../access/access-level.ts';
import { listPage, productAt, type OperationHandler } from '../operation-handler.ts';
import { notFound } from './stock.ts';

export const productHandlers: Record<string, OperationHandler> = {
  listProducts: (context) => ({ body: listPage(context, toProductRecord) }),
  getProduct: (context) => {
    const product = productAt(context);
    if (product === undefined) throw notFound(context.values.get('id'));
    return { body: { data: toProductRecord(product) } };
  },
};
