/**
 * @module /docs: interactive API docs of the served spec.
 *
 * @fastify/swagger-ui is the official Fastify plugin for Swagger UI: it serves the UI's assets
 * from the package itself (no CDN, so the docs work offline), and its "Authorize" button takes a
 * bearer token, so a client team can try each request with a demo token.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { LoadedSpec } from '../../spec/load-spec.ts';

/** The top bar shows the project's name where Swagger UI's plugin puts Fastify's logo. */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="40" viewBox="0 0 180 40">
<title>stockmock</title>
<text x="0" y="29" font-family="sans-serif" font-size="28" font-weight="700" fill="#fff">stockmock</text>
</svg>`;

export interface DocsOptions {
  readonly spec: LoadedSpec;
}

export default fp(
  async (app: FastifyInstance, options: DocsOptions) => {
    // Static mode: the spec file is the source; nothing is generated from the routes. "Try it
    // out" must call this very server, whatever port it runs on: a relative server comes first.
    // A copy of the top only: the rest is the loaded spec's, frozen, and shared.
    const { document: loaded } = options.spec;
    const document = {
      ...loaded,
      servers: [{ url: '/', description: 'This stockmock' }, ...(loaded.servers ?? [])],
    };
    await app.register(swagger, {
      mode: 'static',
      specification: { document: document as never },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      logo: { type: 'image/svg+xml', content: LOGO, href: '/docs' },
      theme: { title: 'stockmock: API docs' },
      uiConfig: { persistAuthorization: true, tryItOutEnabled: true, displayRequestDuration: true },
    });
  },
  { name: 'docs', fastify: '5.x' },
);
