/**
 * @module Every security scheme the spec declares, enforced on every operation it covers:
 * HTTP bearer and basic (and any other `Authorization` scheme), API keys in a header, a query
 * parameter or a cookie, alternatives (`[A, B]`: either) and combinations (`[{A, B}]`: both).
 * The request's access level comes from the credential that satisfied it.
 *
 * A credential is checked exactly where the spec names access levels (its views), and for any
 * scheme with credentials configured; elsewhere, in a plain spec, any credential of the scheme's
 * form is taken, as `prism mock` takes it, so that a team's client with its own development
 * token is answered at once.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessLevel } from '../../access/access-level.ts';
import type { Credentials } from '../../access/credentials.ts';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';
import {
  isBearerOnly,
  type CredentialPlace,
  type RouteSecurity,
  type SchemeRequirement,
} from '../../spec/security.ts';
import { presentedToken } from './bearer-auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The level of the credential that satisfied the route's security; null on open routes. */
    accessLevel: AccessLevel | null;
    /** That credential, for the simulated rate limit's key; never logged. */
    credential: string | null;
  }
  interface FastifyContextConfig {
    security?: RouteSecurity;
  }
}

export interface RouteSecurityOptions {
  readonly credentials: Credentials;
  /** The realm of each challenge (`compatibility.realm`). */
  readonly realm: string;
  /** Where credentials come from, for a 401 without one. */
  readonly whereSet: string;
  /**
   * Whether every credential is checked against those the server takes: where the spec names
   * access levels, a caller's level must come from a credential the server knows.
   */
  readonly exact: boolean;
}

/** The credential a request presents at a place, or undefined. */
export function presentedCredential(
  request: Pick<FastifyRequest, 'headers' | 'query'>,
  place: CredentialPlace,
): string | undefined {
  if (place.kind === 'authorization') {
    const header = request.headers.authorization;
    if (place.scheme === 'bearer') return presentedToken(header);
    const match = /^(\S+) +(\S+) *$/.exec(header ?? '');
    if (match?.[1]?.toLowerCase() !== place.scheme) return undefined;
    const given = match[2] ?? '';
    if (place.scheme !== 'basic') return given;
    // user:password, as RFC 7617 encodes it; anything else is no basic credential.
    const decoded = Buffer.from(given, 'base64').toString('utf8');
    return /^[A-Za-z0-9+/]+=*$/.test(given) && decoded.includes(':') ? decoded : undefined;
  }
  const value =
    place.in === 'header'
      ? request.headers[place.name.toLowerCase()]
      : place.in === 'query'
        ? (request.query as Record<string, unknown> | undefined)?.[place.name]
        : cookieOf(request.headers.cookie, place.name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** How a client sends a scheme's credential, in a 401's words. */
function describePlace(place: CredentialPlace): string {
  if (place.kind === 'authorization') {
    if (place.scheme === 'bearer') return 'Authorization: Bearer <token>';
    if (place.scheme === 'basic') return 'Authorization: Basic <base64 of user:password>';
    return `Authorization: ${capitalised(place.scheme)} <credentials>`;
  }
  return place.in === 'header'
    ? `the header ${place.name}: <key>`
    : place.in === 'query'
      ? `the query parameter ${place.name}=<key>`
      : `the cookie ${place.name}=<key>`;
}

function capitalised(scheme: string): string {
  return scheme.charAt(0).toUpperCase() + scheme.slice(1);
}

/** What a refused credential is called. */
function credentialName(place: CredentialPlace): string {
  if (place.kind === 'authorization') {
    return place.scheme === 'bearer'
      ? 'bearer token'
      : place.scheme === 'basic'
        ? 'user and password pair'
        : `${capitalised(place.scheme)} credential`;
  }
  return `API key in ${describePlace(place).replace(/: <key>$|=<key>$/, '')}`;
}

/**
 * The challenge of a scheme (RFC 9110 §11.6.1). An API key has no HTTP authentication scheme:
 * its challenge says where the key goes, in the same form.
 */
function challengeOf(place: CredentialPlace, realm: string, refused: boolean): string {
  if (place.kind === 'api-key') {
    return `ApiKey realm="${realm}", in="${place.in}", name="${place.name}"`;
  }
  const challenge = `${capitalised(place.scheme)} realm="${realm}"`;
  return refused && place.scheme === 'bearer' ? `${challenge}, error="invalid_token"` : challenge;
}

export default fp(
  (app: FastifyInstance, options: RouteSecurityOptions) => {
    const { credentials, realm } = options;
    app.decorateRequest('accessLevel', null);
    app.decorateRequest('credential', null);
    // Wired once per route at declaration time, not looked up per request.
    app.addHook('onRoute', (route) => {
      const security = route.config?.security;
      if (security?.kind !== 'secured') return;
      const exact = (scheme: SchemeRequirement) =>
        options.exact || credentials.configuredFor(scheme.name);
      const schemes = [
        ...new Map(
          security.alternatives.flat().map((scheme) => [scheme.name, scheme] as const),
        ).values(),
      ];
      const demo = [...new Set(schemes.filter(exact).flatMap((s) => credentials.demoFor(s.name)))];
      const send = security.alternatives
        .map((alternative) => alternative.map(({ place }) => describePlace(place)).join(' and '))
        .join(', or ');
      const prefix = isBearerOnly(security)
        ? 'a token: '
        : send.startsWith('Authorization')
          ? 'a credential: '
          : '';
      const missing = `Send ${prefix}${send}. ${options.whereSet}${
        demo.length === 0 ? '.' : `; this one takes the demo tokens ${demo.join(' and ')}.`
      }`;
      const challenges = (refused?: SchemeRequirement) =>
        schemes.map((scheme) => challengeOf(scheme.place, realm, scheme === refused)).join(', ');
      const unauthorized = challenges();
      // Whether each scheme's credential is checked, known once: credentials change with the app.
      const alternatives = security.alternatives.map((alternative) =>
        alternative.map((scheme) => ({ scheme, exact: exact(scheme) })),
      );
      const hooks = [route.onRequest ?? []].flat();
      route.onRequest = [
        // A callback hook (a throw is passed on as the error): no promise, and no object made,
        // on the hot path.
        (request, _reply, done) => {
          let refused: SchemeRequirement | undefined;
          for (const alternative of alternatives) {
            let level: AccessLevel | null = null;
            let credential: string | undefined;
            let satisfied = true;
            for (const { scheme, exact: checked } of alternative) {
              const presented = presentedCredential(request, scheme.place);
              if (presented === undefined) {
                satisfied = false;
                break;
              }
              credential ??= presented;
              if (!checked) continue;
              const granted = credentials.levelOf(scheme.name, presented);
              if (granted === undefined) {
                refused ??= scheme;
                satisfied = false;
                break;
              }
              level ??= granted;
            }
            if (satisfied && credential !== undefined) {
              request.accessLevel = level;
              request.credential = credential;
              done();
              return;
            }
          }
          // The credential itself is never echoed or logged.
          throw refused === undefined
            ? ProblemError.from(PROBLEMS.UNAUTHORIZED, missing, {
                headers: { 'www-authenticate': unauthorized },
              })
            : ProblemError.from(
                PROBLEMS.UNAUTHORIZED,
                `The ${credentialName(refused.place)} is not known to this server.`,
                { headers: { 'www-authenticate': challenges(refused) } },
              );
        },
        ...hooks,
      ];
    });
  },
  { name: 'route-security', fastify: '5.x', dependencies: ['problem-handler'] },
);
