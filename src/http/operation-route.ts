/**
 * @module The request path of one operation of the spec: kept answer, or parameters → catalogue
 * → handler → answer.
 */
import type { FastifyReply, RouteHandlerMethod } from 'fastify';
import type { Catalog } from '../catalog/catalog.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
import type { ScenarioStore } from '../scenarios/scenario-store.ts';
import type { RouteDef } from '../spec/route-table.ts';
import { JSON_TYPE, type OperationHandler } from './operation-handler.ts';
import { addPreferenceApplied } from './prefer.ts';
import { answerKey, answersOf } from './rendered-answers.ts';
import type { RequestOrigin } from './request-origin.ts';

export interface OperationRouteOptions {
  readonly route: RouteDef;
  readonly handler: OperationHandler;
  readonly catalogs: ScenarioStore;
  /** Whether the operation's answers are kept (see rendered-answers.ts). */
  readonly keepsAnswers: boolean;
  readonly originOf: RequestOrigin;
}

/** A synchronous handler: a throw becomes the error answer, and no promise is made per request. */
export function operationRoute(options: OperationRouteOptions): RouteHandlerMethod {
  const { route, handler, catalogs, keepsAnswers, originOf } = options;
  return (request, reply) => {
    const origin = (): string => originOf(request);
    // The catalogue asked for, looked up once; an unknown scenario is refused only after the
    // parameters are checked, as it always was.
    const scenario = request.preferences?.get('scenario');
    const catalog = scenario === undefined ? catalogs.current : catalogs.get(scenario);
    const kept =
      keepsAnswers && catalog !== undefined
        ? {
            catalog,
            answers: answersOf(catalog),
            key: answerKey(request.accessLevel ?? 'open', origin(), request.url),
          }
        : undefined;
    const known = kept?.answers.get(kept.key);
    if (kept !== undefined && known !== undefined) {
      // Its parameters were valid when it was made, and the same URL gives the same ones.
      servedCatalog(catalogs, catalog, scenario, reply);
      reply.type(JSON_TYPE).send(known);
      return;
    }
    const parsed = route.parseParameters({
      query: request.query as Record<string, string | string[]>,
      path: request.params as Record<string, string>,
    });
    if (!parsed.ok) {
      const count = parsed.issues.length;
      throw ProblemError.from(
        PROBLEMS.INVALID_PARAMETERS,
        count === 1 ? '1 parameter is invalid.' : `${String(count)} parameters are invalid.`,
        { errors: parsed.issues },
      );
    }
    const result = handler({
      request,
      values: parsed.values,
      catalog: servedCatalog(catalogs, catalog, scenario, reply),
      origin,
    });
    if (kept === undefined) {
      reply.type(result.type ?? JSON_TYPE).send(result.body);
      return;
    }
    const text = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
    // Kept from its second asking on (the doorkeeper of rendered-answers.ts).
    kept.answers.set(kept.key, text);
    reply.type(JSON_TYPE).send(text);
  };
}

/**
 * The catalogue a request is served from, said in Preference-Applied when the request named its
 * scenario; naming a scenario that does not exist is a 400.
 */
function servedCatalog(
  catalogs: ScenarioStore,
  catalog: Catalog | undefined,
  scenario: string | undefined,
  reply: FastifyReply,
): Catalog {
  if (catalog === undefined) {
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
  return catalog;
}
