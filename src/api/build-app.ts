/** @module The composition root: config, spec and catalogue in, a Fastify app out (no listen). */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createCredentials } from '../access/credentials.ts';
import { adminApi } from '../admin/admin-api.ts';
import ownEndpoints, { ownPaths } from '../http/plugins/own-endpoints.ts';
import {
  createRequestJournal,
  journalHook,
  type RequestJournal,
} from '../admin/request-journal.ts';
import { createReloader, swapData, type Reloader } from '../scenarios/reloader.ts';
import { loadPlanOf } from '../scenarios/load-scenarios.ts';
import type { ScenarioStore } from '../scenarios/scenario-store.ts';
import type { Config } from '../config/config-schema.ts';
import { DEFAULTS, isDemoToken } from '../config/load-config.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS, WRITE_PROBLEMS } from '../problems/problem-types.ts';
import { jsonNestsDeeperThan } from '../util/json-depth.ts';
import { ADMIN_SPEC, loadSpec, type LoadedSpec } from '../spec/load-spec.ts';
import { applyCompatibility } from '../spec/apply-compatibility.ts';
import { describeAcceptedTokens } from '../spec/describe-tokens.ts';
import { createExampleAnswers } from '../spec/example-answers.ts';
import { HTTP_METHODS } from '../spec/operation-rules.ts';
import { formatSourceIssue } from '../problems/source-error.ts';
import { boundedPatternWarnings } from '../spec/pattern-warnings.ts';
import { faultWarnings } from '../spec/served-faults.ts';
import { credentialQueryNames, unknownSchemeIssues } from '../spec/security.ts';
import { createSecretQuery } from '../http/secret-query.ts';
import {
  buildRouteTable,
  distinctRoutes,
  RESERVED_IN_PATH,
  type DataRoute,
  type RouteDef,
} from '../spec/route-table.ts';
import { escapeReservedInPath } from '../http/reserved-path.ts';
import { SILENT_LOGGER } from '../http/app-logger.ts';
import { answerClientError, answerConnect, answerExpectation } from '../http/client-errors.ts';
import { originFormOf } from '../http/request-origin.ts';
import { exampleRoute } from '../http/example-route.ts';
import { operationHandler } from '../http/operation-handler.ts';
import { dataOperations, type DataOperation } from '../dataset/dataset.ts';
import {
  readDeclarations,
  type CollectionDeclaration,
  type Declarations,
  type OperationDeclaration,
} from '../resources/declarations.ts';
import type { WriteDeclaration } from '../resources/write-declarations.ts';
import { reshapeViews } from '../resources/reshape-views.ts';
import { orderIssues, unviewedLevelIssues } from '../resources/config-fit.ts';
import { refuseOnIssues } from '../source/read-yaml-source.ts';
import { formatField } from '../source/describe-ajv-error.ts';
import accept from '../http/plugins/accept.ts';
import cors from '../http/plugins/cors.ts';
import routeSecurity from '../http/plugins/route-security.ts';
import docs from '../http/plugins/docs.ts';
import draining from '../http/plugins/draining.ts';
import requestFraming from '../http/plugins/request-framing.ts';
import methodNotAllowed from '../http/plugins/method-not-allowed.ts';
import noBodies from '../http/plugins/no-bodies.ts';
import preferences from '../http/plugins/preferences.ts';
import problemHandler, { sendProblem } from '../http/plugins/problem-handler.ts';
import { operationRoute } from '../http/operation-route.ts';
import { writeRoute } from '../http/write-route.ts';
import {
  createSessionStore,
  sessionLimitsOf,
  type SessionStore,
} from '../sessions/session-store.ts';
import { recordWrite } from '../writes/write-record.ts';
import { writeWarnings } from '../writes/write-warnings.ts';
import { createKeptAnswers, type KeptAnswers } from '../http/rendered-answers.ts';
import { nextRequestId, OneLinePerRequest } from '../http/request-log.ts';
import { createRequestOrigin } from '../http/request-origin.ts';
import { rateLimitConfig, registerRateLimit } from '../simulation/rate-limit.ts';
import simulation, { isSimulated } from '../simulation/simulation-plugin.ts';

export interface AppDeps {
  readonly config: Config;
  readonly spec: LoadedSpec;
  /** What the spec declares to serve; read from the spec unless given. */
  readonly declarations?: Declarations;
  readonly catalogs: ScenarioStore;
  /** Reloads config and data for the admin API; default: the same config, files read anew. */
  readonly reloader?: Reloader;
  /**
   * Where answers asked for twice are kept and sent again (`rendered-answers.ts`): a set of the
   * app's own unless given, none if null. Tests give none to a second app, to hold the kept
   * answers to fresh ones, or give their own set, to see into it.
   */
  readonly keptAnswers?: KeptAnswers | null;
  /** How simulated latency waits; tests record it instead of waiting. */
  readonly sleep?: (ms: number) => Promise<unknown>;
  /** The server's logger (`createAppLogger`, which redacts tokens); silent unless given. */
  readonly log?: Logger;
  /**
   * Where served requests are recorded: the programmatic API reads it without the admin API.
   * Unless given, there is one only with the admin API, which serves it.
   */
  readonly journal?: RequestJournal;
  /**
   * Each session's writes: the programmatic API and the admin API reach them. The app's own
   * unless given.
   */
  readonly sessions?: SessionStore;
}

/** /docs and its files: read-only pages (@fastify/swagger-ui). */
const DOCS_RESOURCES = [
  { path: '/docs', methods: ['GET', 'HEAD'] },
  { path: '/docs/{page}', methods: ['GET', 'HEAD'] },
  { path: '/docs/static/{file}', methods: ['GET', 'HEAD'] },
];

/**
 * Each path with the methods it answers: those of its operations, HEAD with GET (as Fastify
 * serves it), and OPTIONS for CORS.
 */
function resourcesOf(
  routes: readonly { readonly path: string; readonly method: string }[],
  extra: readonly string[] = [],
): { path: string; methods: string[] }[] {
  const byPath = new Map<string, Set<string>>();
  for (const { path, method } of routes) {
    const methods = byPath.get(path) ?? new Set(extra);
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    byPath.set(path, methods);
  }
  const rank = (method: string): number => ALLOW_ORDER.indexOf(method) >>> 0;
  return [...byPath].map(([path, methods]) => ({
    path,
    methods: [...methods].sort((a, b) => rank(a) - rank(b)),
  }));
}

/** The order `Allow` names methods in: reads first, then writes, then the rest. */
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/** The admin API's resources, as its own spec declares them. */
function adminResourcesOf(spec: LoadedSpec): { path: string; methods: string[] }[] {
  return resourcesOf(
    Object.entries(spec.document.paths ?? {}).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item?.[method] !== undefined).map((method) => ({
        path,
        method: method.toUpperCase(),
      })),
    ),
  );
}

/**
 * The largest request body an operation answered from examples reads (Fastify's default, said
 * here): a larger one is a 413 problem. Operations served from data read no body at all.
 */
export const EXAMPLE_BODY_LIMIT = 1024 * 1024;

/** The deepest request body read (arrays and objects within each other). */
export const MAX_BODY_DEPTH = 64;

/**
 * How long a request may take to arrive, headers and body: the stock API reads no body and the
 * admin API bodies of at most 4 KiB, so ten seconds is far more than any client needs.
 */
export const REQUEST_DEADLINE_MS = 10_000;

/**
 * Builds the app: plugins first, then one route per operation of the spec, registered in one
 * loop. An operation without a handler, or a handler without an operation, fails the build.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, catalogs } = deps;
  // Every operation is served as the spec declares it (src/resources/): no operation is named here.
  const declarations = deps.declarations ?? readDeclarations(deps.spec, { strict: config.strict });
  // The compatibility settings shape what is served, and so the spec that is served and routed by.
  const accepted = new Set(config.tokens.map(({ token }) => token));
  const compatible = await applyCompatibility(deps.spec, config.compatibility, (document) => {
    reshapeViews(document, declarations, config.compatibility);
  });
  const spec = describeAcceptedTokens(
    compatible,
    DEFAULTS.tokens.map(({ token }) => token).filter((token) => !accepted.has(token)),
  );
  const log = deps.log ?? SILENT_LOGGER;
  // Fastify's base type: the app's type must not depend on pino's.
  const requestLog: FastifyBaseLogger = log;
  const credentials = createCredentials(
    config.tokens.map((grant) => ({ ...grant, demo: isDemoToken(grant) })),
  );
  const { routed: routes, shadowed } = distinctRoutes(
    buildRouteTable(
      spec,
      config.compatibility.unknownQueryParameters,
      new Set(declarations.operations.keys()),
    ),
  );
  for (const line of shadowed) log.warn(line);
  // An API key sent in the query reaches neither the log nor the journal.
  const secretQuery = createSecretQuery(
    routes.flatMap((route) => credentialQueryNames(route.security)),
  );
  for (const issue of faultWarnings(deps.spec.faults)) log.warn(formatSourceIssue(issue));
  for (const issue of boundedPatternWarnings(deps.spec)) log.warn(formatSourceIssue(issue));
  for (const issue of writeWarnings(deps.spec, declarations)) log.warn(formatSourceIssue(issue));
  // Only a spec that writes `#` or `?` in a path pays for routing them (reserved-path.ts).
  const reserved = routes.some((route) => RESERVED_IN_PATH.test(route.path));
  const app: FastifyInstance = Fastify({
    // One logger at every level: request lines where the level writes them, and errors always.
    loggerInstance: requestLog,
    // One line per request instead of Fastify's two (request-log.ts).
    logController: new OneLinePerRequest(log.isLevelEnabled('info'), secretQuery),
    // A request's own logger carries its id, which ties its lines to its request line. Above
    // `info` there is no request line, and a failure's line names the id itself
    // (problem-handler.ts, request-log.ts): no child logger is made for each request.
    ...(log.isLevelEnabled('info') ? {} : { childLoggerFactory: (parent) => parent }),
    genReqId: nextRequestId,
    // Ids longer than the default 100 characters must reach the parameter check (400), not 404.
    // A trailing slash names the same resource as without it (`/v1/stock/` is the collection,
    // not a product with an empty id), as most HTTP clients and servers treat it.
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
    // What Node's parser refuses, and a missing Host, are answered as problems too.
    clientErrorHandler: answerClientError,
    // A request, headers and body, must arrive within its deadline (a 408 problem otherwise),
    // checked every second: a client that stops half-way holds no connection, and no shutdown.
    requestTimeout: REQUEST_DEADLINE_MS,
    http: {
      requireHostHeader: false,
      headersTimeout: REQUEST_DEADLINE_MS,
      connectionsCheckingInterval: 1000,
    },
    // While closing, plugins/draining.ts answers with a 503 problem instead.
    return503OnClosing: false,
    // An absolute-form target (`GET http://host/v1/stock`, RFC 9112 §3.2.2) is read as its
    // path, and its host stands for the Host header: links are built from both.
    rewriteUrl: reserved ? (request) => escapeReservedInPath(originFormOf(request)) : originFormOf,
    // A malformed URL is answered like any bad parameter.
    frameworkErrors: (error, _request, reply) => {
      const problem = ProblemError.from(
        PROBLEMS.INVALID_PARAMETERS,
        'The request URL is malformed.',
        {
          errors: [{ parameter: 'url', in: 'path', message: error.message }],
        },
      );
      void sendProblem(reply, problem);
    },
  });

  app.server.on('checkExpectation', answerExpectation);
  app.server.on('connect', answerConnect);
  await app.register(noBodies);
  const examples = await createExampleAnswers(
    spec,
    new Set(routes.filter((route) => route.answers === 'examples').map((route) => route.key)),
  );
  await app.register(problemHandler, { log, style: config.compatibility });
  await app.register(draining);
  await app.register(requestFraming);
  const adminToken = config.admin?.token;
  const adminSpec = adminToken === undefined ? undefined : await loadSpec(ADMIN_SPEC);
  // A wrong method on anything served is a 405 naming the right ones, and an OPTIONS names them
  // too: the spec's resources, the docs, the server's own, and the admin API's resources as its
  // own spec declares them.
  const declaredPaths = new Set(routes.map((route) => route.path));
  const resources = [
    ...resourcesOf(routes, ['OPTIONS']),
    ...DOCS_RESOURCES,
    ...ownPaths(declaredPaths).map((path) => ({ path, methods: ['GET', 'HEAD', 'OPTIONS'] })),
    ...(adminSpec === undefined ? [] : adminResourcesOf(adminSpec)),
  ];
  await app.register(cors, {
    resources,
    origins: config.cors.origins,
    methods: [...new Set(['GET', 'HEAD', ...routes.map((route) => route.method)])],
    // Link: a bare-array list's pages (envelope: none), which a browser client must read.
    exposedHeaders: ['WWW-Authenticate', 'Allow', 'Preference-Applied', 'Link'],
    maxAgeSeconds: 600,
  });
  await app.register(preferences);
  await app.register(routeSecurity, {
    // Where credentials come from; a 401 names the demo ones a route takes (never another).
    whereSet: "Tokens are set in the server's config (tokens, or STOCKMOCK_TOKENS)",
    credentials,
    realm: config.compatibility.realm,
    exact: declarations.levels.length > 0,
  });
  // `accept: ignore` serves JSON whatever the Accept, as a service may (RFC 9110 §12.5.1).
  if (config.compatibility.accept === 'negotiate') await app.register(accept);
  const rateLimit = config.simulation?.rateLimit;
  // After auth and Accept, so that a refused request does not use up the quota.
  if (rateLimit !== undefined) await registerRateLimit(app, rateLimit);
  await app.register(simulation, {
    simulation: config.simulation,
    routes,
    realm: config.compatibility.realm,
    ...(deps.sleep === undefined ? {} : { sleep: deps.sleep }),
  });
  await app.register(methodNotAllowed, { resources });

  const inConfig = (path: readonly (string | number)[]) => ({
    file: 'config',
    field: formatField(path),
  });
  refuseOnIssues([
    ...unviewedLevelIssues(declarations, config.tokens, inConfig),
    ...orderIssues(declarations, config.compatibility.order, inConfig),
    ...unknownSchemeIssues(
      config.tokens,
      Object.keys(spec.dereferenced.components?.securitySchemes ?? {}),
      inConfig,
    ),
  ]);
  const data = dataOperations(declarations, config.compatibility);
  const originOf = createRequestOrigin(config.baseUrl, `${config.host}:${String(config.port)}`);
  const keptAnswers = deps.keptAnswers === undefined ? createKeptAnswers() : deps.keptAnswers;
  // A HEAD the spec declares is its own operation: then Fastify adds none to the path's GET.
  const headDeclared = new Set(routes.filter((r) => r.method === 'HEAD').map((r) => r.path));
  const routeConfig = (route: RouteDef) => ({
    security: route.security,
    produces: route.produces,
    operation: { id: route.key, statuses: route.statuses },
    simulated: isSimulated(route),
    ...(rateLimit === undefined || route.security.kind !== 'secured'
      ? {}
      : rateLimitConfig(rateLimit)),
  });
  const sessions =
    deps.sessions ??
    createSessionStore(
      loadPlanOf(declarations, config.compatibility),
      sessionLimitsOf(config.sessions),
    );
  const writes: { route: DataRoute; declaration: WriteDeclaration }[] = [];
  for (const route of routes) {
    if (route.answers !== 'data') continue;
    const declaration = declarations.operations.get(route.key) as OperationDeclaration;
    // In the context where bodies are read, below.
    if (declaration.kind === 'write') {
      writes.push({ route, declaration });
      continue;
    }
    const handler = operationHandler(declaration, data.get(route.key), spec);
    // Only pages of a list are kept. A single item is written in about a microsecond, less
    // than its key and lookup cost, and clients that ask for ids across the catalogue rarely
    // repeat one: measured at 100 000 products, logLevel warn, random ids, four alternating
    // rounds, 43 100–45 300 req/s with single items kept, 49 100–51 900 without.
    const keepsAnswers = data.get(route.key)?.kind === 'list';
    app.route({
      method: route.method,
      url: route.url,
      exposeHeadRoute: !headDeclared.has(route.path),
      config: routeConfig(route),
      handler: operationRoute({
        route,
        handler,
        catalogs,
        sessions,
        keptAnswers: keepsAnswers ? (keptAnswers ?? undefined) : undefined,
        originOf,
      }),
    });
  }
  // In a context of their own, where request bodies are read: the operations served from data
  // read none (no-bodies.ts).
  await app.register(async (bodies) => {
    bodies.removeAllContentTypeParsers();
    const parseJson = bodies.getDefaultJsonParser('error', 'error');
    for (const json of ['application/json', /^application\/[\w.+-]+\+json(?:;|$)/i]) {
      bodies.addContentTypeParser(
        json,
        { parseAs: 'string', bodyLimit: EXAMPLE_BODY_LIMIT },
        (request, body: string, done) => {
          // What reads a body (a merge, a schema) recurses: a deep one is refused unread.
          if (jsonNestsDeeperThan(body, MAX_BODY_DEPTH)) {
            done(
              ProblemError.from(
                { ...WRITE_PROBLEMS.INVALID_BODY, status: 400 },
                `The request body nests deeper than ${String(MAX_BODY_DEPTH)} levels.`,
              ),
              undefined,
            );
            return;
          }
          void parseJson(request, body, done);
        },
      );
    }
    bodies.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: EXAMPLE_BODY_LIMIT },
      (_request, body, done) => {
        done(null, body);
      },
    );
    for (const { route, declaration } of writes) {
      bodies.route({
        method: route.method,
        url: route.url,
        bodyLimit: EXAMPLE_BODY_LIMIT,
        config: routeConfig(route),
        handler: writeRoute({
          route,
          operation: data.get(route.key) as Extract<DataOperation, { kind: 'write' }>,
          write: recordWrite(
            declaration,
            declarations.collections.get(declaration.collection) as CollectionDeclaration,
          ),
          catalogs,
          sessions,
          originOf,
        }),
      });
    }
    for (const route of routes) {
      if (route.answers !== 'examples') continue;
      bodies.route({
        method: route.method,
        url: route.url,
        bodyLimit: EXAMPLE_BODY_LIMIT,
        exposeHeadRoute: !headDeclared.has(route.path),
        config: routeConfig(route),
        handler: exampleRoute({ route, answers: examples }),
      });
    }
  });
  await app.register(docs, { spec });
  await app.register(ownEndpoints, { spec, catalogs, originOf, declaredPaths });
  const journal =
    deps.journal ??
    (adminToken === undefined
      ? undefined
      : createRequestJournal(config.admin?.journalSize ?? DEFAULT_JOURNAL_SIZE));
  if (journal !== undefined) app.addHook('onResponse', journalHook(journal, secretQuery));
  if (adminToken !== undefined && adminSpec !== undefined && journal !== undefined) {
    const reloader =
      deps.reloader ??
      createReloader({
        swap: swapData(catalogs, loadPlanOf(declarations, config.compatibility)),
        initialConfig: config,
        readConfig: async () => config,
      });
    await app.register(adminApi, {
      prefix: '/__admin',
      token: adminToken,
      spec: adminSpec,
      journal,
      scenarios: catalogs,
      reloader,
      sessions,
    });
  }
  return app;
}

export const DEFAULT_JOURNAL_SIZE = 1000;
