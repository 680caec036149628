/** @module Unmatched requests: 405 with Allow on a known resource, 404 anywhere else. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';
import { pathPattern } from '../../spec/path-pattern.ts';

export interface MethodNotAllowedOptions {
  /** The spec's path templates of the resources (`/v1/stock/{id}`) and the methods each allows. */
  readonly resources: readonly { readonly path: string; readonly methods: readonly string[] }[];
}

export default fp(
  (app: FastifyInstance, options: MethodNotAllowedOptions) => {
    const resources = options.resources.map(({ path, methods }) => ({
      pattern: pathPattern(path),
      allow: methods.join(', '),
    }));
    app.setNotFoundHandler((request) => {
      const path = request.url.split('?', 1)[0] ?? '';
      const resource = resources.find(({ pattern }) => pattern.test(path));
      if (resource !== undefined) {
        throw ProblemError.from(
          PROBLEMS.METHOD_NOT_ALLOWED,
          `${path} supports ${resource.allow}, not ${request.method}.`,
          { headers: { allow: resource.allow } },
        );
      }
      throw ProblemError.from(
        PROBLEMS.NOT_FOUND,
        `Nothing is served at ${path}; /docs describes what is.`,
      );
    });
  },
  { name: 'method-not-allowed', fastify: '5.x', dependencies: ['problem-handler'] },
);
