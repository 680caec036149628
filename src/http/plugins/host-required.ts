/**
 * @module An HTTP/1.1 request without `Host` gets 400 (RFC 9112 §3.2).
 *
 * Node refuses it itself with an empty 400; stockmock turns that check off (`requireHostHeader`)
 * and makes it here, so that the answer is a problem like every other. HTTP/1.0 needs no Host.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROTOCOL_PROBLEMS } from '../../problems/problem-types.ts';

export default fp(
  (app: FastifyInstance) => {
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.headers.host === undefined && request.raw.httpVersion !== '1.0') {
        throw ProblemError.from(
          PROTOCOL_PROBLEMS.BAD_REQUEST,
          'An HTTP/1.1 request must name its Host.',
          { headers: { connection: 'close' } },
        );
      }
      done();
    });
  },
  { name: 'host-required', fastify: '5.x', dependencies: ['problem-handler'] },
);
