/** @module Renders every error as application/problem+json; no stack ever leaves the server. */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS, PROTOCOL_PROBLEMS, type ProblemType } from '../../problems/problem-types.ts';
import { styleProblem, type ProblemStyle } from '../../problems/problem-style.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

declare module 'fastify' {
  interface FastifyInstance {
    /** How problem bodies are written: the compatibility settings' types and `errors`. */
    problemStyle: ProblemStyle;
  }
}

/** Sends a ProblemError with its headers, its body written in the app's problem style. */
export function sendProblem(reply: FastifyReply, problem: ProblemError): FastifyReply {
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(styleProblem(problem.toJSON(), reply.server.problemStyle)));
}

/**
 * Errors that Fastify raises itself before a handler runs (a body too large, a malformed URL)
 * keep their 4xx status; the problem names what was wrong with the request.
 */
function fromFrameworkError(error: FastifyError): ProblemError {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // A status no problem of the catalogue has (a 403 for a path that climbs out of /docs'
    // files): RFC 9457 §4.2.1's `about:blank`, titled by the status, not another problem's name.
    const template: ProblemType = [
      ...Object.values(PROBLEMS),
      ...Object.values(PROTOCOL_PROBLEMS),
    ].find((problem) => problem.status === status) ?? {
      type: 'about:blank',
      title: STATUS_CODES[status] ?? 'Client error',
      status,
    };
    return ProblemError.from(template, error.message);
  }
  return ProblemError.from(
    PROBLEMS.INTERNAL,
    'The server failed to answer; the log has the cause.',
  );
}

export interface ProblemHandlerOptions {
  /** Where a failure of the server itself is logged, with the request's id. */
  readonly log: Logger;
  readonly style: ProblemStyle;
}

export default fp(
  (app: FastifyInstance, options: ProblemHandlerOptions) => {
    app.decorate('problemStyle', options.style);
    app.setErrorHandler((error: FastifyError, request, reply) => {
      // A ProblemError is an answer meant (a simulated 503, one while shutting down), whatever
      // its status; only a failure of the server itself is an error, logged with its cause.
      const intended = error instanceof ProblemError;
      const problem = intended ? error : fromFrameworkError(error);
      if (!intended && problem.status >= 500) {
        options.log.error({ err: error, reqId: request.id }, 'unexpected error');
      }
      return sendProblem(reply, problem);
    });
  },
  { name: 'problem-handler', fastify: '5.x' },
);
