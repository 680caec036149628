/**
 * @module The served spec names only tokens the running server accepts: the shipped spec's
 * security scheme names the demo tokens, which a config that replaces them no longer takes.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec } from './load-spec.ts';

/**
 * The spec with every line of a security scheme's description that names a token in `refused`
 * removed, saying where tokens come from instead. Never adds a token: a configured one may be a
 * secret. Only the served document changes: descriptions validate nothing.
 */
export function describeAcceptedTokens(spec: LoadedSpec, refused: readonly string[]): LoadedSpec {
  if (refused.length === 0) return spec;
  const { components } = spec.document;
  if (components?.securitySchemes === undefined) return spec;
  // Only the schemes are copied: the rest of the document is shared, frozen (a copy of a spec of
  // thousands of operations cost 0.3 s of its start).
  const securitySchemes = Object.fromEntries(
    Object.entries(components.securitySchemes).map(([name, scheme]) => [
      name,
      withoutRefused(scheme, refused),
    ]),
  );
  return {
    ...spec,
    document: { ...spec.document, components: { ...components, securitySchemes } },
  };
}

type Scheme = NonNullable<NonNullable<OpenAPIV3_1.ComponentsObject['securitySchemes']>[string]>;

function withoutRefused(scheme: Scheme, refused: readonly string[]): Scheme {
  if (!('description' in scheme) || typeof scheme.description !== 'string') return scheme;
  const kept = scheme.description
    .split('\n')
    .filter((line) => !refused.some((token) => line.includes(token)));
  if (kept.length === scheme.description.split('\n').length) return scheme;
  return {
    ...scheme,
    description: `${kept.join('\n').trimEnd()}\nThis server's tokens are set in its configuration (\`tokens\`, or STOCKMOCK_TOKENS).\n`,
  };
}
