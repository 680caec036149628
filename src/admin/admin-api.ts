/** @module /__admin: reload, scenario switch, request journal and effective config, behind a token. */
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { createTokenTable } from '../access/token-table.ts';
import type { Config } from '../config/config-schema.ts';
import { JSON_TYPE } from '../http/operation-handler.ts';
import { authenticate } from '../http/plugins/bearer-auth.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
import { formatSourceIssue } from '../problems/source-error.ts';
import type { Reloader } from '../scenarios/reloader.ts';
import { noSuchScenario, type ScenarioStore } from '../scenarios/scenario-store.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import { formatFixture } from '../generate/format-fixture.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { createParameterParser } from '../spec/parameter-parser.ts';
import type { JournalFilter, RequestJournal } from './request-journal.ts';

export interface AdminOptions {
  readonly token: string;
  readonly spec: LoadedSpec;
  readonly journal: RequestJournal;
  readonly scenarios: ScenarioStore;
  readonly reloader: Reloader;
  readonly sessions: SessionStore;
}

/** Registered under the `/__admin` prefix, in its own encapsulated context. */
export async function adminApi(app: FastifyInstance, options: AdminOptions): Promise<void> {
  // Its own realm: a stock token does not open it.
  const realm = {
    tokens: createTokenTable([{ token: options.token, level: 'admin' }]),
    realm: 'stockmock-admin',
    missing: 'The admin API needs the admin token: Authorization: Bearer <admin.token>.',
  };
  app.addHook('onRequest', async (request) => {
    authenticate(realm, request.headers.authorization);
  });
  // The stock API reads no bodies; the admin API reads small JSON ones.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(String(body)) as unknown);
      } catch {
        done(invalidBody('is not valid JSON'));
      }
    },
  );

  const scenariosBody = () => ({
    active: options.scenarios.active,
    scenarios: options.scenarios.names.map((name) => {
      const dataset = options.scenarios.get(name);
      const records = [...(dataset?.sizes.values() ?? [])].reduce((sum, size) => sum + size, 0);
      return { name, records, source: dataset?.source ?? '' };
    }),
  });
  // The journal's filters are validated by the admin spec's own parameter schemas.
  const journalParameters =
    options.spec.dereferenced.paths?.['/__admin/requests']?.get?.parameters ?? [];
  const parseJournalQuery = createParameterParser(
    journalParameters as OpenAPIV3_1.ParameterObject[],
    'reject',
  );

  app.post('/reload', async () => {
    const result = await options.reloader.reload();
    if (result.ok) return { reloaded: true, scenarios: result.scenarios };
    const count = result.issues.length;
    throw ProblemError.from(
      PROBLEMS.RELOAD_REFUSED,
      `${String(count)} issue${count === 1 ? '' : 's'}; the last good data is still served.`,
      {
        extensions: { issues: result.issues.map(formatSourceIssue) },
      },
    );
  });

  app.get('/scenario', async () => scenariosBody());
  app.put('/scenario', async (request) => {
    const name = (request.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') throw invalidBody('must be {"name": "<scenario>"}');
    if (options.scenarios.get(name) === undefined) {
      throw invalidBody(`names no scenario; one of ${options.scenarios.names.join(', ')}`, 'name');
    }
    options.scenarios.activate(name);
    return scenariosBody();
  });

  app.get('/requests', async (request) => {
    const parsed = parseJournalQuery({ query: request.query as Record<string, string>, path: {} });
    if (!parsed.ok) {
      throw ProblemError.from(PROBLEMS.INVALID_PARAMETERS, 'The journal filter is invalid.', {
        errors: parsed.issues,
      });
    }
    const { values } = parsed;
    const filter: { -readonly [K in keyof JournalFilter]: JournalFilter[K] } = {};
    const method = values.get('method');
    const path = values.get('path');
    const status = values.get('status');
    const level = values.get('level');
    const session = values.get('session');
    if (typeof method === 'string') filter.method = method;
    if (typeof path === 'string') filter.path = path;
    if (typeof status === 'number') filter.status = status;
    if (typeof level === 'string') filter.level = level;
    if (typeof session === 'string') filter.session = session;
    return { requests: options.journal.list(filter) };
  });
  app.delete('/requests', async (_request, reply) => {
    options.journal.clear();
    return reply.code(204).send();
  });

  const { sessions } = options;
  app.get('/sessions', async () => ({ sessions: sessions.list(), limits: sessions.limits }));
  app.delete('/sessions', async (_request, reply) => {
    sessions.reset();
    return reply.code(204).send();
  });
  app.delete<{ Params: { name: string } }>('/sessions/:name', async (request, reply) => {
    sessions.reset(request.params.name);
    return reply.code(204).send();
  });
  app.get<{ Params: { name: string }; Querystring: { scenario?: unknown } }>(
    '/sessions/:name/data',
    async (request, reply) => {
      const asked = request.query.scenario;
      const scenario = typeof asked === 'string' ? asked : options.scenarios.active;
      const base = options.scenarios.get(scenario);
      if (base === undefined) {
        throw noSuchScenario(scenario, options.scenarios.names, {
          parameter: 'scenario',
          in: 'query',
        });
      }
      const data = sessions.data(request.params.name, scenario, base);
      const text = formatFixture(data);
      return reply.type('application/yaml; charset=utf-8').send(text);
    },
  );

  app.get('/config', async () => maskSecrets(options.reloader.config));
  const document = JSON.stringify(options.spec.document);
  app.get('/openapi.json', async (_request, reply) => reply.type(JSON_TYPE).send(document));
}

function invalidBody(message: string, parameter = 'body'): ProblemError {
  return ProblemError.from(PROBLEMS.INVALID_PARAMETERS, `The request body ${message}.`, {
    errors: [{ parameter, in: 'body', message }],
  });
}

/** The effective config with every secret replaced by `***`. */
export function maskSecrets(config: Config): Record<string, unknown> {
  return {
    ...config,
    tokens: config.tokens.map((grant) => ({ ...grant, token: '***' })),
    ...(config.admin === undefined
      ? {}
      : {
          admin: { ...config.admin, ...(config.admin.token === undefined ? {} : { token: '***' }) },
        }),
  };
}
