/**
 * @module The request path of an operation answered from the spec's examples: the request as
 * Prism reads it, `Prefer: code=…, example=…, dynamic=…` as Prism honours them, and Prism's
 * answer or refusal written as stockmock writes answers (refusals as problem+json).
 */
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import {
  ProblemError,
  type ParameterIssue,
  type ParameterLocation,
} from '../problems/problem-error.ts';
import { EXAMPLE_PROBLEMS, PROBLEMS, type ProblemType } from '../problems/problem-types.ts';
import type {
  ExampleAnswers,
  ExamplePreferences,
  ExampleRefusal,
} from '../spec/example-answers.ts';
import { RESERVED_IN_PATH, type RouteDef } from '../spec/route-table.ts';
import { unescapeReservedInPath } from './reserved-path.ts';
import { addPreferenceApplied } from './prefer.ts';

export interface ExampleRouteOptions {
  readonly route: RouteDef;
  readonly answers: ExampleAnswers;
}

const PROBLEM_OF: Readonly<Record<ExampleRefusal, ProblemType>> = {
  unauthorized: PROBLEMS.UNAUTHORIZED,
  'invalid-request': EXAMPLE_PROBLEMS.INVALID_REQUEST,
  'unsupported-media-type': EXAMPLE_PROBLEMS.UNSUPPORTED_MEDIA_TYPE,
  'not-acceptable': PROBLEMS.NOT_ACCEPTABLE,
  'no-such-preference': PROBLEMS.INVALID_PARAMETERS,
  'no-answer': EXAMPLE_PROBLEMS.NO_EXAMPLE,
  'not-found': PROBLEMS.NOT_FOUND,
};

/** Headers of Prism's answer that are the connection's business, not the operation's. */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);

/** The request's path ending as the template does: with a `/`, or without one. */
function withTrailingSlashOf(template: string, path: string): string {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return template.length > 1 && template.endsWith('/') ? `${bare}/` : bare;
}

export function exampleRoute(options: ExampleRouteOptions): RouteHandlerMethod {
  const { route, answers } = options;
  // Known once per route: whether its path holds a `#` or `?`, routed escaped (reserved-path.ts).
  const reserved = RESERVED_IN_PATH.test(route.path);
  return async (request, reply) => {
    const preferences = examplePreferences(request, reply);
    const queryAt = request.url.indexOf('?');
    const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
    const answer = await answers.answer(
      route.key,
      {
        // With a trailing slash where the spec's path has one, else without: Fastify routes
        // past it either way (ignoreTrailingSlash), and Prism matches the spec's path exactly.
        path: withTrailingSlashOf(route.path, reserved ? unescapeReservedInPath(path) : path),
        query: request.query as Record<string, string | string[]>,
        headers: textHeaders(request),
        body: request.body ?? undefined,
      },
      preferences,
    );
    if (answer.kind === 'refused') {
      throw ProblemError.from(PROBLEM_OF[answer.why], answer.detail, {
        ...(answer.errors.length === 0 ? {} : { errors: answer.errors.map(parameterIssue) }),
        headers: { ...answer.headers },
      });
    }
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!HOP_HEADERS.has(name)) reply.header(name, value);
    }
    reply.code(answer.status);
    const type = answer.headers['content-type'];
    if (answer.body === undefined) return reply.send();
    const text =
      typeof answer.body === 'string' && !isJsonType(type)
        ? answer.body
        : JSON.stringify(answer.body);
    return reply.send(text);
  };
}

/** `Prefer: code=…, example=…, dynamic=…`, each said back in Preference-Applied. */
function examplePreferences(request: FastifyRequest, reply: FastifyReply): ExamplePreferences {
  const given = request.preferences;
  if (given === null || given.size === 0) return {};
  const code = given.get('code');
  const example = given.get('example');
  const dynamic = given.get('dynamic');
  if (code !== undefined && !/^[1-5]\d\d$/.test(code)) {
    throw badPreference('code must be an HTTP status this operation declares');
  }
  if (example === '') throw badPreference('example must name one of the examples the spec gives');
  if (dynamic !== undefined && dynamic !== 'true' && dynamic !== 'false') {
    throw badPreference('dynamic must be true or false');
  }
  for (const [name, value] of [
    ['code', code],
    ['example', example],
    ['dynamic', dynamic],
  ] as const) {
    if (value !== undefined) addPreferenceApplied(reply, `${name}=${value}`);
  }
  return {
    ...(code === undefined ? {} : { code: Number(code) }),
    ...(example === undefined ? {} : { example }),
    ...(dynamic === undefined ? {} : { dynamic: dynamic === 'true' }),
  };
}

function badPreference(message: string): ProblemError {
  return ProblemError.from(
    PROBLEMS.INVALID_PARAMETERS,
    'The Prefer header asks for something this operation cannot do.',
    { errors: [{ parameter: 'Prefer', in: 'header', message }] },
  );
}

function textHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

const LOCATIONS = new Set<string>(['query', 'path', 'header', 'body']);

/** Prism's `body.items.0.quantity` as the parameter `items.0.quantity` in the body. */
function parameterIssue(error: { location: string; message: string }): ParameterIssue {
  const [first = '', ...rest] = error.location.split('.');
  const known = LOCATIONS.has(first);
  return {
    parameter: known ? rest.join('.') || first : error.location,
    in: (known ? first : 'body') as ParameterLocation,
    message: error.message,
  };
}

function isJsonType(type: string | undefined): boolean {
  return type !== undefined && /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);
}
