/**
 * Every security scheme OpenAPI declares, enforced on lists and items served from data: the
 * venues example (examples/venues/) behind an API key in a header, one in the query, HTTP basic,
 * a bearer token or an API key (alternatives), and an API key with a session cookie (both),
 * served by the real CLI on a real port. What each request should get is computed from the
 * example's own files: the config's credentials (which level, for which scheme) and the
 * fixture's venues; each answer is judged by the example's spec.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { recordResponse, validatorFor } from '../helpers/expect-spec.ts';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';

const example = fileURLToPath(new URL('../../examples/venues/', import.meta.url));

interface Grant {
  readonly token: string;
  readonly level: 'public' | 'staff';
  readonly scheme: string;
}
interface Venue {
  readonly id: number;
  readonly name: string;
  readonly city: string;
  readonly capacity: number;
}

let server: ServeProcess;
let spec: LoadedSpec;
let grants: readonly Grant[];
let venues: readonly Venue[];

beforeAll(async () => {
  spec = await loadSpec(`${example}openapi.yaml`);
  grants = (parse(await readFile(`${example}stockmock.config.yaml`, 'utf8')) as { tokens: Grant[] })
    .tokens;
  venues = (parse(await readFile(`${example}venues.yaml`, 'utf8')) as { venues: Venue[] }).venues;
  server = await spawnServe(['--config', `${example}stockmock.config.yaml`]);
});
afterAll(async () => {
  await server.stop();
});

/** What a level sees of a venue: the example's views. */
function view(venue: Venue, level: Grant['level']): Record<string, unknown> {
  const { capacity, ...open } = venue;
  return level === 'staff' ? { ...open, capacity } : open;
}

/** How a request carries a credential of a scheme: headers, and a query to add. */
function carry(scheme: string, token: string): { headers: Record<string, string>; query: string } {
  switch (scheme) {
    case 'venueKey':
      return { headers: { 'x-api-key': token }, query: '' };
    case 'queryKey':
      return { headers: {}, query: `api_key=${encodeURIComponent(token)}` };
    case 'basicAuth':
      return {
        headers: { authorization: `Basic ${Buffer.from(token).toString('base64')}` },
        query: '',
      };
    case 'bearerAuth':
      return { headers: { authorization: `Bearer ${token}` }, query: '' };
    case 'sessionCookie':
      return { headers: { cookie: `theme=dark; session=${token}` }, query: '' };
    default:
      throw new Error(`no way to carry ${scheme}`);
  }
}

async function get(path: string, headers: Record<string, string>, query = '') {
  const url = new URL(
    query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`,
    server.url,
  );
  const response = await fetch(url, { headers });
  const recorded = await recordResponse(response);
  const findings = (await validatorFor(spec)).validate('GET', url.pathname, recorded);
  expect(findings, `GET ${path} → ${String(recorded.status)}`).toEqual([]);
  return recorded;
}

const grantOf = (scheme: string, level: Grant['level']): Grant => {
  const grant = grants.find((one) => one.scheme === scheme && one.level === level);
  if (grant === undefined) throw new Error(`the example configures no ${level} ${scheme}`);
  return grant;
};

// Each prefix, the schemes of each alternative, and the challenge a 401 names.
const SECURED = [
  {
    prefix: '/v1',
    alternatives: [['venueKey']],
    challenge: /^ApiKey realm="[^"]+", in="header", name="X-API-Key"$/,
  },
  {
    prefix: '/v2',
    alternatives: [['queryKey']],
    challenge: /^ApiKey realm="[^"]+", in="query", name="api_key"$/,
  },
  { prefix: '/basic', alternatives: [['basicAuth']], challenge: /^Basic realm="[^"]+"$/ },
  {
    prefix: '/either',
    alternatives: [['bearerAuth'], ['venueKey']],
    challenge: /^Bearer realm="[^"]+", ApiKey /,
  },
  {
    prefix: '/both',
    alternatives: [['venueKey', 'sessionCookie']],
    challenge: /in="header".*in="cookie"/,
  },
] as const;

describe('credentials of every scheme, on data', () => {
  it.each(SECURED)(
    '$prefix: 401 without the credential, naming the scheme',
    async ({ prefix, challenge }) => {
      for (const path of [`${prefix}/venues`, `${prefix}/venues/1`]) {
        const refused = await get(path, {});
        expect(refused.status).toBe(401);
        expect(refused.headers['www-authenticate']).toMatch(challenge);
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      }
    },
  );

  it.each(SECURED)(
    '$prefix: the level each credential is configured for, on a list and an item',
    async ({ prefix, alternatives }) => {
      for (const alternative of alternatives) {
        for (const level of ['public', 'staff'] as const) {
          // Every scheme of the alternative; the level is the first scheme's (a cookie has only staff).
          const parts = alternative.map((scheme, index) =>
            carry(scheme, grantOf(scheme, index === 0 ? level : 'staff').token),
          );
          const headers = Object.assign({}, ...parts.map((part) => part.headers)) as Record<
            string,
            string
          >;
          const query = parts
            .map((part) => part.query)
            .filter(Boolean)
            .join('&');
          const list = await get(`${prefix}/venues?city=Paris`, headers, query);
          expect(list.status).toBe(200);
          expect((list.body as { data: unknown[] }).data).toEqual(
            venues.filter((venue) => venue.city === 'Paris').map((venue) => view(venue, level)),
          );
          const item = await get(`${prefix}/venues/3`, headers, query);
          expect(item.status).toBe(200);
          expect((item.body as { data: unknown }).data).toEqual(view(venues[2] as Venue, level));
        }
      }
    },
  );

  it.each(SECURED)(
    '$prefix: 401 with a credential nobody configured',
    async ({ prefix, alternatives }) => {
      const [first] = alternatives;
      const parts = first.map((scheme) =>
        carry(scheme, scheme === 'basicAuth' ? 'ana:not-her-password' : 'not-a-configured-key'),
      );
      const headers = Object.assign({}, ...parts.map((part) => part.headers)) as Record<
        string,
        string
      >;
      const query = parts
        .map((part) => part.query)
        .filter(Boolean)
        .join('&');
      expect((await get(`${prefix}/venues/1`, headers, query)).status).toBe(401);
    },
  );

  it('needs both credentials where the spec asks for both', async () => {
    const key = carry('venueKey', grantOf('venueKey', 'staff').token);
    expect((await get('/both/venues/1', key.headers)).status).toBe(401);
  });

  it('keeps a query credential out of the log', async () => {
    const secret = grantOf('queryKey', 'staff').token;
    expect((await get('/v2/venues/2', {}, `api_key=${secret}`)).status).toBe(200);
    await server.waitForLog(/GET \/v2\/venues\/2\?api_key=\[Redacted\] 200 staff/);
    expect(server.log()).not.toContain(secret);
  });
});

// A plain spec, as teams bring theirs: no declarations, no levels, answered from examples.
const PLAIN = `openapi: 3.0.3
info: { title: plain, version: '1' }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    key: { type: apiKey, in: header, name: X-Key }
paths:
  /things:
    get:
      security: [{ bearer: [] }]
      responses:
        '200': { description: ok, content: { application/json: { example: { ok: true } } } }
  /keyed:
    get:
      security: [{ key: [] }]
      responses:
        '200': { description: ok, content: { application/json: { example: { ok: true } } } }
`;

describe('credentials of a plain spec', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stockmock-plain-'));
    await writeFile(join(dir, 'openapi.yaml'), PLAIN);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function status(plain: ServeProcess, path: string, headers: Record<string, string>) {
    return (await fetch(new URL(path, plain.url), { headers })).status;
  }

  it("takes any credential of the scheme's form while none is configured, as prism mock does", async () => {
    const plain = await spawnServe(['--spec', join(dir, 'openapi.yaml')]);
    try {
      expect(await status(plain, '/things', { authorization: 'Bearer my-own-dev-token' })).toBe(
        200,
      );
      expect(await status(plain, '/things', {})).toBe(401);
      expect(await status(plain, '/things', { authorization: 'Basic dTpw' })).toBe(401);
      expect(await status(plain, '/keyed', { 'x-key': 'anything' })).toBe(200);
      expect(await status(plain, '/keyed', {})).toBe(401);
    } finally {
      await plain.stop();
    }
  });

  it('checks exactly the schemes that have credentials configured', async () => {
    const plain = await spawnServe(['--spec', join(dir, 'openapi.yaml')], undefined, {
      STOCKMOCK_TOKENS: 'user=team-token',
    });
    try {
      expect(await status(plain, '/things', { authorization: 'Bearer team-token' })).toBe(200);
      expect(await status(plain, '/things', { authorization: 'Bearer my-own-dev-token' })).toBe(
        401,
      );
      expect(await status(plain, '/keyed', { 'x-key': 'team-token' })).toBe(200);
      expect(await status(plain, '/keyed', { 'x-key': 'anything' })).toBe(401);
    } finally {
      await plain.stop();
    }
  });
});
