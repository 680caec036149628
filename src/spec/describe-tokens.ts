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
  const document = structuredClone(spec.document);
  rewriteSchemes(document, refused);
  return { ...spec, document };
}

function rewriteSchemes(document: OpenAPIV3_1.Document, refused: readonly string[]): void {
  const schemes = document.components?.securitySchemes ?? {};
  for (const scheme of Object.values(schemes)) {
    if (!('description' in scheme) || typeof scheme.description !== 'string') continue;
    const kept = scheme.description
      .split('\n')
      .filter((line) => !refused.some((token) => line.includes(token)));
    if (kept.length === scheme.description.split('\n').length) continue;
    scheme.description = `${kept.join('\n').trimEnd()}\nThis server's tokens are set in its configuration (\`tokens\`, or STOCKMOCK_TOKENS).\n`;
  }
}
