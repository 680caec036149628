/** @module The interface is read-only: request bodies are never read, so none can fail to parse. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export default fp(
  (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => {
      done(null);
    });
  },
  { name: 'no-bodies', fastify: '5.x' },
);
