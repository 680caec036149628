/**
 * @module The spec as Prism is given it: its operations dereferenced, and of its components only
 * the security schemes.
 *
 * Prism walks every path through the document it is given before it reads one operation (its
 * `decycle`, which forgets an object once it has left it): components that refer to each other
 * many times over are walked once for every way to reach them. A 3.3 MB Google spec
 * (googleapis.com/contentwarehouse) held stockmock's start for 238 s, 7 s without its
 * components. The operations need none of them: their schemas and examples are in place.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec } from './load-spec.ts';

export function prismDocument(
  spec: LoadedSpec,
  paths: OpenAPIV3_1.PathsObject = spec.dereferenced.paths ?? {},
): OpenAPIV3_1.Document {
  const { securitySchemes } = spec.dereferenced.components ?? {};
  return {
    ...spec.dereferenced,
    paths,
    components: securitySchemes === undefined ? {} : { securitySchemes },
  };
}
