/**
 * @module Rules every operation of a spec keeps before anything is routed by it: one operation
 * per `operationId`, and path templates that RFC 6570 level 1 allows.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SourceIssue } from '../problems/source-error.ts';
import { formatField } from '../source/describe-ajv-error.ts';
import type { LoadedSpec } from './load-spec.ts';

/** The methods a path item may hold an operation for (OpenAPI 3.x). */
export const HTTP_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const;

/** A method of HTTP_METHODS, upper case as on the wire. */
export type HttpMethod = Uppercase<(typeof HTTP_METHODS)[number]>;

/**
 * What names an operation everywhere (routes, declarations, simulation settings, logs): its
 * `operationId`, or, where the spec gives none, its method and path (`POST /v1/orders`).
 */
export function operationKey(
  method: HttpMethod,
  path: string,
  operation: { readonly operationId?: string | undefined },
): string {
  return operation.operationId ?? `${method} ${path}`;
}

/** One operation of the spec, where it is and what names it. */
export interface SpecOperation {
  readonly key: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly item: OpenAPIV3_1.PathItemObject;
  readonly operation: OpenAPIV3_1.OperationObject;
}

/**
 * Every operation of the spec, path by path; on each path HEAD comes first (Fastify adds a HEAD
 * to each GET unless one is there already).
 */
export function operationsOf(spec: LoadedSpec): SpecOperation[] {
  const operations: SpecOperation[] = [];
  const methods = ['head', ...HTTP_METHODS.filter((one) => one !== 'head')] as const;
  for (const [path, item] of Object.entries(spec.dereferenced.paths ?? {})) {
    if (item === undefined) continue;
    for (const lower of methods) {
      const operation = item[lower];
      if (operation === undefined) continue;
      const method = lower.toUpperCase() as HttpMethod;
      operations.push({
        key: operationKey(method, path, operation),
        method,
        path,
        item,
        operation,
      });
    }
  }
  return operations;
}

/**
 * A template expression as OpenAPI path templating and RFC 6570 level 1 write it: `{name}`, the
 * name of letters, digits, `_`, percent-escapes and inner dots.
 */
const EXPRESSION = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;

/**
 * A name with the other characters RFC 3986 leaves unreserved, `-` and `~`, as real specs write
 * them (`{withdrawals-id}`): outside level 1, yet one segment like any other, so it is served
 * (the router is given a name of its own, route-table.ts) with a warning. Anything else (a
 * space, a `/`, a `..`, a brace) would match requests no route can tell apart, and is refused.
 */
const UNRESERVED_NAME =
  /^(?:[A-Za-z0-9_~-]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_~-]|%[0-9A-Fa-f]{2})+)*$/;

/** Every breach of the rules, each with the file and line of the operation or path. */
export function operationIssues(spec: LoadedSpec): SourceIssue[] {
  const issues: SourceIssue[] = [];
  const report = (path: readonly (string | number)[], message: string) => {
    const at = spec.locate(path, 'key');
    issues.push({ file: spec.file, at, field: formatField(path), message });
  };
  const firstOf = new Map<string, readonly (string | number)[]>();
  const paths = (spec.dereferenced.paths ?? {}) as Record<string, OpenAPIV3_1.PathItemObject>;
  for (const [template, item] of Object.entries(paths)) {
    const problem = templateProblem(template);
    if (problem !== undefined) report(['paths', template], `${template}: ${problem}`);
    for (const method of HTTP_METHODS) {
      const id = (item as Record<string, { operationId?: unknown } | undefined>)[method]
        ?.operationId;
      if (typeof id !== 'string') continue;
      const at = ['paths', template, method, 'operationId'];
      const first = firstOf.get(id);
      if (first === undefined) {
        firstOf.set(id, at);
        continue;
      }
      const { line } = spec.locate(first);
      report(
        at,
        `operationId ${JSON.stringify(id)} is also that of ${String(first[2]).toUpperCase()} ${String(first[1])} (line ${String(line)}): operationIds must be unique`,
      );
    }
  }
  return issues;
}

/** Why a path template cannot be routed; undefined where it can. */
function templateProblem(template: string): string | undefined {
  if (!template.startsWith('/')) return 'a path must start with /';
  const literal = template.replaceAll(/\{[^{}]*\}/g, '');
  if (/[{}]/.test(literal)) return 'a path template has an unmatched { or }';
  const bad = expressionsOf(template).find((name) => !UNRESERVED_NAME.test(name));
  if (bad !== undefined) {
    return `{${bad}} is not a path parameter a template may name (letters, digits, _, - and ~, with inner dots)`;
  }
  return undefined;
}

function expressionsOf(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? '');
}

/**
 * Each path template whose parameter names go beyond RFC 6570 level 1 (a `-` or `~`) but are
 * routed all the same: served, with a warning (`--strict` refuses them).
 */
export function templateNameFaults(
  paths: Readonly<Record<string, unknown>>,
): { readonly path: readonly string[]; readonly message: string; readonly served: string }[] {
  return Object.keys(paths).flatMap((template) => {
    if (templateProblem(template) !== undefined) return [];
    const names = expressionsOf(template).filter((name) => !EXPRESSION.test(name));
    if (names.length === 0) return [];
    return [
      {
        path: ['paths', template],
        message: `${names.map((name) => `{${name}}`).join(', ')} ${names.length === 1 ? 'names a parameter' : 'name parameters'} with - or ~, outside RFC 6570 level 1 (letters, digits, _ and inner dots)`,
        served: 'served, the parameter read under this name',
      },
    ];
  });
}
