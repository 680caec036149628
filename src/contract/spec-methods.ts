/**
 * @module The methods a spec declares at a request path: what the checker may leave out of its
 * 405 probes, and which writes it must never send to a service it checks.
 */
import type { LoadedSpec } from '../spec/load-spec.ts';
import { HTTP_METHODS } from '../spec/operation-rules.ts';
import { pathPattern } from '../spec/path-pattern.ts';

/** Methods that change nothing (RFC 9110 §9.2.1), which the checker may send anywhere. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** For a request path (below the target's base URL), the methods the spec declares there. */
export function declaredMethods(spec: LoadedSpec): (path: string) => ReadonlySet<string> {
  const templates = Object.entries(spec.dereferenced.paths ?? {}).map(([template, item]) => ({
    pattern: pathPattern(template),
    methods: HTTP_METHODS.filter((method) => item?.[method] !== undefined).map((method) =>
      method.toUpperCase(),
    ),
  }));
  return (path) =>
    new Set(
      templates.filter(({ pattern }) => pattern.test(path)).flatMap(({ methods }) => methods),
    );
}

/**
 * For a method and request path, the response codes its operation declares (`HEAD` reads as
 * `GET`); undefined where the spec has no such operation.
 */
export function declaredResponseCodes(
  spec: LoadedSpec,
): (method: string, path: string) => readonly string[] | undefined {
  const operations = Object.entries(spec.dereferenced.paths ?? {}).flatMap(([template, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item?.[method];
      return operation === undefined
        ? []
        : [
            {
              pattern: pathPattern(template),
              method: method.toUpperCase(),
              codes: Object.keys(operation.responses),
            },
          ];
    }),
  );
  return (method, path) => {
    const verb = method === 'HEAD' ? 'GET' : method;
    return operations.find((operation) => operation.method === verb && operation.pattern.test(path))
      ?.codes;
  };
}
