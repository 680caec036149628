/**
 * @module The request path of one operation of the spec: kept answer, or parameters → dataset
 * → handler → answer.
 */
import type { FastifyReply, RouteHandlerMethod } from 'fastify';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
import type { Dataset, ScenarioStore } from '../scenarios/scenario-store.ts';
import type { DataRoute } from '../spec/route-table.ts';
import { JSON_TYPE, type OperationHandler } from './operation-handler.ts';
import { addPreferenceApplied } from './prefer.ts';
import { answerKey, type KeptAnswers } from './rendered-answers.ts';
import type { RequestOrigin } from './request-origin.ts';

export interface OperationRouteOptions {
  readonly route: DataRoute;
  readonly handler: OperationHandler;
  readonly catalogs: ScenarioStore;
  /** Where the operation's answers are kept (see rendered-answers.ts); none for meta routes. */
  readonly keptAnswers: KeptAnswers | undefined;
  readonly originOf: RequestOrigin;
}

/** A synchronous handler: a throw becomes the error answer, and no promise is made per request. */
export function operationRoute(options: OperationRouteOptions): RouteHandlerMethod {
  const { route, handler, catalogs, keptAnswers, originOf } = options;
  return (request, reply) => {
    const origin = (): string => originOf(request);
    // The dataset asked for, looked up once; an unknown scenario is refused only after the
    // parameters are checked, as it always was.
    const scenario = request.preferences?.get('scenario');
    const dataset = scenario === undefined ? catalogs.current : catalogs.get(scenario);
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
    const served = servedDataset(catalogs, dataset, scenario, reply);
    const result = handler({ request, values: parsed.values, dataset: served, origin });
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

/**
 * The dataset a request is served from, said in Preference-Applied when the request named its
 * scenario; naming a scenario that does not exist is a 400.
 */
function servedDataset(
  catalogs: ScenarioStore,
  dataset: Dataset | undefined,
  scenario: string | undefined,
  reply: FastifyReply,
): Dataset {
  if (dataset === undefined) {
    throw ProblemError.from(
      PROBLEMS.INVALID_PARAMETERS,
      `No scenario is named "${String(scenario)}".`,
      {
        errors: [
          {
            parameter: 'Prefer',
            in: 'header',
            message: `scenario must be one of ${catalogs.names.join(', ')}`,
          },
        ],
      },
    );
  }
  if (scenario !== undefined) addPreferenceApplied(reply, `scenario=${scenario}`);
  return dataset;
}
