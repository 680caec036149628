/**
 * @module Simulated rate limits: @fastify/rate-limit, counting per token (as a digest: the store
 * never holds a token), else per address, with the interface's problem body.
 */
import { createHash } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config/config-schema.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';

export type RateLimit = NonNullable<NonNullable<Config['simulation']>['rateLimit']>;

/**
 * Registers the limiter, off for every route unless the route's config asks for it
 * (`rateLimitConfig`). Register it after auth and Accept, so that a refused request does not
 * use up the quota.
 */
export async function registerRateLimit(app: FastifyInstance, rateLimit: RateLimit): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_request, context) =>
      ProblemError.from(
        PROBLEMS.TOO_MANY_REQUESTS,
        `Simulated rate limit: ${String(context.max)} requests per ${String(rateLimit.timeWindowMs)} ms per token; retry after ${context.after}.`,
      ),
  });
}

/** The route config that puts a route under the limit. */
export function rateLimitConfig(rateLimit: RateLimit): {
  rateLimit: { max: number; timeWindow: number };
} {
  return { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.timeWindowMs } };
}

function rateLimitKey(request: FastifyRequest): string {
  const credential = request.credential;
  return credential === null
    ? `ip:${request.ip}`
    : `token:${createHash('sha256').update(credential).digest('hex')}`;
}
