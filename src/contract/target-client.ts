/** @module HTTP to the target under test: timeouts, bounded concurrency, every exchange recorded. */
import { SAFE_METHODS } from './spec-methods.ts';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { RecordedResponse } from '../spec/response-validator.ts';
import { jsonNestsDeeperThan } from '../util/json-depth.ts';
import { BEARER, type CredentialPlace, type PlaceOf } from './credential-places.ts';
import {
  createRunBudget,
  DEFAULT_RUN_LIMITS,
  MAX_ANSWER_DEPTH,
  MAX_BODY_BYTES,
  type RunBudget,
  type RunLimits,
} from './run-limits.ts';

/** The interface's two access levels, as the checker is given tokens for them. */
export const TOKEN_LEVELS = ['status', 'quantity'] as const;
export type TokenLevel = (typeof TOKEN_LEVELS)[number];

/** A level that a spec's views declare beyond the interface's two (`public`, `staff`). */
export interface ViewLevel {
  readonly view: string;
}

/** Whose token a request carries: one of the interface's levels, or a declared one. */
export type Holder = TokenLevel | ViewLevel;

/** Which credentials a request carries: a given level, none, or a token no server knows. */
export type Credentials = Holder | 'none' | 'wrong';

/** The level's name, as `--token NAME=…` gave it and as reports say it. */
export function levelName(holder: Holder): string {
  return typeof holder === 'string' ? holder : holder.view;
}

/** The holder of a level a spec names: the interface's own where the name is one of its two. */
export function holderOf(name: string): Holder {
  return (TOKEN_LEVELS as readonly string[]).includes(name) ? (name as TokenLevel) : { view: name };
}

export interface TargetRequest {
  readonly method?: string;
  /** Path and query, or an absolute URL (a link the target gave). */
  readonly path: string;
  readonly as: Credentials;
  readonly headers?: Readonly<Record<string, string>>;
  /** How the credentials are written before the token: `Bearer ` unless told (`bearer  `). */
  readonly scheme?: string;
  /** The token changed before it is sent (a prefix, another case), said in words in reports. */
  readonly alter?: TokenChange;
  /**
   * Header names in lower or upper case (`authorization`, `AUTHORIZATION`) instead of the usual
   * `Authorization`: names are case-insensitive (RFC 9110 §5.1).
   */
  readonly headerCase?: HeaderCase;
  /** A request body (sent only for a write, under `--writes`). */
  readonly body?: string;
  /** Where the operation asks for several credentials at once: the one left out, by index. */
  readonly withoutPlace?: number;
}

export type HeaderCase = 'lower' | 'upper';

/** A change to a real token, to see that only the token itself is accepted. */
export interface TokenChange {
  /** What a report says instead of the token: `the status token with an X appended`. */
  readonly described: string;
  readonly apply: (token: string) => string;
}

/** One request and what came of it. The token is never part of it: `as` names the level. */
export type Exchange = Sent &
  (
    | {
        readonly kind: 'response';
        readonly response: RecordedResponse;
        /** The content's length in bytes, as sent (before any content coding is undone). */
        readonly bytes: number;
      }
    | { readonly kind: 'no-response'; readonly reason: string }
  );

/** What was sent, less the token. */
export interface Sent {
  readonly method: string;
  readonly url: string;
  readonly as: Credentials;
  /** Headers sent beyond `Accept: application/json` and the credentials. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The credentials' scheme and spacing, where not `Bearer `. */
  readonly scheme?: string;
  /** How the token was changed, in words. */
  readonly altered?: string;
  /** How the header names were written, where not as usual. */
  readonly headerCase?: HeaderCase;
  /**
   * The HTTP authentication scheme a 401 to this request must challenge with (`bearer`,
   * `basic`), as the spec secures its operation; undefined for an API key, which has none.
   */
  readonly challenge?: string;
}

export interface TargetClient {
  readonly origin: string;
  readonly timeoutMs: number;
  /**
   * Sends a request, unless its URL is off the target's origin (a link the target gave) or the
   * run has stopped: then nothing is sent, and the exchange says why.
   */
  request(request: TargetRequest): Promise<Exchange>;
  /** Whether a URL may be requested: only the target's origin, or one trusted, gets a token. */
  reaches(url: string): boolean;
  /** Why the run stopped before its end (deadline, budget, a target given up); else undefined. */
  stopped(): string | undefined;
  /**
   * A request as it would be sent, for a bare-socket request: `url` as reports name it, `via` as requested (an API key
   * the spec puts in the query added), and the headers, credentials included.
   */
  prepare(request: TargetRequest): {
    url: string;
    via: string;
    headers: Record<string, string>;
    challenge?: string;
    /** Where the spec puts the credentials of the operation at that path. */
    places: readonly CredentialPlace[];
  };
}

export interface TargetClientOptions {
  readonly baseUrl: string;
  /** Tokens by level name: `status`, `quantity`, or a level the spec's views declare. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Called with every exchange, for conformance and counting (not with requests never sent). */
  readonly onExchange?: (exchange: Exchange) => void;
  /** Origins beyond the target's that links may lead to and tokens may go to (`--trust-origin`). */
  readonly trustedOrigins?: readonly string[];
  /** What the run may cost; default DEFAULT_RUN_LIMITS. */
  readonly limits?: RunLimits;
  /**
   * The methods the spec declares at a path below the base URL: a write among them (POST, PUT,
   * PATCH, DELETE, …) is never sent, as it could change the data of the service checked; with
   * `writes`, it is (`--writes`, for a stand-in or a service whose data may change).
   */
  readonly declaredAt?: (path: string) => ReadonlySet<string>;
  readonly writes?: boolean;
  /** At most this many requests a second, all levels together; 0 or absent: unpaced. */
  readonly rate?: number;
  /**
   * How often a 429 or 503 is asked again, after its `Retry-After` (or 1, 2, 4… s without one);
   * absent: never, as the checker judges those answers as they come.
   */
  readonly retries?: number;
  /**
   * Where a request's token goes, by its method and path (credential-places.ts): the
   * `Authorization` header as a bearer token unless the spec secures the operation otherwise.
   */
  readonly placeOf?: PlaceOf;
}

/** The longest `Retry-After` waited for: a longer one is taken as the answer it came with. */
export const MAX_RETRY_WAIT_MS = 60_000;

/** A token that no real configuration would hold, to provoke an invalid_token answer. */
const WRONG_TOKEN = 'stockmock-contract-deliberately-wrong-token';

export function createTargetClient(options: TargetClientOptions): TargetClient {
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  const declaredAt = options.declaredAt ?? (() => new Set<string>());
  const limit = createLimiter(options.concurrency);
  const paced = createPacer(options.rate ?? 0);
  const budget = createRunBudget(options.limits ?? DEFAULT_RUN_LIMITS);
  const origins = new Set([base.origin, ...(options.trustedOrigins ?? []).map(originOf)]);
  origins.delete('null');
  const reaches = (url: string) => origins.has(originOf(url));
  const placeOf = options.placeOf ?? (() => [BEARER]);
  // HTTP basic's wrong credential: a user the target knows, with a password it never issued.
  const knownUser = Object.values(options.tokens).find((token) => token.includes(':'));
  const wrongPassword = `${knownUser?.split(':', 1)[0] ?? 'stockmock-contract'}:${WRONG_TOKEN}`;
  const prepare = (request: TargetRequest) => {
    const url = request.path.startsWith('http')
      ? request.path
      : new URL(request.path.replace(/^\//, ''), base).toString();
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    const given = tokenFor(request.as, options.tokens);
    const token =
      given === undefined || request.alter === undefined ? given : request.alter.apply(given);
    const places = placeOf(request.method ?? 'GET', pathBelow(base, url));
    const challenge = places.find((place) => place.kind === 'authorization')?.scheme;
    // The URL as sent: with an API key in the query, which the recorded URL never holds.
    let via = url;
    if (token !== undefined) {
      for (const [index, place] of places.entries()) {
        if (index === request.withoutPlace) continue;
        if (place.kind === 'authorization') {
          headers['authorization'] =
            place.scheme === 'bearer'
              ? `${request.scheme ?? 'Bearer '}${token}`
              : place.scheme === 'basic'
                ? `Basic ${Buffer.from(request.as === 'wrong' ? wrongPassword : token).toString('base64')}`
                : `${place.scheme.charAt(0).toUpperCase()}${place.scheme.slice(1)} ${token}`;
        } else if (place.in === 'header') {
          headers[place.name.toLowerCase()] = token;
        } else if (place.in === 'cookie') {
          headers['cookie'] = `${place.name}=${token}`;
        } else {
          const sent = new URL(via);
          sent.searchParams.append(place.name, token);
          via = sent.toString();
        }
      }
    }
    return { url, headers, via, places, ...(challenge === undefined ? {} : { challenge }) };
  };
  return {
    origin: base.origin,
    timeoutMs: options.timeoutMs,
    prepare,
    reaches,
    stopped: budget.stopped,
    request: (request) =>
      limit(async () => {
        const method = request.method ?? 'GET';
        const { url, headers, via, challenge, places } = prepare(request);
        const sent: Sent = {
          method,
          url,
          ...(challenge === undefined ? {} : { challenge }),
          as: request.as,
          ...(request.headers === undefined ? {} : { headers: request.headers }),
          ...(request.scheme === undefined ? {} : { scheme: request.scheme }),
          ...(request.alter === undefined ? {} : { altered: request.alter.described }),
          ...(request.headerCase === undefined ? {} : { headerCase: request.headerCase }),
          ...(request.withoutPlace === undefined
            ? {}
            : { altered: `without its ${describePlace(places[request.withoutPlace])}` }),
        };
        // Checked here, not only by the walks: no path through the checks may carry a token off.
        if (!reaches(url)) {
          const reason = `not requested: ${url} is off the target's origin ${base.origin}, and only the target's origin gets a token`;
          return { ...sent, kind: 'no-response', reason };
        }
        // And no check may send a write the service takes: the checker only reads.
        if (
          options.writes !== true &&
          !SAFE_METHODS.has(method) &&
          declaredAt(pathBelow(base, url)).has(method)
        ) {
          const reason = `not requested: the spec declares ${method} here, and the checker sends nothing that may change the service's data`;
          return { ...sent, kind: 'no-response', reason };
        }
        const stopped = budget.take(url);
        if (stopped !== undefined) {
          return {
            ...sent,
            kind: 'no-response',
            reason: `not requested: the run stopped: ${stopped}`,
          };
        }
        for (let attempt = 0; ; attempt++) {
          await paced();
          const exchange = await send(sent, via, headers, options.timeoutMs, budget, request.body);
          options.onExchange?.(exchange);
          const wait = attempt < (options.retries ?? 0) ? retryWait(exchange, attempt) : undefined;
          if (wait === undefined) return exchange;
          await sleep(wait);
          const again = budget.take(url);
          if (again !== undefined) return exchange;
        }
      }),
  };
}

/**
 * How long to wait before asking again after a 429 or 503: its `Retry-After` (seconds or an
 * HTTP date), else 1, 2, 4… s; undefined for any other answer, or a wait past MAX_RETRY_WAIT_MS.
 */
export function retryWait(
  exchange: Exchange,
  attempt: number,
  now = Date.now(),
): number | undefined {
  if (exchange.kind !== 'response') return undefined;
  const { status, headers } = exchange.response;
  if (status !== 429 && status !== 503) return undefined;
  const given = headers['retry-after']?.trim();
  let wait = 1000 * 2 ** attempt;
  if (given !== undefined && /^\d+$/.test(given)) wait = Number(given) * 1000;
  // An HTTP date (RFC 9110 §5.6.7) ends in GMT; Date.parse would take `1.5` for a date too.
  else if (given !== undefined && /GMT$/i.test(given) && !Number.isNaN(Date.parse(given)))
    wait = Math.max(0, Date.parse(given) - now);
  return wait <= MAX_RETRY_WAIT_MS ? wait : undefined;
}

/** Waits so that requests start at most `rate` a second, evenly spaced; 0: no wait. */
function createPacer(rate: number): () => Promise<void> {
  if (rate <= 0) return () => Promise.resolve();
  const interval = 1000 / rate;
  let next = 0;
  return async () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await sleep(at - now);
  };
}

/** The origin of a URL, `null` for one that is not a URL or has none (`file:`, `data:`). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

function tokenFor(as: Credentials, tokens: Readonly<Record<string, string>>): string | undefined {
  if (as === 'none') return undefined;
  if (as === 'wrong') return WRONG_TOKEN;
  return Object.hasOwn(tokens, levelName(as)) ? tokens[levelName(as)] : undefined;
}

/**
 * One request over node:http(s), not fetch: the WHATWG fetch standard refuses "bad ports" (1,
 * 6000, 6665–6669, 10080, …) before sending anything, and a service listening on one of them
 * must still be checkable. A body in a content coding the target chose anyway is decoded, to
 * no more than MAX_BODY_BYTES: a larger answer, raw or decoded, stops the run.
 */
function send(
  sent: Sent,
  /** The URL to request: `sent.url`, with an API key in its query where the spec puts one. */
  via: string,
  headers: Record<string, string>,
  timeoutMs: number,
  budget: RunBudget,
  body?: string,
): Promise<Exchange> {
  return new Promise((resolve) => {
    const url = new URL(via);
    const noResponse = (reason: string) => {
      clearTimeout(timer);
      resolve({ ...sent, kind: 'no-response', reason });
    };
    const tooLarge = (how: string) => {
      const reason = `the answer of ${sent.method} ${sent.url} is larger than ${String(MAX_BODY_BYTES)} bytes ${how}`;
      budget.stop(reason);
      noResponse(reason);
    };
    const timer = setTimeout(() => {
      request.destroy();
      budget.answered(sent.url, 'timed-out');
      noResponse(`no answer within ${String(timeoutMs)} ms`);
    }, timeoutMs);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: sent.method,
        headers: Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [spelled(name, sent.headerCase), value]),
        ),
        agent: url.protocol === 'https:' ? HTTPS_AGENT : HTTP_AGENT,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES) chunks.push(chunk);
          else if (!request.destroyed) {
            request.destroy();
            tooLarge('as sent');
          }
        });
        response.on('end', () => {
          const raw = Buffer.concat(chunks);
          budget.answered(sent.url, { bytes: raw.length });
          const text = decode(raw, response.headers['content-encoding']);
          if (text === TOO_LARGE) {
            tooLarge('once decoded');
            return;
          }
          if (isJson(response) && jsonNestsDeeperThan(text, MAX_ANSWER_DEPTH)) {
            const reason = `the answer of ${sent.method} ${sent.url} nests deeper than ${String(MAX_ANSWER_DEPTH)} levels`;
            budget.stop(reason);
            noResponse(reason);
            return;
          }
          clearTimeout(timer);
          const recorded = recordedResponse(response, text);
          resolve({ ...sent, kind: 'response', response: recorded, bytes: raw.length });
        });
        response.on('error', (error) => {
          noResponse(describeRequestError(error));
        });
      },
    );
    request.on('error', (error) => {
      // A connection that broke its answer is not reused, nor left open.
      request.socket?.destroy();
      request.destroy();
      noResponse(describeRequestError(error));
    });
    request.end(body);
  });
}

/**
 * A header name as sent: as clients usually write it (`Authorization`, `Access-Control-Request-
 * Method`), so that a server reading exact names is met as curl and browsers meet it; or all in
 * one case, where a check asks for it.
 */
function spelled(name: string, headerCase: HeaderCase | undefined): string {
  if (headerCase === 'lower') return name.toLowerCase();
  if (headerCase === 'upper') return name.toUpperCase();
  return name
    .toLowerCase()
    .replaceAll(
      /(^|-)([a-z])/g,
      (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`,
    );
}

/** Kept-alive connections, as fetch keeps them: a run makes thousands of requests. */
const HTTP_AGENT = new HttpAgent({ keepAlive: true });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true });

function isJson(response: IncomingMessage): boolean {
  return /[/+]json\b/i.test(response.headers['content-type'] ?? '');
}

function recordedResponse(response: IncomingMessage, text: string): RecordedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  let body: unknown = text === '' ? undefined : text;
  if (text !== '' && isJson(response)) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Left as text: the spec check reports a body that is not the JSON it claims to be.
    }
  }
  return { status: response.statusCode ?? 0, headers, body };
}

const TOO_LARGE = Symbol('too large');

/**
 * The body as text, its content coding undone; as it came when the coding is unknown or broken.
 * Decoding stops at MAX_BODY_BYTES: a small body may inflate to gigabytes.
 */
function decode(raw: Buffer, coding: string | undefined): string | typeof TOO_LARGE {
  const limit = { maxOutputLength: MAX_BODY_BYTES };
  let decoded = raw;
  try {
    switch (coding?.trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        decoded = gunzipSync(raw, limit);
        break;
      case 'deflate':
        decoded = inflateSync(raw, limit);
        break;
      case 'br':
        decoded = brotliDecompressSync(raw, limit);
        break;
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return TOO_LARGE;
  }
  return decoded.toString('utf8');
}

/** Why a request got no answer, in words: the reason a run cannot go on, when it is the first. */
export function describeRequestError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code === 'ECONNREFUSED') return 'connection failed (ECONNREFUSED: connection refused)';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return `connection failed (${code}: no such host)`;
    if (code === 'ECONNRESET') return 'connection failed (ECONNRESET: the connection was reset)';
    if (code.startsWith('HPE_')) return `not an HTTP answer (${code})`;
    if (/TLS|CERT|SSL/.test(code)) return `connection failed (TLS: ${code})`;
    return `connection failed (${code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * At most `concurrency` requests in flight. Eight lines do not justify a dependency (p-limit
 * would do the same).
 */
function createLimiter(concurrency: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

/** A URL's path below the base URL's (`https://host/api/` + `/api/v1/x` → `/v1/x`). */
function pathBelow(base: URL, url: string): string {
  const { pathname } = new URL(url);
  const prefix = base.pathname.replace(/\/$/, '');
  return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : pathname;
}

/** A credential's place, in a report's words. */
function describePlace(place: CredentialPlace | undefined): string {
  if (place === undefined) return 'credential';
  if (place.kind === 'authorization') return `Authorization (${place.scheme})`;
  return place.in === 'header'
    ? `${place.name} header`
    : place.in === 'query'
      ? `${place.name} query parameter`
      : `${place.name} cookie`;
}
