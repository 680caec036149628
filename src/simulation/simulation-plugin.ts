/**
 * @module Simulated latency, errors and rate limits, per route, wired once at declaration time.
 *
 * Rate limiting is @fastify/rate-limit's (per token, with `Retry-After`); this plugin adds what
 * it lacks: latency, an error rate, and the per-request `Prefer: delay=MS` and `Prefer: code=N`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { addPreferenceApplied } from '../http/prefer.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
import type { RouteDef } from '../spec/route-table.ts';
import { seededRandom } from '../util/seeded-random.ts';
import { planFaults } from './plan-faults.ts';
import type { Faults, Simulation } from '../config/simulation-schema.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation's key (operationKey), and the statuses the spec declares for it. */
    operation?: { readonly id: string; readonly statuses: readonly number[] };
    /** Whether the simulation acts on the route (isSimulated). */
    simulated?: boolean;
  }
}

export interface SimulationOptions {
  readonly simulation: Simulation | undefined;
  readonly routes: readonly RouteDef[];
  /** The realm of a simulated 401's challenge: the server's own (`compatibility.realm`). */
  readonly realm: string;
  /** Waits; tests pass one that records the delay instead of taking it. */
  readonly sleep?: (ms: number) => Promise<unknown>;
}

/** The longest `Prefer: delay` honoured: a mock should not hold a connection for minutes. */
const MAX_DELAY_MS = 60_000;

export default fp(
  // async: a setting that contradicts the spec rejects the start instead of hanging it.
  async (app: FastifyInstance, options: SimulationOptions) => {
    const simulation = options.simulation ?? {};
    checkAgainstSpec(simulation, options.routes);
    const random = seededRandom(simulation.seed ?? Date.now());
    const wait = options.sleep ?? sleep;
    const { routes: perRoute = {}, latency, errors } = simulation;
    const global: Faults = {
      ...(latency === undefined ? {} : { latency }),
      ...(errors === undefined ? {} : { errors }),
    };

    app.addHook('onRoute', (route) => {
      const operation = route.config?.operation;
      // Only operations served from data to a token are simulated; docs, meta, admin and the
      // operations answered from examples (whose `Prefer: code` picks an example) stay as they are.
      if (operation === undefined || route.config?.simulated !== true) return;
      const faults = perRoute[operation.id] ?? global;
      const hooks = [route.onRequest ?? []].flat();
      route.onRequest = [
        ...hooks,
        // A callback hook: with nothing configured or preferred, a request passes without a tick.
        (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
          const preferred = preferredFaults(request, reply, operation.statuses);
          const plan = planFaults(faults, random);
          const delayMs = preferred.delayMs ?? plan.delayMs;
          const status = preferred.status ?? plan.errorStatus;
          const finish = (): void => {
            if (status !== undefined && status >= 400)
              done(simulatedProblem(status, options.realm));
            else done();
          };
          if (delayMs > 0) void wait(delayMs).then(finish);
          else finish();
        },
      ];
    });
  },
  { name: 'simulation', fastify: '5.x', dependencies: ['preferences'] },
);

/** `Prefer: delay=MS` and `Prefer: code=STATUS`; a value the route cannot honour is a 400. */
function preferredFaults(
  request: FastifyRequest,
  reply: FastifyReply,
  statuses: readonly number[],
): { delayMs?: number; status?: number } {
  if (request.headers.prefer === undefined) return {};
  const delay = request.preferences?.get('delay');
  const code = request.preferences?.get('code');
  const result: { delayMs?: number; status?: number } = {};
  if (delay !== undefined) {
    if (!/^\d+$/.test(delay) || Number(delay) > MAX_DELAY_MS) {
      throw badPreference(
        `delay must be a whole number of milliseconds up to ${String(MAX_DELAY_MS)}`,
      );
    }
    result.delayMs = Number(delay);
    addPreferenceApplied(reply, `delay=${delay}`);
  }
  if (code !== undefined) {
    if (!statuses.includes(Number(code))) {
      throw badPreference(`code must be a status this operation declares: ${statuses.join(', ')}`);
    }
    result.status = Number(code);
    addPreferenceApplied(reply, `code=${code}`);
  }
  return result;
}

function badPreference(message: string): ProblemError {
  return ProblemError.from(
    PROBLEMS.INVALID_PARAMETERS,
    'The Prefer header asks for something this operation cannot do.',
    {
      errors: [{ parameter: 'Prefer', in: 'header', message }],
    },
  );
}

/** The problem of a simulated failure: the catalogue's problem of that status, with its headers. */
export function simulatedProblem(status: number, realm = 'stockmock'): ProblemError {
  const problem = Object.values(PROBLEMS).find((candidate) => candidate.status === status);
  if (problem === undefined) throw new Error(`No problem type has status ${String(status)}`);
  const detail = `Simulated by stockmock: this ${String(status)} is not a real failure.`;
  switch (status) {
    case 400:
      return ProblemError.from(problem, detail, {
        errors: [{ parameter: 'Prefer', in: 'header', message: 'asked for a simulated 400' }],
      });
    case 401:
      return ProblemError.from(problem, detail, {
        headers: { 'www-authenticate': `Bearer realm="${realm}"` },
      });
    case 405:
      return ProblemError.from(problem, detail, { headers: { allow: 'GET, HEAD, OPTIONS' } });
    case 429:
    case 503:
      return ProblemError.from(problem, detail, { headers: { 'retry-after': '1' } });
    default:
      return ProblemError.from(problem, detail);
  }
}

/** Whether the simulation acts on a route: one served from data to a credential. */
export function isSimulated(route: RouteDef): boolean {
  return route.answers === 'data' && route.security.kind === 'secured';
}

/** Every configured status and route must exist in the spec: checked at start, not per request. */
function checkAgainstSpec(simulation: Simulation, routes: readonly RouteDef[]): void {
  const simulated = routes.filter(isSimulated);
  for (const id of Object.keys(simulation.routes ?? {})) {
    if (!simulated.some((route) => route.key === id)) {
      throw new Error(
        `simulation.routes.${id}: no operation of the spec has this operationId (known: ${simulated.map((r) => r.key).join(', ')})`,
      );
    }
  }
  const check = (faults: Faults | undefined, where: string, applies: readonly RouteDef[]): void => {
    const status = faults?.errors?.status;
    if (status === undefined) return;
    const lacking = applies.filter((route) => !route.statuses.includes(status));
    if (lacking.length > 0) {
      throw new Error(
        `${where}.errors.status ${String(status)} is not declared by ${lacking.map((r) => r.key).join(', ')} in the spec`,
      );
    }
  };
  check(simulation, 'simulation', simulated);
  for (const [id, faults] of Object.entries(simulation.routes ?? {})) {
    check(
      faults,
      `simulation.routes.${id}`,
      simulated.filter((route) => route.key === id),
    );
  }
}
