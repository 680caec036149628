/** @module Bearer tokens (RFC 6750) → the request's access level, per route from its config. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
}

const REALM = 'Bearer realm="stockmock"';

/** The token of an `Authorization: Bearer <token>` header; the scheme is case-insensitive. */
export function presentedToken(header: string | undefined): string | undefined {
  const match = /^bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1];
}

function authenticate(tokens: TokenTable, request: FastifyRequest): void {
  const token = presentedToken(request.headers.authorization);
  if (token === undefined) {
    throw ProblemError.from(PROBLEMS.UNAUTHORIZED, 'Send a token: Authorization: Bearer <token>.', {
      headers: { 'www-authenticate': REALM },
    });
  }
  const level = tokens.levelOf(token);
  if (level === undefined) {
    // The token itself is never echoed or logged.
    throw ProblemError.from(
      PROBLEMS.UNAUTHORIZED,
      'The bearer token is not known to this server.',
      {
        headers: { 'www-authenticate': `${REALM}, error="invalid_token"` },
      },
    );
  }
  request.accessLevel = level;
}

export default fp(
  (app: FastifyInstance, options: BearerAuthOptions) => {
    app.decorateRequest('accessLevel', null);
    // Wired once per route at declaration time, not looked up per request.
    app.addHook('onRoute', (route) => {
      if (route.config?.auth !== 'bearer') return;
      const hooks = [route.onRequest ?? []].flat();
      route.onRequest = [
        // A callback hook (a throw is passed on as the error): no promise on the hot path.
        (request, _reply, done) => {
          authenticate(options.tokens, request);
          done();
        },
        ...hooks,
      ];
    });
  },
  { name: 'bearer-auth', fastify: '5.x', dependencies: ['problem-handler'] },
);
