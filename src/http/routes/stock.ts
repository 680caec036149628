/** @module GET /v1/stock and /v1/stock/{id}: stock objects at the caller's access level. */
import {
  stockJsonWriter,
  type AccessLevel,
  type StockJsonWriter,
} from '../../access/access-level.ts';
import type { Compatibility } from '../../access/compatibility.ts';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';
import {
  JSON_TYPE,
  listPageJson,
  positionOfPathId,
  type OperationContext,
  type OperationHandler,
} from '../operation-handler.ts';

/** Stock bodies are written as JSON text directly: see `stockJsonWriter`. */
export function stockHandlers(compatibility: Compatibility): Record<string, OperationHandler> {
  const writers: Record<AccessLevel, StockJsonWriter> = {
    status: stockJsonWriter('status', compatibility),
    quantity: stockJsonWriter('quantity', compatibility),
  };
  return {
    listStock: (context) => {
      const write = writers[levelOf(context)];
      return {
        body: listPageJson(context, (catalog, position) => write(catalog.stockAt(position))),
        type: JSON_TYPE,
      };
    },
    getStock: (context) => {
      const position = positionOfPathId(context);
      if (position < 0) throw notFound(context.values.get('id'));
      const stock = context.catalog.stockAt(position);
      return { body: `{"data":${writers[levelOf(context)](stock)}}`, type: JSON_TYPE };
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
