/**
 * @module Shutting down: from the moment the server starts to close, every request gets 503
 * problem+json with `Connection: close` and `Retry-After`, so that a client on a kept-alive
 * connection learns to go elsewhere instead of meeting a reset.
 *
 * `app.drain()` starts it before the close (see start-server.ts: a signal drains for a moment,
 * then closes); a plain `app.close()` starts it too. Fastify's own 503 while closing is off
 * (`return503OnClosing: false` in build-app.ts): it is `application/json`.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on, answer every request with 503 and close its connection. */
    drain(): void;
  }
}

/** Seconds a client is told to wait: by then a restarted server or another replica answers. */
const RETRY_AFTER_SECONDS = '1';

export default fp(
  (app: FastifyInstance) => {
    let draining = false;
    app.decorate('drain', () => {
      draining = true;
    });
    app.addHook('preClose', (done) => {
      draining = true;
      done();
    });
    app.addHook('onRequest', (_request, _reply, done) => {
      if (draining) {
        throw ProblemError.from(
          PROBLEMS.SERVICE_UNAVAILABLE,
          'The server is shutting down; send the request again on a new connection.',
          { headers: { connection: 'close', 'retry-after': RETRY_AFTER_SECONDS } },
        );
      }
      done();
    });
  },
  { name: 'draining', fastify: '5.x', dependencies: ['problem-handler'] },
);
