/** @module Bearer tokens (RFC 6750) → the request's access level, per route from its config. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessLevel } from '../../access/access-level.ts';
import type { TokenTable } from '../../access/token-table.ts';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';
import type { RouteAuth } from '../../spec/route-table.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by bearer-auth on routes whose config says `auth: 'bearer'`; null elsewhere. */
    accessLevel: AccessLevel | null;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
}

export interface BearerAuthOptions {
  readonly tokens: TokenTable;
  /** The realm of the challenge (`compatibility.realm`). */
  readonly realm: string;
  /** The detail of a 401 without a token: where tokens come from. */
  readonly missing?: string;
}

/** A protection space (RFC 7235 §2.2): its tokens, its realm, and what a refused client reads. */
export interface BearerRealm<Level extends string> {
  readonly tokens: TokenTable<Level>;
  readonly realm: string;
  /** The detail of a 401 without a token: which token to send. */
  readonly missing: string;
}

const STOCK_REALM = (
  tokens: TokenTable,
  realm: string,
  missing = 'Send a token: Authorization: Bearer <token>.',
): BearerRealm<AccessLevel> => ({ tokens, realm, missing });

/** The token of an `Authorization: Bearer <token>` header; the scheme is case-insensitive. */
export function presentedToken(header: string | undefined): string | undefined {
  const match = /^bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The level an `Authorization` header's bearer token grants in a realm; else the 401 problem
 * with the realm's challenge (`error="invalid_token"` when a token was given). The one lookup of
 * a bearer token, for the stock API and the admin API alike.
 */
export function authenticate<Level extends string>(
  realm: BearerRealm<Level>,
  header: string | undefined,
): Level {
  const challenge = `Bearer realm="${realm.realm}"`;
  const token = presentedToken(header);
  if (token === undefined) {
    throw ProblemError.from(PROBLEMS.UNAUTHORIZED, realm.missing, {
      headers: { 'www-authenticate': challenge },
    });
  }
  const level = realm.tokens.levelOf(token);
  if (level === undefined) {
    // The token itself is never echoed or logged.
    throw ProblemError.from(
      PROBLEMS.UNAUTHORIZED,
      'The bearer token is not known to this server.',
      {
        headers: { 'www-authenticate': `${challenge}, error="invalid_token"` },
      },
    );
  }
  return level;
}

export default fp(
  (app: FastifyInstance, options: BearerAuthOptions) => {
    const realm = STOCK_REALM(options.tokens, options.realm, options.missing);
    app.decorateRequest('accessLevel', null);
    // Wired once per route at declaration time, not looked up per request.
    app.addHook('onRoute', (route) => {
      if (route.config?.auth !== 'bearer') return;
      const hooks = [route.onRequest ?? []].flat();
      route.onRequest = [
        // A callback hook (a throw is passed on as the error): no promise on the hot path.
        (request, _reply, done) => {
          request.accessLevel = authenticate(realm, request.headers.authorization);
          done();
        },
        ...hooks,
      ];
    });
  },
  { name: 'bearer-auth', fastify: '5.x', dependencies: ['problem-handler'] },
);
