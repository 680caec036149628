/** @module The catalogue of problem types the server answers with (RFC 9457). */

/** A problem template: everything but the detail of one occurrence. */
export interface ProblemType {
  readonly type: string;
  readonly title: string;
  readonly status: number;
}

const base = 'urn:problem-type:stockmock:';

/**
 * Every problem the HTTP surface can give. Each is declared in `spec/openapi.yaml` or, for the
 * admin API, `spec/admin-openapi.yaml`, and listed in docs/behaviour.md; a test keeps them in step.
 */
export const PROBLEMS = {
  INVALID_PARAMETERS: {
    type: `${base}invalid-parameters`,
    title: 'Invalid parameters',
    status: 400,
  },
  UNAUTHORIZED: { type: `${base}unauthorized`, title: 'Unauthorized', status: 401 },
  NOT_FOUND: { type: `${base}not-found`, title: 'Not found', status: 404 },
  METHOD_NOT_ALLOWED: {
    type: `${base}method-not-allowed`,
    title: 'Method not allowed',
    status: 405,
  },
  NOT_ACCEPTABLE: { type: `${base}not-acceptable`, title: 'Not acceptable', status: 406 },
  TOO_MANY_REQUESTS: { type: `${base}too-many-requests`, title: 'Too many requests', status: 429 },
  SERVICE_UNAVAILABLE: {
    type: `${base}service-unavailable`,
    title: 'Service unavailable',
    status: 503,
  },
  RELOAD_REFUSED: { type: `${base}reload-refused`, title: 'Reload refused', status: 422 },
  INTERNAL: { type: `${base}internal`, title: 'Internal error', status: 500 },
} as const satisfies Record<string, ProblemType>;

export type ProblemName = keyof typeof PROBLEMS;

/**
 * Answers of the operations served from the spec's examples, where the spec itself declares no
 * response for the case (when it does, that response is given, as Prism gives it).
 */
export const EXAMPLE_PROBLEMS = {
  INVALID_REQUEST: { type: `${base}invalid-request`, title: 'Invalid request', status: 422 },
  UNSUPPORTED_MEDIA_TYPE: {
    type: `${base}unsupported-media-type`,
    title: 'Unsupported media type',
    status: 415,
  },
  NO_EXAMPLE: {
    type: `${base}no-example`,
    title: 'Not implemented by the stand-in',
    status: 501,
  },
} as const satisfies Record<string, ProblemType>;

/**
 * Answers of the lists a team's spec declares that the shipped spec's lists cannot give (their
 * pages are bounded by the spec).
 */
export const LIST_PROBLEMS = {
  LIST_TOO_LONG: { type: `${base}list-too-long`, title: 'List too long', status: 400 },
} as const satisfies Record<string, ProblemType>;

/** Answers of the writes served from data (docs/writes-and-sessions.md). */
export const WRITE_PROBLEMS = {
  /** Its status is the spec's: 422 where the operation declares it and not 400. */
  INVALID_BODY: { type: `${base}invalid-body`, title: 'Invalid body', status: 400 },
  FORBIDDEN: { type: `${base}forbidden`, title: 'Forbidden', status: 403 },
  CONFLICT: { type: `${base}conflict`, title: 'Conflict', status: 409 },
  SESSION_LIMIT: { type: `${base}session-limit`, title: 'Session limit reached', status: 507 },
} as const satisfies Record<string, ProblemType>;

/**
 * Answers to requests that never reach an operation because HTTP itself failed: Node's parser
 * refused the request (RFC 9110 §15.5), or Fastify did before routing. No operation declares
 * them, as no operation declares a 500; docs/behaviour.md lists them.
 */
export const PROTOCOL_PROBLEMS = {
  BAD_REQUEST: { type: `${base}bad-request`, title: 'Bad request', status: 400 },
  REQUEST_TIMEOUT: { type: `${base}request-timeout`, title: 'Request timeout', status: 408 },
  EXPECTATION_FAILED: {
    type: `${base}expectation-failed`,
    title: 'Expectation failed',
    status: 417,
  },
  CONTENT_TOO_LARGE: { type: `${base}content-too-large`, title: 'Content too large', status: 413 },
  URI_TOO_LONG: { type: `${base}uri-too-long`, title: 'URI too long', status: 414 },
  HEADERS_TOO_LARGE: {
    type: `${base}headers-too-large`,
    title: 'Request header fields too large',
    status: 431,
  },
} as const satisfies Record<string, ProblemType>;
