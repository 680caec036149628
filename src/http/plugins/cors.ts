/**
 * @module CORS: the response headers of every cross-origin request, and preflights answered
 * without a token.
 *
 * Why not @fastify/cors, which stockmock used first: its hook spreads its options into a new
 * object, reads `request.routeOptions` (built anew on each read) twice and joins the exposed
 * headers, on every request. That measured about 10 µs a request, a sixth of what a whole
 * request costs a bare Fastify server. stockmock needs one fixed policy, so every header value
 * here is computed once, at start.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { oneByte } from '../../util/one-byte.ts';
import { allowOf, type ResourceMethods } from '../resource-methods.ts';

export interface CorsOptions {
  /** `*`, or the origins allowed; any other origin gets no Access-Control-Allow-Origin. */
  readonly origins: '*' | readonly string[];
  readonly methods: readonly string[];
  /** Response headers a browser script may read. */
  readonly exposedHeaders: readonly string[];
  /** How long a browser may cache a preflight. */
  readonly maxAgeSeconds: number;
  /** The resources served, whose methods an OPTIONS names in `Allow` (RFC 9110 §9.3.7). */
  readonly resources: readonly ResourceMethods[];
}

export default fp(
  (app: FastifyInstance, options: CorsOptions, done: (error?: Error) => void) => {
    const allowedOrigin = originPolicy(options.origins);
    // One-byte, as every header value must be to keep the answer's write fast: see one-byte.ts.
    const exposed = oneByte(options.exposedHeaders.join(', '));
    const methods = oneByte(options.methods.join(', '));
    const maxAge = String(options.maxAgeSeconds);
    const allowed = allowOf(options.resources);

    app.addHook('onRequest', (request, reply, next) => {
      addOriginHeaders(request, reply);
      next();
    });

    // A preflight on any path: a browser sends it without the Authorization header, so it must
    // not meet bearer auth, which only GET routes have.
    app.options('*', (request, reply) => {
      const requested = request.headers['access-control-request-headers'];
      if (requested !== undefined) reply.header('access-control-allow-headers', requested);
      const allow = allowed(request.url.split('?', 1)[0] ?? '');
      if (allow !== undefined) reply.header('allow', allow);
      reply
        .code(204)
        .header('access-control-allow-methods', methods)
        .header('access-control-max-age', maxAge)
        .header('vary', appendVary(reply.getHeader('vary'), 'Access-Control-Request-Headers'))
        .header('content-length', '0')
        .send();
    });
    done();

    function addOriginHeaders(request: FastifyRequest, reply: FastifyReply): void {
      if (options.origins !== '*') reply.header('vary', 'Origin');
      // A request without an Origin is no cross-origin request: its answer needs none of the
      // headers (two header values a request, on every request a client library or curl sends).
      const { origin: requested } = request.headers;
      if (requested === undefined) return;
      const origin = allowedOrigin(requested);
      if (origin === undefined) return;
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', exposed);
    }
  },
  { name: 'cors', fastify: '5.x' },
);

/** The Access-Control-Allow-Origin value for a request's Origin, or none. */
function originPolicy(origins: '*' | readonly string[]): (origin?: string) => string | undefined {
  if (origins === '*') return () => '*';
  const allowed = new Set(origins);
  return (origin) => (origin !== undefined && allowed.has(origin) ? origin : undefined);
}

function appendVary(current: unknown, name: string): string {
  return typeof current === 'string' && current !== '' ? `${current}, ${name}` : name;
}
