/**
 * @module Services of the venues example (examples/venues/openapi.yaml) for the contract checker
 * to judge: two correct ones that decide differently where the spec is open, and broken ones,
 * each one change from the correct one, all in the credentials. Written from the spec and the
 * docs alone (docs/contract-checker.md, docs/serve-your-own-spec.md "Credentials"), without
 * reading src/ or the checker's tests.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const root = fileURLToPath(new URL('../../', import.meta.url));

/** The services that break the credentials, each one change from the correct one. */
export const BROKEN_VARIANTS = [
  /** /v1 serves the public view to a request without X-API-Key. */
  'v1-no-key-check',
  /** /v1 takes any non-empty X-API-Key it does not know, at the public level. */
  'v1-any-key',
  /** /v2 never reads api_key: everyone gets the staff view. */
  'v2-key-ignored',
  /** /basic takes a known user name with any password. */
  'basic-unchecked-password',
  /** /basic refuses with a 401 that has no WWW-Authenticate. */
  'basic-no-challenge',
  /** /basic refuses with a Bearer challenge instead of a Basic one. */
  'basic-bearer-challenge',
  /** /both takes X-API-Key alone: the session cookie is never read. */
  'both-cookie-ignored',
  /** The staff key on /v1 gets the public view. */
  'wrong-level',
  /**
   * Our own: X-API-Key compared only over the length of the key given (a truncated compare), so
   * any non-empty prefix of a known key passes at that key's level.
   */
  'key-prefix-accepted',
  /**
   * Our own: answers to credentialed requests say `Cache-Control: public, max-age=300` with no
   * Vary, so a shared cache hands one credential's view (staff's capacity) to another.
   */
  'shared-cache',
  /** Our own: /either's 401 challenges only for the API key, never with Bearer. */
  'either-no-bearer-challenge',
] as const;

export type BrokenVariant = (typeof BROKEN_VARIANTS)[number];
export type VariantName = BrokenVariant | 'correct-alt';

type Level = 'public' | 'staff';
type Prefix = 'v1' | 'v2' | 'basic' | 'either' | 'both';

interface Venue {
  readonly id: number;
  readonly name: string;
  readonly city: string;
  readonly capacity: number;
}

/** One credential per level, the same for every scheme (basic's is user:password). */
const CREDENTIALS: ReadonlyMap<string, Level> = new Map([
  ['pat:public-pass', 'public'],
  ['sam:staff-pass', 'staff'],
]);

const LEVEL_RANK: Readonly<Record<Level, number>> = { public: 0, staff: 1 };

type Auth =
  | { readonly ok: true; readonly level: Level }
  | { readonly ok: false; readonly challenges: readonly string[] };

async function loadVenues(): Promise<readonly Venue[]> {
  const text = await readFile(`${root}examples/venues/venues.yaml`, 'utf8');
  const data = parse(text) as { venues: Venue[] };
  return [...data.venues].sort((a, b) => a.id - b.id);
}

/** Whether an Accept header admits application/json (RFC 9110 §12.5.1, most specific range wins). */
function admitsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let best = -1;
  let bestQ = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (range === '') continue;
    const [type = '', subtype = ''] = range.toLowerCase().split('/');
    let specificity: number;
    if (type === 'application' && subtype === 'json') specificity = 2;
    else if (type === 'application' && subtype === '*') specificity = 1;
    else if (type === '*' && subtype === '*') specificity = 0;
    else continue;
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq > 0 && param.slice(0, eq).trim().toLowerCase() === 'q') {
        const value = Number(param.slice(eq + 1).trim());
        q = Number.isFinite(value) ? value : 0;
      }
    }
    if (specificity > best || (specificity === best && q > bestQ)) {
      best = specificity;
      bestQ = q;
    }
  }
  return best >= 0 && bestQ > 0;
}

/** The cookie's value by name, or undefined. */
function cookie(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1);
    return value;
  }
  return undefined;
}

/** The Authorization header split into its scheme (lower case) and the rest, trimmed. */
function authorization(request: IncomingMessage): { scheme: string; rest: string } | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]+(.*))?$/s.exec(header.trim());
  if (!match) return { scheme: '', rest: header };
  return { scheme: (match[1] ?? '').toLowerCase(), rest: (match[2] ?? '').trim() };
}

/** Starts one service of the venues spec on 127.0.0.1 and a free port. */
export async function startVenuesServer(
  variant: VariantName | 'correct',
): Promise<{ url: string; close(): Promise<void> }> {
  const venues = await loadVenues();
  const alt = variant === 'correct-alt';
  const realm = alt ? 'Venues API' : 'venues';
  let origin = '';

  const send = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    type: string,
    body: string,
    headers: Record<string, string | readonly string[]> = {},
  ): void => {
    const cacheHeaders: Record<string, string> =
      variant === 'shared-cache' && status === 200
        ? { 'cache-control': 'public, max-age=300' }
        : alt
          ? { 'cache-control': 'private, max-age=0', vary: 'Authorization, X-API-Key, Cookie' }
          : { 'cache-control': 'no-store' };
    response.writeHead(status, {
      ...cacheHeaders,
      ...headers,
      'content-type': type,
      'content-length': String(Buffer.byteLength(body)),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };

  const problem = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    title: string,
    detail: string,
    headers: Record<string, string | readonly string[]> = {},
  ): void => {
    const slug = title.toLowerCase().replaceAll(' ', '-');
    const type = alt ? `/problems/${slug}` : `https://venues.example/problems/${slug}`;
    send(
      request,
      response,
      status,
      'application/problem+json',
      JSON.stringify({ type, title, status, detail }),
      headers,
    );
  };

  const bearerChallenge = (given: boolean): string =>
    given ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`;
  const basicChallenge = (): string[] => {
    if (variant === 'basic-no-challenge') return [];
    if (variant === 'basic-bearer-challenge') return [`Bearer realm="${realm}"`];
    return [alt ? `Basic realm="${realm}", charset="UTF-8"` : `Basic realm="${realm}"`];
  };
  const apiKeyChallenge = (place: string, name: string): string[] =>
    alt ? [] : [`ApiKey realm="${realm}", in="${place}", name="${name}"`];

  /** The level of a key, compared exactly (or, broken, over the length given). */
  const keyLevel = (given: string | undefined): Level | undefined => {
    if (given === undefined) return undefined;
    const level = CREDENTIALS.get(given);
    if (level !== undefined) return level;
    if (variant === 'key-prefix-accepted' && given !== '') {
      for (const [token, tokenLevel] of CREDENTIALS) if (token.startsWith(given)) return tokenLevel;
    }
    return undefined;
  };

  const headerKey = (request: IncomingMessage): string | undefined => {
    const value = request.headers['x-api-key'];
    return Array.isArray(value) ? value.join(', ') : value;
  };

  const bearer = (request: IncomingMessage): { given: boolean; level: Level | undefined } => {
    const auth = authorization(request);
    if (auth?.scheme !== 'bearer' || auth.rest === '') return { given: false, level: undefined };
    return { given: true, level: CREDENTIALS.get(auth.rest) };
  };

  const basic = (request: IncomingMessage): Level | undefined => {
    const auth = authorization(request);
    if (auth?.scheme !== 'basic' || !/^[A-Za-z0-9+/]+={0,2}$/.test(auth.rest)) return undefined;
    const decoded = Buffer.from(auth.rest, 'base64').toString('utf8');
    const level = CREDENTIALS.get(decoded);
    if (level !== undefined) return level;
    if (variant === 'basic-unchecked-password') {
      const user = decoded.split(':')[0];
      for (const [token, tokenLevel] of CREDENTIALS) {
        if (decoded.includes(':') && token.split(':')[0] === user) return tokenLevel;
      }
    }
    return undefined;
  };

  const authenticate = (prefix: Prefix, request: IncomingMessage, url: URL): Auth => {
    switch (prefix) {
      case 'v1': {
        const given = headerKey(request);
        let level = keyLevel(given);
        if (level === undefined && variant === 'v1-no-key-check' && given === undefined) {
          level = 'public';
        }
        if (
          level === undefined &&
          variant === 'v1-any-key' &&
          given !== undefined &&
          given !== ''
        ) {
          level = 'public';
        }
        if (level === 'staff' && variant === 'wrong-level') level = 'public';
        return level === undefined
          ? { ok: false, challenges: apiKeyChallenge('header', 'X-API-Key') }
          : { ok: true, level };
      }
      case 'v2': {
        if (variant === 'v2-key-ignored') return { ok: true, level: 'staff' };
        const values = url.searchParams.getAll('api_key');
        const level = values.length === 1 ? CREDENTIALS.get(values[0] ?? '') : undefined;
        return level === undefined
          ? { ok: false, challenges: apiKeyChallenge('query', 'api_key') }
          : { ok: true, level };
      }
      case 'basic': {
        const level = basic(request);
        return level === undefined
          ? { ok: false, challenges: basicChallenge() }
          : { ok: true, level };
      }
      case 'either': {
        const token = bearer(request);
        if (token.level !== undefined) return { ok: true, level: token.level };
        const level = keyLevel(headerKey(request));
        if (level !== undefined) return { ok: true, level };
        const challenges =
          variant === 'either-no-bearer-challenge'
            ? apiKeyChallenge('header', 'X-API-Key')
            : [bearerChallenge(token.given), ...apiKeyChallenge('header', 'X-API-Key')];
        return { ok: false, challenges };
      }
      case 'both': {
        const keyLevelGiven = keyLevel(headerKey(request));
        const sessionLevel =
          variant === 'both-cookie-ignored'
            ? keyLevelGiven
            : CREDENTIALS.get(cookie(request, 'session') ?? '');
        if (
          keyLevelGiven === undefined ||
          sessionLevel === undefined ||
          (alt && keyLevelGiven !== sessionLevel)
        ) {
          return {
            ok: false,
            challenges: [
              ...apiKeyChallenge('header', 'X-API-Key'),
              ...apiKeyChallenge('cookie', 'session'),
            ],
          };
        }
        const level =
          LEVEL_RANK[keyLevelGiven] <= LEVEL_RANK[sessionLevel] ? keyLevelGiven : sessionLevel;
        return { ok: true, level };
      }
    }
  };

  const view = (venue: Venue, level: Level): Record<string, unknown> =>
    level === 'staff'
      ? { id: venue.id, name: venue.name, city: venue.city, capacity: venue.capacity }
      : { id: venue.id, name: venue.name, city: venue.city };

  /** An integer query value in [min, max], or an error message. */
  const integer = (value: string, min: number, max: number): number | string => {
    if (!/^[0-9]+$/.test(value)) return `must be an integer, got "${value}"`;
    const number = Number(value);
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      return `must be between ${min} and ${max}, got ${value}`;
    }
    return number;
  };

  const listLink = (
    prefix: Prefix,
    city: string | undefined,
    limit: number,
    limitGiven: boolean,
    page: number,
  ): string => {
    const parts: string[] = [];
    if (alt) {
      if (city !== undefined) parts.push(`city=${encodeURIComponent(city)}`);
      if (limitGiven) parts.push(`limit=${limit}`);
      parts.push(`page=${page}`);
      return `${origin}/${prefix}/venues?${parts.join('&')}`;
    }
    const params = new URLSearchParams();
    if (city !== undefined) params.set('city', city);
    params.set('limit', String(limit));
    params.set('page', String(page));
    return `${origin}/${prefix}/venues?${params.toString()}`;
  };

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', origin);
    const route = /^\/(v1|v2|basic|either|both)\/venues(?:\/([^/]*))?$/.exec(url.pathname);
    if (!route) {
      problem(request, response, 404, 'Not Found', `No resource at ${url.pathname}.`);
      return;
    }
    const prefix = route[1] as Prefix;
    const rawId = route[2];
    const method = request.method ?? 'GET';
    const allow = alt ? 'GET, HEAD, OPTIONS' : 'GET, HEAD';
    if (alt && method === 'OPTIONS') {
      const cors: Record<string, string> =
        request.headers.origin === undefined
          ? {}
          : {
              'access-control-allow-origin': request.headers.origin,
              'access-control-allow-methods': 'GET, HEAD',
              'access-control-allow-headers': 'Authorization, X-API-Key',
            };
      response.writeHead(204, { allow, ...cors });
      response.end();
      return;
    }
    const notAllowed = method !== 'GET' && method !== 'HEAD';
    if (notAllowed && !alt) {
      problem(request, response, 405, 'Method Not Allowed', `${method} is not allowed here.`, {
        allow,
      });
      return;
    }
    const auth = authenticate(prefix, request, url);
    if (!auth.ok) {
      const headers: Record<string, readonly string[]> =
        auth.challenges.length === 0 ? {} : { 'www-authenticate': auth.challenges };
      problem(
        request,
        response,
        401,
        'Unauthorized',
        'A known credential is required for this resource.',
        headers,
      );
      return;
    }
    if (notAllowed) {
      problem(request, response, 405, 'Method Not Allowed', `${method} is not allowed here.`, {
        allow,
      });
      return;
    }
    if (!alt && !admitsJson(request.headers.accept)) {
      problem(
        request,
        response,
        406,
        'Not Acceptable',
        'This resource is served as application/json only.',
      );
      return;
    }
    const jsonType = alt ? 'application/json; charset=utf-8' : 'application/json';

    // Query parameters: each known one at most once; unknown ones refused (alt: ignored).
    const known = new Set(rawId === undefined ? ['city', 'limit', 'page'] : []);
    if (prefix === 'v2') known.add('api_key');
    const errors: string[] = [];
    const seen = new Set<string>();
    for (const name of url.searchParams.keys()) {
      if (!known.has(name)) {
        if (!alt) errors.push(`unknown query parameter "${name}"`);
        continue;
      }
      if (seen.has(name)) errors.push(`"${name}" given more than once`);
      seen.add(name);
    }

    if (rawId !== undefined) {
      if (errors.length > 0) {
        problem(request, response, 400, 'Bad Request', [...new Set(errors)].join('; '));
        return;
      }
      let id: string;
      try {
        id = decodeURIComponent(rawId);
      } catch {
        problem(request, response, 400, 'Bad Request', 'The id is not a valid percent-encoding.');
        return;
      }
      const parsed = integer(id, 1, Number.MAX_SAFE_INTEGER);
      if (typeof parsed === 'string' || (alt && id.startsWith('0'))) {
        if (alt && !/^[0-9]+$/.test(id)) {
          problem(request, response, 404, 'Not Found', `No venue with id "${id}".`);
        } else {
          problem(
            request,
            response,
            400,
            'Bad Request',
            `id ${typeof parsed === 'string' ? parsed : 'must not have leading zeros'}.`,
          );
        }
        return;
      }
      const venue = venues.find((candidate) => candidate.id === parsed);
      if (venue === undefined) {
        problem(request, response, 404, 'Not Found', `No venue with id ${parsed}.`);
        return;
      }
      send(request, response, 200, jsonType, JSON.stringify({ data: view(venue, auth.level) }));
      return;
    }

    const city = url.searchParams.get('city') ?? undefined;
    const limitText = url.searchParams.get('limit');
    const pageText = url.searchParams.get('page');
    let limit = 10;
    let page = 1;
    if (limitText !== null) {
      const parsed = integer(limitText, 1, 100);
      if (typeof parsed === 'string') errors.push(`limit ${parsed}`);
      else limit = parsed;
    }
    if (pageText !== null) {
      const parsed = integer(pageText, 1, Number.MAX_SAFE_INTEGER);
      if (typeof parsed === 'string') errors.push(`page ${parsed}`);
      else page = parsed;
    }
    if (errors.length > 0) {
      problem(request, response, 400, 'Bad Request', [...new Set(errors)].join('; '));
      return;
    }
    const matching = venues.filter((venue) => city === undefined || venue.city === city);
    const pages = Math.max(1, Math.ceil(matching.length / limit));
    // A page past the end is a 400 here: the lists declare 400 and no 404, so a 404 would be an
    // answer the spec does not declare.
    if (alt && page > pages) {
      problem(
        request,
        response,
        400,
        'Bad Request',
        `Page ${page} is past the last page, ${pages}.`,
      );
      return;
    }
    const link = (n: number): string => listLink(prefix, city, limit, limitText !== null, n);
    const start = (page - 1) * limit;
    const body = {
      data: matching.slice(start, start + limit).map((venue) => view(venue, auth.level)),
      links: {
        first: link(1),
        last: link(pages),
        prev: page > 1 ? link(Math.min(page - 1, pages)) : null,
        next: page < pages ? link(page + 1) : null,
      },
    };
    send(request, response, 200, jsonType, JSON.stringify(body));
  };

  const server = createServer((request, response) => {
    try {
      handle(request, response);
    } catch (error) {
      if (!response.headersSent)
        problem(request, response, 500, 'Internal Server Error', String(error));
      else response.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
