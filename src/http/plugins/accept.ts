/** @module 406 for an Accept header that excludes what a route produces. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Negotiator from 'negotiator';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Media types the route answers with; an Accept that admits none of them gets 406. */
    produces?: readonly string[];
  }
}

/** True when the Accept header admits one of the types; an absent header admits all. */
export function accepts(accept: string | undefined, produces: readonly string[]): boolean {
  // The common answers, without parsing: what clients send almost always.
  if (accept === undefined || accept === '*/*' || produces.includes(accept)) return true;
  const weighed = withoutMediaTypeParameters(accept);
  return new Negotiator({ headers: { accept: weighed } }).mediaTypes([...produces]).length > 0;
}

/**
 * The Accept header with only the weights of its ranges. Negotiator matches parameters
 * exactly, so `application/json; charset=utf-8` (Spring's usual form) would not match the
 * parameterless `application/json` we produce; RFC 9110 §12.5.1 lets parameters narrow a
 * range but never exclude the type itself. `q=0` still excludes.
 */
function withoutMediaTypeParameters(accept: string): string {
  return accept
    .split(',')
    .map((range) => {
      const [type = '', ...parameters] = range.split(';');
      const weight = parameters.map((p) => p.trim()).find((p) => /^q=/i.test(p));
      return weight === undefined ? type.trim() : `${type.trim()};${weight}`;
    })
    .join(', ');
}

export default fp(
  (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const produces = route.config?.produces;
      if (produces === undefined || produces.length === 0) return;
      const hooks = [route.onRequest ?? []].flat();
      route.onRequest = [
        ...hooks,
        // A callback hook (a throw is passed on as the error): no promise on the hot path.
        (request, _reply, done) => {
          if (!accepts(request.headers.accept, produces)) {
            throw ProblemError.from(
              PROBLEMS.NOT_ACCEPTABLE,
              `This resource is served as ${produces.join(' or ')}; the Accept header excludes it.`,
            );
          }
          done();
        },
      ];
    });
  },
  { name: 'accept', fastify: '5.x', dependencies: ['problem-handler'] },
);
