/**
 * @module The server's own endpoints, for every spec: its health and the spec it serves.
 *
 * They live under `/__stockmock/`, which no spec is expected to use, so that a container's
 * probe and a client generator find them whatever the team's spec declares (its own `/healthz`
 * may need a token, or mean something else). The conventional `/healthz`, `/openapi.json` and
 * `/openapi.yaml` answer the same where the spec declares nothing at those paths; where it
 * does, its own operation is served as declared.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ScenarioStore } from '../../scenarios/scenario-store.ts';
import type { LoadedSpec } from '../../spec/load-spec.ts';
import { JSON_TYPE, servedDocument } from '../operation-handler.ts';
import type { RequestOrigin } from '../request-origin.ts';

/** Where the server's own endpoints are, whatever the spec declares. */
export const OWN_PREFIX = '/__stockmock';

/** Each own endpoint, by its path under the prefix, and the conventional path it also takes. */
const ENDPOINTS = [
  { own: `${OWN_PREFIX}/health`, conventional: '/healthz', answer: 'health' },
  { own: `${OWN_PREFIX}/openapi.json`, conventional: '/openapi.json', answer: 'json' },
  { own: `${OWN_PREFIX}/openapi.yaml`, conventional: '/openapi.yaml', answer: 'yaml' },
] as const;

export interface OwnEndpointsOptions {
  readonly spec: LoadedSpec;
  readonly catalogs: ScenarioStore;
  readonly originOf: RequestOrigin;
  /** The paths the spec declares: a conventional path among them is the spec's. */
  readonly declaredPaths: ReadonlySet<string>;
}

/** The paths the server answers on its own for a spec that declares `declaredPaths`. */
export function ownPaths(declaredPaths: ReadonlySet<string>): string[] {
  return ENDPOINTS.flatMap(({ own, conventional }) =>
    declaredPaths.has(conventional) ? [own] : [own, conventional],
  );
}

export default fp(
  (app: FastifyInstance, options: OwnEndpointsOptions) => {
    const json = servedDocument(options.spec, 'json');
    const yaml = servedDocument(options.spec, 'yaml');
    for (const { own, conventional, answer } of ENDPOINTS) {
      const paths = options.declaredPaths.has(conventional) ? [own] : [own, conventional];
      for (const url of paths) {
        app.get(url, (request, reply) => {
          if (answer === 'health') {
            // The data being served: its collections, each with its number of records.
            const { sizes } = options.catalogs.current;
            reply.type(JSON_TYPE).send({ status: 'ok', collections: Object.fromEntries(sizes) });
            return;
          }
          const result = (answer === 'json' ? json : yaml)(options.originOf(request));
          reply.type(result.type ?? JSON_TYPE).send(result.body);
        });
      }
    }
    return Promise.resolve();
  },
  { name: 'own-endpoints', fastify: '5.x' },
);
