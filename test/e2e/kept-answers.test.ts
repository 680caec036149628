/**
 * Kept answers (src/http/rendered-answers.ts) over real HTTP on loopback: a server that keeps
 * answers and one that never does serve the same store, every request goes to both, and what a
 * client reads off the wire (status, header lines in order, body) must be the same. The cache
 * is inside the request path, so it works the same at every log level and each answer it
 * serves is logged.
 */
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/dataset/dataset.ts';
import { datasetOf } from '../helpers/datasets.ts';
import type { Config } from '../../src/config/config-schema.ts';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { createAppLogger } from '../../src/http/app-logger.ts';
import { buildApp, type AppDeps } from '../../src/api/build-app.ts';
import { createScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { arbitraryProducts } from '../helpers/arbitraries.ts';
import { generatedCatalog } from '../helpers/generated-catalog.ts';
import { listenLive } from '../helpers/live-server.ts';
import { QUANTITY_TOKEN, shippedSpecOnce, STATUS_TOKEN } from '../helpers/test-app.ts';

/** Origins are listed, so that the Origin header changes answers. */
const CONFIG: Config = { ...DEFAULTS, cors: { origins: ['http://a.test'] } };

interface Served {
  readonly app: FastifyInstance;
  readonly origin: string;
}

async function serve(deps: Partial<AppDeps> & Pick<AppDeps, 'catalogs'>): Promise<Served> {
  const app = await buildApp({ config: CONFIG, spec: await shippedSpecOnce(), ...deps });
  const { origin } = await listenLive(app);
  return { app, origin };
}

/** A header line: name and value. */
type Header = readonly [string, string];

/** Kept-alive connections, as load generators and browsers use them. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Wire {
  readonly status: number;
  /** Header lines as sent, names and values, Date left out (it is the clock's). */
  readonly headers: readonly string[];
  readonly body: string;
}

/** A request with headers as given (a name may repeat; Host is the server's unless given). */
function send(
  origin: string,
  path: string,
  headers: readonly Header[] = [],
  method = 'GET',
): Promise<Wire> {
  const host = headers.some(([name]) => name.toLowerCase() === 'host')
    ? []
    : [['Host', new URL(origin).host] as const];
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${origin}${path}`,
      { method, agent, headers: [...host, ...headers].flat() },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const raw = response.rawHeaders;
          const lines: string[] = [];
          for (let i = 0; i < raw.length; i += 2) {
            if (raw[i]?.toLowerCase() !== 'date')
              lines.push(`${raw[i] ?? ''}: ${raw[i + 1] ?? ''}`);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: lines,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

const bearer = (token: string): Header => ['Authorization', `Bearer ${token}`];

const catalogs = createScenarioStore(
  new Map([
    ['default', generatedCatalog(60, 1)],
    ['other', generatedCatalog(40, 2)],
  ]),
);
let keeping: Served;
let fresh: Served;
beforeAll(async () => {
  keeping = await serve({ catalogs });
  fresh = await serve({ catalogs, keptAnswers: null });
});
afterAll(async () => {
  await keeping.app.close();
  await fresh.app.close();
  agent.destroy();
});

interface Request {
  readonly method: string;
  readonly path: string;
  readonly headers: readonly Header[];
}

/** What a request is made of; a run's requests are one shape with at most one part changed. */
interface Shape {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly authorization: readonly Header[];
  /** Both servers must see one Host: their links start with it. */
  readonly host: string;
  readonly origin: string | undefined;
  readonly accept: string | undefined;
  readonly prefer: string | undefined;
}

const arbitraryShape: fc.Arbitrary<Shape> = fc.record({
  method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
  path: fc.constantFrom('/v1/stock', '/v1/products', '/v1/stock/4', '/v1/stock/5'),
  query: fc.constantFrom('', '?page=2', '?name=oak', '?status=available&limit=3', '?limit=0'),
  authorization: fc.constantFrom<readonly Header[]>(
    [bearer(STATUS_TOKEN)],
    [bearer(QUANTITY_TOKEN)],
    [['authorization', `bearer ${QUANTITY_TOKEN}`]],
    [bearer('not-a-token')],
    [],
    [bearer(STATUS_TOKEN), bearer(QUANTITY_TOKEN)],
  ),
  host: fc.constantFrom('a.test:1', 'B.test:2'),
  origin: fc.constantFrom(undefined, 'http://a.test', 'http://b.test'),
  accept: fc.constantFrom(undefined, 'application/json', 'text/html'),
  prefer: fc.constantFrom(undefined, undefined, 'scenario=other', 'delay=0'),
});

/** A run's shape is mostly one whose answer is kept; its variations take any value. */
const arbitraryBase: fc.Arbitrary<Shape> = fc.oneof(
  { weight: 1, arbitrary: arbitraryShape },
  {
    weight: 3,
    arbitrary: arbitraryShape.map((shape): Shape => ({
      ...shape,
      method: 'GET',
      authorization: [bearer(shape.query === '?page=2' ? STATUS_TOKEN : QUANTITY_TOKEN)],
      prefer: undefined,
    })),
  },
);

const PARTS = ['method', 'query', 'authorization', 'host', 'origin', 'accept', 'prefer'] as const;

function requestOf(shape: Shape): Request {
  const optional: [string, string | undefined][] = [
    ['Origin', shape.origin],
    ['Accept', shape.accept],
    ['Prefer', shape.prefer],
  ];
  return {
    method: shape.method,
    path: `${shape.path}${shape.query}`,
    headers: [
      ['Host', shape.host],
      ...shape.authorization,
      ...optional.flatMap(([name, value]): Header[] =>
        value === undefined ? [] : [[name, value]],
      ),
    ],
  };
}

type Step = { readonly request: Request } | { readonly reload: Dataset };

/**
 * A run: requests that differ from one shape in one part at most (the token's level, the Origin,
 * the method…), so that near misses of a recorded answer come often, and reloads among them.
 */
const arbitraryRun: fc.Arbitrary<Step[]> = arbitraryBase.chain((base) =>
  fc.array(
    fc.oneof(
      {
        weight: 15,
        arbitrary: fc
          .record({ part: fc.constantFrom(undefined, ...PARTS), other: arbitraryShape })
          .map(({ part, other }) => ({
            request: requestOf(part === undefined ? base : { ...base, [part]: other[part] }),
          })),
      },
      {
        weight: 1,
        arbitrary: arbitraryProducts({ maxId: 12, maxNameLength: 4, maxLength: 12 }).map(
          (products) => ({ reload: datasetOf('reloaded.yaml', products) }),
        ),
      },
    ),
    { minLength: 20, maxLength: 60 },
  ),
);

async function both(request: Request): Promise<{ kept: Wire; made: Wire }> {
  const { method, path, headers } = request;
  const kept = await send(keeping.origin, path, headers, method);
  const made = await send(fresh.origin, path, headers, method);
  return { kept, made };
}

describe('kept answers', () => {
  it('are what the pipeline sends, for any level, header, scenario and bad request, across reloads', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryRun, async (steps) => {
        catalogs.replace(generatedCatalog(60, 1));
        for (const step of steps) {
          if ('reload' in step) {
            catalogs.replace(step.reload);
            continue;
          }
          // Thrice: the second asking is kept, the third served from the cache.
          for (let i = 0; i < 3; i++) {
            const { kept, made } = await both(step.request);
            expect(kept).toEqual(made);
          }
        }
      }),
      { numRuns: 20, seed: 11 },
    );
  });

  it('belong to the catalogue they came from: a reload is answered from the new data', async () => {
    catalogs.replace(generatedCatalog(30, 5));
    const path = '/v1/stock?limit=3';
    for (let i = 0; i < 3; i++) await send(keeping.origin, path, [bearer(QUANTITY_TOKEN)]);
    const old = await send(keeping.origin, path, [bearer(QUANTITY_TOKEN)]);
    catalogs.replace(generatedCatalog(30, 6));
    const reloaded = await send(keeping.origin, path, [bearer(QUANTITY_TOKEN)]);
    const made = await send(fresh.origin, path, [bearer(QUANTITY_TOKEN)]);
    expect(reloaded.body).not.toBe(old.body);
    expect(reloaded.body).toBe(made.body.replaceAll(fresh.origin, keeping.origin));
    expect(reloaded.status).toBe(200);
  });
});

describe('at every log level', () => {
  let other: Served | undefined;
  afterEach(async () => {
    await other?.app.close();
    other = undefined;
  });

  it('each answer, kept or made, writes its request line at info, and never the token', async () => {
    const lines: string[] = [];
    other = await serve({
      catalogs: createScenarioStore(generatedCatalog(20, 7)),
      log: createAppLogger({
        level: 'info',
        stream: { write: (line: string) => lines.push(line) },
      }),
    });
    const bodies = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const answer = await send(other.origin, '/v1/stock?limit=4', [bearer(STATUS_TOKEN)]);
      expect(answer.status).toBe(200);
      bodies.add(answer.body);
    }
    expect(bodies.size).toBe(1);
    const requestLines = lines.filter((line) => line.includes('"msg":"GET /v1/stock?limit=4 200'));
    expect(requestLines).toHaveLength(4);
    expect(lines.join('\n')).not.toContain(STATUS_TOKEN);
  });

  it('once the server starts closing: the next request on a kept-alive connection gets 503', async () => {
    other = await serve({ catalogs: createScenarioStore(generatedCatalog(20, 8)) });
    const served = other;
    for (let i = 0; i < 3; i++) await send(served.origin, '/v1/stock', [bearer(STATUS_TOKEN)]);
    // A slow request holds the one connection while closing starts; the next one queues behind it.
    const slow = send(served.origin, '/v1/stock', [bearer(STATUS_TOKEN), ['Prefer', 'delay=300']]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = served.app.close();
    const late = send(served.origin, '/v1/stock', [bearer(STATUS_TOKEN)]);
    expect((await slow).status).toBe(200);
    const answer = await late;
    await closing;
    other = undefined;
    expect(answer.status).toBe(503);
    // Header names are case-insensitive; the value is what a client acts on.
    expect(answer.headers.map((line) => line.toLowerCase())).toContain('connection: close');
    expect(answer.headers.map((line) => line.toLowerCase())).toContain(
      'content-type: application/problem+json; charset=utf-8',
    );
  });
});
