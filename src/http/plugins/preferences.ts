/** @module Reads the Prefer header once per request, for scenario and simulation switches. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { parsePrefer } from '../prefer.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's Prefer header, parsed (RFC 7240); null only before the first hook ran. */
    preferences: ReadonlyMap<string, string> | null;
  }
}

const NONE: ReadonlyMap<string, string> = new Map();

export default fp(
  (app: FastifyInstance) => {
    // Fastify wants reference types set per request: the decorator starts null, the hook sets it.
    app.decorateRequest('preferences', null);
    // A callback hook, not an async one: it runs on every request, and a promise costs a tick.
    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers.prefer;
      request.preferences = header === undefined ? NONE : parsePrefer(header);
      done();
    });
  },
  { name: 'preferences', fastify: '5.x' },
);
