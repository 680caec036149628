/**
 * @module Who may call an operation, read from its `security` as OpenAPI defines it: a list of
 * alternatives, any one of which suffices, each naming schemes that must all be satisfied; an
 * empty list, or an empty alternative, leaves the operation open.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SourceIssue } from '../problems/source-error.ts';

/** Where a scheme's credential travels, and in what form. */
export type CredentialPlace =
  /** `Authorization: <scheme> <credentials>`: HTTP bearer and basic; OAuth 2 and OpenID Connect as bearer. */
  | { readonly kind: 'authorization'; readonly scheme: string }
  /** An API key in a header, a query parameter or a cookie of this name. */
  | { readonly kind: 'api-key'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string };

/** One security scheme of the spec, by its name in `components.securitySchemes`. */
export interface SchemeRequirement {
  readonly name: string;
  readonly place: CredentialPlace;
}

export type RouteSecurity =
  | { readonly kind: 'open' }
  | {
      readonly kind: 'secured';
      /** Any one alternative suffices; every scheme of an alternative must be satisfied. */
      readonly alternatives: readonly (readonly SchemeRequirement[])[];
    };

export const OPEN: RouteSecurity = { kind: 'open' };

type Schemes = Readonly<Record<string, OpenAPIV3_1.SecuritySchemeObject | undefined>>;

/**
 * An operation's security (its own `security`, else the document's). A scheme the spec names
 * but does not define is read as a bearer token, as the stock interface's is; one no HTTP
 * request can show (`mutualTLS`, a certificate) is satisfied, since a stand-in cannot check it.
 */
export function routeSecurityOf(
  security: readonly OpenAPIV3_1.SecurityRequirementObject[],
  schemes: Schemes,
): RouteSecurity {
  const alternatives: SchemeRequirement[][] = [];
  for (const alternative of security) {
    const required: SchemeRequirement[] = [];
    for (const name of Object.keys(alternative)) {
      const place = placeOf(schemes[name]);
      if (place !== undefined) required.push({ name, place });
    }
    if (required.length === 0) return OPEN;
    alternatives.push(required);
  }
  return alternatives.length === 0 ? OPEN : { kind: 'secured', alternatives };
}

function placeOf(
  scheme: OpenAPIV3_1.SecuritySchemeObject | undefined,
): CredentialPlace | undefined {
  if (scheme === undefined) return { kind: 'authorization', scheme: 'bearer' };
  switch (scheme.type) {
    case 'http':
      return { kind: 'authorization', scheme: scheme.scheme.toLowerCase() };
    case 'apiKey': {
      const where: string = scheme.in;
      if (where !== 'header' && where !== 'query' && where !== 'cookie') return undefined;
      return { kind: 'api-key', in: where, name: scheme.name };
    }
    case 'oauth2':
    case 'openIdConnect':
      return { kind: 'authorization', scheme: 'bearer' };
    default:
      return undefined;
  }
}

/** The query parameters that carry a credential of the route: never "unknown parameters". */
export function credentialQueryNames(security: RouteSecurity): string[] {
  if (security.kind === 'open') return [];
  return security.alternatives.flatMap((alternative) =>
    alternative.flatMap(({ place }) =>
      place.kind === 'api-key' && place.in === 'query' ? [place.name] : [],
    ),
  );
}

/** Whether the route asks only for one bearer token: the stock interface's, and most specs'. */
export function isBearerOnly(security: RouteSecurity): boolean {
  return (
    security.kind === 'secured' &&
    security.alternatives.every(
      (alternative) =>
        alternative.length === 1 &&
        alternative[0]?.place.kind === 'authorization' &&
        alternative[0].place.scheme === 'bearer',
    )
  );
}

/**
 * A configured credential that names a scheme the spec does not declare would never be read:
 * each is an issue at its place in the config.
 */
export function unknownSchemeIssues(
  tokens: readonly { readonly scheme?: string }[],
  schemes: readonly string[],
  where: (path: readonly (string | number)[]) => Omit<SourceIssue, 'message'>,
): SourceIssue[] {
  return tokens.flatMap((grant, index) =>
    grant.scheme === undefined || schemes.includes(grant.scheme)
      ? []
      : [
          {
            ...where(['tokens', index, 'scheme']),
            message: `the spec declares no security scheme ${grant.scheme} (declared: ${schemes.join(', ') || 'none'})`,
          },
        ],
  );
}
