/** @module The spec as a route table: one entry per operation, registered in one loop. */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec } from './load-spec.ts';
import { operationsOf, type HttpMethod } from './operation-rules.ts';
import { credentialQueryNames, routeSecurityOf, type RouteSecurity } from './security.ts';
import {
  createParameterParser,
  type ParameterParser,
  type UnknownParameters,
} from './parameter-parser.ts';

interface RouteBase {
  /** What names the operation: its operationId, or its method and path (operationKey). */
  readonly key: string;
  readonly method: HttpMethod;
  /** The spec's path template: `/v1/stock/{id}`. */
  readonly path: string;
  /** The same path in Fastify's syntax: `/v1/stock/:id`. */
  readonly url: string;
  /** Who may call it: spec/security.ts. */
  readonly security: RouteSecurity;
  /** Media types of the success response, for content negotiation. */
  readonly produces: readonly string[];
  /** Every status the spec declares for the operation. */
  readonly statuses: readonly number[];
}

/** An operation served from data (`x-stockmock`), or answered from the spec's examples. */
export type RouteDef =
  | (RouteBase & { readonly answers: 'data'; readonly parseParameters: ParameterParser })
  | (RouteBase & { readonly answers: 'examples' });

/** An operation served from data. */
export type DataRoute = Extract<RouteDef, { readonly answers: 'data' }>;

/**
 * Reads every operation of the spec, any method. Those whose key `fromData` names are served
 * from data, and get a parser of their parameters; every other one is answered from the spec's
 * examples, which validates its own requests.
 */
export function buildRouteTable(
  spec: LoadedSpec,
  unknownParameters: UnknownParameters,
  fromData: ReadonlySet<string>,
): readonly RouteDef[] {
  const document = spec.dereferenced;
  const schemes = (document.components?.securitySchemes ?? {}) as Record<
    string,
    OpenAPIV3_1.SecuritySchemeObject | undefined
  >;
  const routes: RouteDef[] = [];
  for (const { key, method, path, item, operation } of operationsOf(spec)) {
    const security = routeSecurityOf(operation.security ?? document.security ?? [], schemes);
    const routerNames = routerNamesOf(path);
    const base: RouteBase = {
      key,
      method,
      path,
      url: fastifyUrlOf(path, routerNames),
      security,
      produces: Object.keys(successResponse(operation)?.content ?? {}),
      // OpenAPI 3.1 lets an operation leave its responses out.
      statuses: Object.keys(operation.responses ?? {})
        .map(Number)
        .filter(Number.isInteger),
    };
    if (!fromData.has(key)) {
      routes.push({ ...base, answers: 'examples' });
      continue;
    }
    const parameters = [
      ...(item.parameters ?? []),
      ...(operation.parameters ?? []),
    ] as OpenAPIV3_1.ParameterObject[];
    routes.push({
      ...base,
      answers: 'data',
      parseParameters: createParameterParser(
        parameters,
        unknownParameters,
        new Set(credentialQueryNames(security)),
        routerNames,
      ),
    });
  }
  return routes;
}

/**
 * Text a request's path can carry only percent-encoded (`#`, `?`), which some specs write in a
 * path: AWS's conversions name operations `/#X-Amz-Target=Service.Action`.
 */
export const RESERVED_IN_PATH = /[#?]/;

/**
 * A path template in Fastify's syntax: `{id}` alone in its segment is `:id`; beside other text
 * (`{name}:enable`, `{id}.json`, `{from}-{to}`) it is a parameter of its own pattern, which
 * ends where the text does. A literal `:` is written `::`; a `#` or `?` as the request carries
 * it, `%23` or `%3F` (see http/reserved-path.ts for how such a request is routed).
 */
function fastifyUrlOf(template: string, routerNames: ReadonlyMap<string, string>): string {
  const named = (name: string): string => `:${routerNames.get(name) ?? name}`;
  return template
    .split('/')
    .map((segment) => {
      const whole = /^\{([^}]+)\}$/.exec(segment);
      if (whole !== null) return named(whole[1] ?? '');
      return segment
        .split(/(\{[^}]+\})/)
        .map((part) =>
          part.startsWith('{')
            ? `${named(part.slice(1, -1))}([^/]+?)`
            : part.replaceAll(':', '::').replaceAll('#', '%23').replaceAll('?', '%3F'),
        )
        .join('');
    })
    .join('/');
}

/** A parameter name Fastify's router reads whole: it ends a name at `-`, `.` and `(`. */
const ROUTER_NAME = /^[A-Za-z0-9_]+$/;

/**
 * The name the router gives each path parameter whose name it cannot read whole (`thing-id`,
 * `order.id` → `thing_id`, `order_id`, with a number where the template has that name already):
 * the parameter parser reads the value under it, and the spec's name is the one every answer
 * and problem shows.
 */
function routerNamesOf(template: string): ReadonlyMap<string, string> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const taken = new Set(names.filter((name) => ROUTER_NAME.test(name)));
  const renamed = new Map<string, string>();
  for (const name of names) {
    if (ROUTER_NAME.test(name) || renamed.has(name)) continue;
    const base = name.replaceAll(/[^A-Za-z0-9_]/g, '_');
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${String(n)}`;
    taken.add(candidate);
    renamed.set(name, candidate);
  }
  return renamed;
}

function successResponse(
  operation: OpenAPIV3_1.OperationObject,
): OpenAPIV3_1.ResponseObject | undefined {
  const entry = Object.entries(operation.responses ?? {}).find(([code]) => code.startsWith('2'));
  return entry?.[1] as OpenAPIV3_1.ResponseObject | undefined;
}

/**
 * Which operations are served from data and which from the spec's examples, as `serve` logs it
 * and `validate` prints it: `2 from data (listOrders, getOrder); 1 from the spec's examples
 * (POST /v1/orders)`. Long lists are cut after ten names.
 */
export function describeAnswers(spec: LoadedSpec, fromData: ReadonlySet<string>): string {
  const all = operationsOf(spec).map(({ key }) => key);
  const named = (kind: RouteDef['answers']): string =>
    countedNames(all.filter((key) => fromData.has(key) === (kind === 'data')));
  return `operations from data: ${named('data')}; from the spec's examples: ${named('examples')}`;
}

/** `3 (a, b, c)`: how many, and the names, cut after ten; `0` for none. */
export function countedNames(names: readonly string[]): string {
  if (names.length === 0) return '0';
  const shown = names.slice(0, 10).join(', ');
  return `${String(names.length)} (${names.length > 10 ? `${shown}, …` : shown})`;
}

/**
 * The routes a router can tell apart, and those it cannot: two paths that differ only in the
 * names of their parameters are one path (OpenAPI: they "MUST NOT exist"), so the first in the
 * spec is routed and each later one is named with the one that answers for it.
 */
export function distinctRoutes(routes: readonly RouteDef[]): {
  readonly routed: readonly RouteDef[];
  readonly shadowed: readonly string[];
} {
  const first = new Map<string, RouteDef>();
  const shadowed: string[] = [];
  for (const route of routes) {
    // A parameter's name left out (`::`, a literal colon, kept as it is).
    const url = route.url.replaceAll(/::|:[^/:(]+/g, (found) => (found === '::' ? found : ':'));
    const shape = `${route.method} ${url}`;
    const earlier = first.get(shape);
    if (earlier === undefined) first.set(shape, route);
    else {
      shadowed.push(
        `${route.method} ${route.path} is the path ${earlier.path} with other parameter names: ${earlier.key} answers it`,
      );
    }
  }
  return { routed: [...first.values()], shadowed };
}
