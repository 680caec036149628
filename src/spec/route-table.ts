/** @module The spec as a route table: one entry per operation, registered in one loop. */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec } from './load-spec.ts';
import { HTTP_METHODS } from './operation-rules.ts';
import {
  createParameterParser,
  type ParameterParser,
  type UnknownParameters,
} from './parameter-parser.ts';

/** Who may call an operation: from its `security` (an empty list means open). */
export type RouteAuth = 'bearer' | 'none';

export interface RouteDef {
  readonly operationId: string;
  readonly method: 'GET';
  /** The spec's path template: `/v1/stock/{id}`. */
  readonly path: string;
  /** The same path in Fastify's syntax: `/v1/stock/:id`. */
  readonly url: string;
  readonly auth: RouteAuth;
  /** Media types of the success response, for content negotiation. */
  readonly produces: readonly string[];
  /** Every status the spec declares for the operation. */
  readonly statuses: readonly number[];
  readonly parseParameters: ParameterParser;
}

/**
 * Reads every operation of the spec. Only GET is served (the interface is read-only); any other
 * operation in the spec is an error at start, not a silent gap.
 */
export function buildRouteTable(
  spec: LoadedSpec,
  unknownParameters: UnknownParameters,
): readonly RouteDef[] {
  const document = spec.dereferenced;
  const globalSecurity = document.security ?? [];
  const routes: RouteDef[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (item === undefined) continue;
    for (const method of HTTP_METHODS) {
      if (method !== 'get' && item[method] !== undefined) {
        throw new Error(`${method.toUpperCase()} ${path}: stockmock serves GET operations only`);
      }
    }
    const operation = item.get;
    if (operation === undefined) continue;
    if (operation.operationId === undefined) throw new Error(`GET ${path} has no operationId`);
    const parameters = [
      ...(item.parameters ?? []),
      ...(operation.parameters ?? []),
    ] as OpenAPIV3_1.ParameterObject[];
    const security = operation.security ?? globalSecurity;
    routes.push({
      operationId: operation.operationId,
      method: 'GET',
      path,
      url: path.replaceAll(/\{([^}]+)\}/g, ':$1'),
      auth: security.length === 0 ? 'none' : 'bearer',
      produces: Object.keys(successResponse(operation)?.content ?? {}),
      statuses: Object.keys(operation.responses).map(Number).filter(Number.isInteger),
      parseParameters: createParameterParser(parameters, unknownParameters),
    });
  }
  return routes;
}

function successResponse(
  operation: OpenAPIV3_1.OperationObject,
): OpenAPIV3_1.ResponseObject | undefined {
  const entry = Object.entries(operation.responses ?? {}).find(([code]) => code.startsWith('2'));
  return entry?.[1] as OpenAPIV3_1.ResponseObject | undefined;
}
