/** @module GET /v1/stock and /v1/stock/{id}: stock objects at the caller's access level. */
import { toStockView, type AccessLevel, type Compatibility } from '../../access/access-level.ts';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';
import {
  listPage,
  positionOfPathId,
  type OperationContext,
  type OperationHandler,
} from '../operation-handler.ts';

export function stockHandlers(compatibility: Compatibility): Record<string, OperationHandler> {
  return {
    listStock: (context) => {
      const level = levelOf(context);
      return {
        body: listPage(context, (catalog, position) =>
          toStockView(catalog.stockAt(position), level, compatibility),
        ),
      };
    },
    getStock: (context) => {
      const position = positionOfPathId(context);
      if (position < 0) throw notFound(context.values.get('id'));
      const stock = context.catalog.stockAt(position);
      return { body: { data: toStockView(stock, levelOf(context), compatibility) } };
    },
  };
}

export function notFound(id: unknown): ProblemError {
  return ProblemError.from(PROBLEMS.NOT_FOUND, `No product has the id ${String(id)}.`);
}

/** Stock routes are bearer routes: a missing level is a wiring bug, and must not pass quietly. */
function levelOf(context: OperationContext): AccessLevel {
  const level = context.request.accessLevel;
  if (level === null) throw new Error(`${context.request.url} was served without bearer-auth`);
  return level;
}
