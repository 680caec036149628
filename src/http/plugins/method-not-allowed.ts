/** @module Unmatched requests: 405 with Allow on a known resource, 404 anywhere else. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';
import { allowOf, type ResourceMethods } from '../resource-methods.ts';

export interface MethodNotAllowedOptions {
  /** The spec's path templates of the resources (`/v1/stock/{id}`) and the methods each allows. */
  readonly resources: readonly ResourceMethods[];
}

export default fp(
  (app: FastifyInstance, options: MethodNotAllowedOptions) => {
    const allowed = allowOf(options.resources);
    app.setNotFoundHandler((request) => {
      const path = request.url.split('?', 1)[0] ?? '';
      const allow = allowed(path);
      if (allow !== undefined) {
        throw ProblemError.from(
          PROBLEMS.METHOD_NOT_ALLOWED,
          `${path} supports ${allow}, not ${request.method}.`,
          { headers: { allow } },
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
