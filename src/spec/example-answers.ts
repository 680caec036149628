/**
 * @module The answers of the operations served from the spec's examples, made by Prism
 * (@stoplight/prism-http): the request validated as Prism validates it, the response picked
 * and its body taken from an example, or generated from the schema.
 *
 * Prism is asked with the one operation Fastify routed to, and never calls out: callbacks are
 * taken off the operations (a mock must not send requests to URLs its callers name).
 */
import type { getHttpOperationsFromSpec, IHttpConfig, IHttpRequest } from '@stoplight/prism-http';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { pino, type Logger } from 'pino';
import { prismDocument } from './prism-document.ts';
import type { LoadedSpec } from './load-spec.ts';
import { HTTP_METHODS, operationKey, type HttpMethod } from './operation-rules.ts';
import { matchPrismPatternsInLinearTime } from './prism-patterns.ts';

matchPrismPatternsInLinearTime();

type OperationIdOf = { readonly operationId?: string };

export interface ExampleRequest {
  /** The path as requested, without its query. */
  readonly path: string;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON, or the text of any other media type; undefined without a body. */
  readonly body: unknown;
}

/** What a caller may prefer, as Prism reads `Prefer`: a status, a named example, generation. */
export interface ExamplePreferences {
  readonly code?: number;
  readonly example?: string;
  readonly dynamic?: boolean;
}

/** Why no answer was made, by what the caller can do about it. */
export type ExampleRefusal =
  | 'unauthorized'
  | 'invalid-request'
  | 'unsupported-media-type'
  | 'not-acceptable'
  | 'no-such-preference'
  | 'not-found'
  | 'no-answer';

export type ExampleAnswer =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      /** An object for JSON media types, else text; undefined when the spec gives none. */
      readonly body: unknown;
    }
  | {
      readonly kind: 'refused';
      readonly why: ExampleRefusal;
      readonly detail: string;
      /** What was wrong, where: `body.quantity`, `query.limit`. */
      readonly errors: readonly { readonly location: string; readonly message: string }[];
      readonly headers: Readonly<Record<string, string>>;
    };

export interface ExampleAnswers {
  answer(
    key: string,
    request: ExampleRequest,
    preferences: ExamplePreferences,
  ): Promise<ExampleAnswer>;
}

type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

// Prism logs every step at `info` and at its own level `success`; stockmock logs one line per
// request itself. Prism's type is pino's Logger without custom levels, hence the cast.
const silent = pino({ level: 'silent', customLevels: { success: 35 } }) as unknown as Logger;

/** The answers of a spec served wholly from data: none to give. */
const NONE: ExampleAnswers = {
  answer(key) {
    return Promise.reject(new Error(`${key} is not answered from examples`));
  },
};

/**
 * Prepares the answers of the operations whose keys are given. Only those operations are
 * converted, from the dereferenced spec: Prism never resolves a `$ref` itself.
 */
export async function createExampleAnswers(
  spec: LoadedSpec,
  keys: ReadonlySet<string>,
): Promise<ExampleAnswers> {
  const byKey = new Map<string, Operation>();
  if (keys.size === 0) return NONE;
  // Loaded on use: Prism's modules take about a second to load, which a spec served wholly
  // from data (the stock spec) should not pay at every start.
  const { createInstance, getHttpOperationsFromSpec } = await import('@stoplight/prism-http');
  for (const operation of await getHttpOperationsFromSpec(onlyOperations(spec, keys))) {
    const key = keyOf(spec, operation.method.toUpperCase() as HttpMethod, operation.path);
    if (key !== undefined) byKey.set(key, { ...operation, callbacks: [] });
  }
  const prism = createInstance(baseConfig({}), { logger: silent });
  return {
    async answer(key, request, preferences) {
      const operation = byKey.get(key);
      if (operation === undefined) throw new Error(`${key} is not answered from examples`);
      const input: IHttpRequest = {
        // The operation's own: Fastify routed to it (a HEAD it adds to a GET comes as the GET).
        method: operation.method as IHttpRequest['method'],
        url: { path: request.path, query: toPrismQuery(request.query) },
        headers: { ...request.headers },
        ...(request.body === undefined ? {} : { body: request.body }),
      };
      // A fresh config each time: Prism writes the Accept header's types into the one it gets.
      const config = baseConfig(preferences);
      const result = await prism.request(input, [operation], config)();
      if (isLeft(result)) return refusalOf(result.left, preferences);
      const { statusCode, headers = {}, body } = result.right.output;
      return { kind: 'response', status: statusCode, headers: textHeaders(headers), body };
    },
  };
}

function baseConfig(preferences: ExamplePreferences): IHttpConfig {
  return {
    mock: {
      dynamic: preferences.dynamic ?? false,
      ...(preferences.code === undefined ? {} : { code: preferences.code }),
      ...(preferences.example === undefined ? {} : { exampleKey: preferences.example }),
    },
    // Security is the HTTP layer's (http/plugins/route-security.ts), for every operation alike.
    checkSecurity: false,
    validateRequest: true,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  };
}

/** The spec with only the given operations: Prism converts each, and a large spec is slow. */
function onlyOperations(spec: LoadedSpec, keys: ReadonlySet<string>): OpenAPIV3_1.Document {
  const paths: OpenAPIV3_1.PathsObject = {};
  for (const [path, item] of Object.entries(spec.dereferenced.paths ?? {})) {
    if (item === undefined) continue;
    const kept: Record<string, unknown> = {};
    for (const [member, value] of Object.entries(item as Record<string, unknown>)) {
      const isOperation = (HTTP_METHODS as readonly string[]).includes(member);
      const key = operationKey(member.toUpperCase() as HttpMethod, path, value as OperationIdOf);
      if (!isOperation || keys.has(key)) kept[member] = value;
    }
    paths[path] = kept;
  }
  return prismDocument(spec, paths);
}

/** The key of the spec's operation at method and path (Prism's iid is not the operationId). */
function keyOf(spec: LoadedSpec, method: HttpMethod, path: string): string | undefined {
  const item = spec.dereferenced.paths?.[path] as Record<string, unknown> | undefined;
  const operation = item?.[method.toLowerCase()] as OperationIdOf | undefined;
  return operation === undefined ? undefined : operationKey(method, path, operation);
}

function toPrismQuery(
  query: Readonly<Record<string, string | readonly string[]>>,
): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : [...value],
    ]),
  );
}

function textHeaders(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === null || value === undefined) continue;
    text[name.toLowerCase()] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return text;
}

interface PrismProblem {
  readonly name?: string;
  readonly status?: number;
  readonly message?: string;
  readonly detail?: string;
  readonly additional?: {
    readonly headers?: Readonly<Record<string, string>>;
    readonly validation?: readonly { readonly location?: readonly string[]; message?: string }[];
  };
}

/** Prism's error, by what the caller can do about it. */
function refusalOf(error: PrismProblem, preferences: ExamplePreferences): ExampleAnswer {
  const headers = textHeaders(error.additional?.headers ?? {});
  const errors = (error.additional?.validation ?? []).map((one) => ({
    location: (one.location ?? []).join('.'),
    message: one.message ?? 'is not valid',
  }));
  // Prism's own details say "Prism is generating this error for you": said here in our words.
  const detail =
    error.status === 422
      ? `The request does not match the spec: ${errors.map((one) => one.message).join('; ')}.`
      : error.status === 401
        ? 'The request lacks the credentials the spec asks for.'
        : (error.detail ?? error.message ?? 'No answer could be made from the spec.');
  const refused = (why: ExampleRefusal): ExampleAnswer => ({
    kind: 'refused',
    why,
    detail,
    errors,
    headers,
  });
  switch (error.status) {
    case 401:
      return refused('unauthorized');
    case 422:
      return refused('invalid-request');
    case 415:
      return refused('unsupported-media-type');
    case 406:
      return refused('not-acceptable');
    case 404:
      // Fastify matched the route, but Prism's router may still read the path otherwise.
      if (error.name?.endsWith('#NO_PATH_MATCHED_ERROR') === true) return refused('not-found');
      // Else it is a status or an example the spec lacks.
      return refused(
        preferences.code !== undefined || preferences.example !== undefined
          ? 'no-such-preference'
          : 'no-answer',
      );
    default:
      return refused('no-answer');
  }
}
