/** @module The methods each served resource answers: what `Allow` says on a 405 and an OPTIONS. */
import { pathPattern } from '../spec/path-pattern.ts';

/** A resource by its path template (`/v1/stock/{id}`), and the methods it answers. */
export interface ResourceMethods {
  readonly path: string;
  readonly methods: readonly string[];
}

/** The `Allow` value of the resource a request path names; undefined where none is served. */
export function allowOf(
  resources: readonly ResourceMethods[],
): (path: string) => string | undefined {
  const patterns = resources.map(({ path, methods }) => ({
    pattern: pathPattern(path),
    allow: methods.join(', '),
  }));
  return (path) => patterns.find(({ pattern }) => pattern.test(path))?.allow;
}
