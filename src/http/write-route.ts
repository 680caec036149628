/**
 * @module The request path of a write served from data: session → parameters → the record's
 * new state (writes/) → kept in the session → the spec's success answer, with the record as the
 * caller's level sees it and, for a create, its `Location`.
 */
import type { RouteHandlerMethod } from 'fastify';
import type { RecordInput } from '../dataset/build-collection.ts';
import { requireParents, type DataOperation, type ParentKey } from '../dataset/dataset.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { EXAMPLE_PROBLEMS, PROBLEMS, WRITE_PROBLEMS } from '../problems/problem-types.ts';
import type { Key } from '../query/keys.ts';
import type { ScenarioStore } from '../scenarios/scenario-store.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import type { DataRoute } from '../spec/route-table.ts';
import type { ParameterValue } from '../spec/parameter-parser.ts';
import type { RecordWrite } from '../writes/write-record.ts';
import { itemAnswerWriter } from './answer-envelope.ts';
import { JSON_TYPE } from './operation-handler.ts';
import { parametersOf, servedDataset } from './operation-route.ts';
import type { RequestOrigin } from './request-origin.ts';
import { sessionOf } from './session-of.ts';

export interface WriteRouteOptions {
  readonly route: DataRoute;
  readonly operation: Extract<DataOperation, { kind: 'write' }>;
  readonly write: RecordWrite;
  readonly catalogs: ScenarioStore;
  readonly sessions: SessionStore;
  readonly originOf: RequestOrigin;
}

export function writeRoute(options: WriteRouteOptions): RouteHandlerMethod {
  const { route, operation, write, catalogs, sessions, originOf } = options;
  const { declaration } = operation;
  const answer = itemAnswerWriter(declaration.envelope);
  const { views, parents } = declaration;
  return (request, reply) => {
    const session = sessionOf(request);
    const values = parametersOf(route, request);
    const level = request.accessLevel;
    if (views.kind === 'by-level' && (level === null || !views.views.has(level))) {
      throw ProblemError.from(
        WRITE_PROBLEMS.FORBIDDEN,
        `The access level ${level ?? 'open'} has no view of ${declaration.collection}, so it may not write them.`,
      );
    }
    if (typeof request.body === 'string') {
      throw ProblemError.from(
        EXAMPLE_PROBLEMS.UNSUPPORTED_MEDIA_TYPE,
        'A write takes a JSON body (application/json, or application/merge-patch+json).',
      );
    }
    const scenario = request.preferences?.get('scenario');
    const base = servedDataset(
      catalogs,
      scenario === undefined ? catalogs.current : catalogs.get(scenario),
      scenario,
      reply,
    );
    const scenarioName = scenario ?? catalogs.active;
    // Read by key, over the loaded data and the session's writes: a write copies nothing.
    const recordsOf = (collection: string) =>
      sessions.records(session, scenarioName, base, collection);
    const records = recordsOf(declaration.collection);
    const parentKeys = parents.map((parent) => ({
      ...parent,
      value: values.get(parent.parameter) as Key,
    }));
    const asked =
      declaration.parameter === undefined ? undefined : (values.get(declaration.parameter) as Key);
    // The parents as the session sees them, read by key: a write indexes nothing.
    requireParents(
      {
        exists: (collection, key) => recordsOf(collection).get(key) !== undefined,
        holds: (collection, key, parent) =>
          recordsOf(collection).get(key)?.[parent.field] === parent.value,
      },
      parentKeys,
    );
    if (asked !== undefined)
      requireUnder(records.get(asked), asked, parentKeys, declaration.collection);
    const [nearest] = parentKeys;
    const outcome = write(
      {
        records,
        recordsOf,
        seed: `${session}:${String(sessions.writesOf(session))}`,
        now: new Date(),
      },
      {
        key: asked,
        body: request.body,
        ...(nearest === undefined ? {} : { implied: { [nearest.field]: nearest.value } }),
      },
    );
    sessions.commit(session, scenarioName, declaration.collection, outcome.key, outcome.record);
    reply.code(declaration.status);
    const { location } = declaration;
    if (declaration.action === 'create' && location !== undefined) {
      reply.header(
        'location',
        `${originOf(request)}${pathOf(location.path, values, location.parameter, outcome.key)}`,
      );
    }
    if (!declaration.answersRecord || outcome.record === null) {
      reply.send();
      return;
    }
    reply.type(JSON_TYPE).send(answer(operation.show(outcome.record, level)));
  };
}

/** A 404 problem unless the record the path names exists under the parents the path names. */
function requireUnder(
  record: RecordInput | undefined,
  key: Key,
  parents: readonly ParentKey[],
  collection: string,
): void {
  const under = parents.find(
    (parent) => parent.holder === collection && record?.[parent.field] !== parent.value,
  );
  if (record === undefined || under !== undefined) {
    throw ProblemError.from(
      PROBLEMS.NOT_FOUND,
      `Nothing in ${collection} has the key ${String(key)}${under === undefined ? '' : ` under the ${under.parameter} ${String(under.value)}`}.`,
    );
  }
}

/** An item's path with its parameters filled in: the parents' from the request, then the key. */
function pathOf(
  template: string,
  values: ReadonlyMap<string, ParameterValue>,
  keyParameter: string,
  key: Key,
): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(name === keyParameter ? key : values.get(name))),
  );
}
