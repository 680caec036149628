/**
 * @module The request path of one operation of the spec: kept answer, or parameters → dataset
 * → handler → answer.
 */
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { ParameterValue } from '../spec/parameter-parser.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
import { noSuchScenario, type Dataset, type ScenarioStore } from '../scenarios/scenario-store.ts';
import type { DataRoute } from '../spec/route-table.ts';
import { JSON_TYPE, type OperationHandler } from './operation-handler.ts';
import { addPreferenceApplied } from './prefer.ts';
import { answerKey, type KeptAnswers } from './rendered-answers.ts';
import type { RequestOrigin } from './request-origin.ts';
import { sessionOf } from './session-of.ts';
import type { SessionStore } from '../sessions/session-store.ts';

export interface OperationRouteOptions {
  readonly route: DataRoute;
  readonly handler: OperationHandler;
  readonly catalogs: ScenarioStore;
  /** Each session's writes over the catalogs' data. */
  readonly sessions: SessionStore;
  /** Where the operation's answers are kept (see rendered-answers.ts); none for meta routes. */
  readonly keptAnswers: KeptAnswers | undefined;
  readonly originOf: RequestOrigin;
}

/** A synchronous handler: a throw becomes the error answer, and no promise is made per request. */
export function operationRoute(options: OperationRouteOptions): RouteHandlerMethod {
  const { route, handler, catalogs, sessions, keptAnswers, originOf } = options;
  return (request, reply) => {
    const origin = (): string => originOf(request);
    // The dataset asked for, looked up once; an unknown scenario is refused only after the
    // parameters are checked, as it always was.
    const scenario = request.preferences?.get('scenario');
    const base = scenario === undefined ? catalogs.current : catalogs.get(scenario);
    // A session that holds no writes reads the scenario's data itself.
    const dataset =
      base === undefined
        ? undefined
        : sessions.view(sessionOf(request), scenario ?? catalogs.active, base);
    const key =
      keptAnswers !== undefined && dataset !== undefined
        ? answerKey(dataset, request.accessLevel ?? 'open', origin(), request.url)
        : undefined;
    const known = key === undefined ? undefined : keptAnswers?.get(key);
    if (known !== undefined) {
      // Its parameters were valid when it was made, and the same URL gives the same ones.
      servedDataset(catalogs, dataset, scenario, reply);
      if (known.headers !== undefined) reply.headers(known.headers);
      reply.type(JSON_TYPE).send(known.body);
      return;
    }
    const values = parametersOf(route, request);
    const served = servedDataset(catalogs, dataset, scenario, reply);
    const result = handler({ request, values, dataset: served, origin });
    if (result.headers !== undefined) reply.headers(result.headers);
    if (key === undefined || keptAnswers === undefined) {
      reply.type(result.type ?? JSON_TYPE).send(result.body);
      return;
    }
    const text = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
    // Kept from its second asking on (the doorkeeper of rendered-answers.ts).
    keptAnswers.set(key, { body: text, headers: result.headers, length: text.length });
    reply.type(JSON_TYPE).send(text);
  };
}

/** A request's parameters, typed and checked by the spec; a 400 problem naming each fault. */
export function parametersOf(
  route: DataRoute,
  request: FastifyRequest,
): ReadonlyMap<string, ParameterValue> {
  const queryAt = request.url.indexOf('?');
  const parsed = route.parseParameters({
    query: request.query as Record<string, string | string[]>,
    path: request.params as Record<string, string>,
    rawQuery: queryAt < 0 ? '' : request.url.slice(queryAt + 1),
  });
  if (!parsed.ok) {
    const count = parsed.issues.length;
    throw ProblemError.from(
      PROBLEMS.INVALID_PARAMETERS,
      count === 1 ? '1 parameter is invalid.' : `${String(count)} parameters are invalid.`,
      { errors: parsed.issues },
    );
  }
  return parsed.values;
}

/**
 * The dataset a request is served from, said in Preference-Applied when the request named its
 * scenario; naming a scenario that does not exist is a 400.
 */
export function servedDataset(
  catalogs: ScenarioStore,
  dataset: Dataset | undefined,
  scenario: string | undefined,
  reply: FastifyReply,
): Dataset {
  if (dataset === undefined) {
    throw noSuchScenario(String(scenario), catalogs.names, {
      parameter: 'Prefer',
      in: 'header',
      prefix: 'scenario ',
    });
  }
  if (scenario !== undefined) addPreferenceApplied(reply, `scenario=${scenario}`);
  return dataset;
}
