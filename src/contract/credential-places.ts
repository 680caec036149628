/**
 * @module Where the checker carries a level's token on each request: as the spec's `security`
 * says for the operation at that path (spec/security.ts reads it), so that a service secured by
 * an API key or HTTP basic is asked as its clients ask it. A path no operation matches, or one
 * that names no scheme, gets a bearer token, as the stock interface's do. One token stands for
 * a level: where an operation needs two credentials at once, each gets the level's token.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { operationsOf } from '../spec/operation-rules.ts';
import { pathPattern } from '../spec/path-pattern.ts';
import { routeSecurityOf, type CredentialPlace } from '../spec/security.ts';

export type { CredentialPlace } from '../spec/security.ts';

export const BEARER: CredentialPlace = { kind: 'authorization', scheme: 'bearer' };

/** The places of a request's credential, by its method and URL path: each gets the token. */
export type PlaceOf = (method: string, path: string) => readonly CredentialPlace[];

export function credentialPlaces(spec: LoadedSpec): PlaceOf {
  const document = spec.dereferenced;
  const schemes = (document.components?.securitySchemes ?? {}) as Record<
    string,
    OpenAPIV3_1.SecuritySchemeObject | undefined
  >;
  const operations: { pattern: RegExp; method: string; places: readonly CredentialPlace[] }[] = [];
  for (const { method, path, operation } of operationsOf(spec)) {
    const security = routeSecurityOf(operation.security ?? document.security ?? [], schemes);
    if (security.kind === 'open') continue;
    // One token per level: the first alternative that asks for one scheme, else the first
    // alternative, whose every scheme gets the token.
    const chosen =
      security.alternatives.find((alternative) => alternative.length === 1) ??
      security.alternatives[0] ??
      [];
    operations.push({ pattern: pathPattern(path), method, places: chosen.map((s) => s.place) });
  }
  // A run asks the same paths again and again (pages of one list): each is matched once, as a
  // spec of thousands of operations would otherwise be scanned on every request.
  const known = new Map<string, readonly CredentialPlace[]>();
  return (method, path) => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const key = `${wanted} ${path}`;
    let places = known.get(key);
    if (places === undefined) {
      let first: readonly CredentialPlace[] | undefined;
      for (const operation of operations) {
        if (!operation.pattern.test(path)) continue;
        first ??= operation.places;
        if (operation.method === wanted) {
          places = operation.places;
          break;
        }
      }
      places ??= first ?? [BEARER];
      if (known.size >= 10_000) known.clear();
      known.set(key, places);
    }
    return places;
  };
}
