/** @module HTTP to the target under test: timeouts, bounded concurrency, every exchange recorded. */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { RecordedResponse } from '../spec/response-validator.ts';

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
}

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
}

export interface TargetClient {
  readonly origin: string;
  readonly timeoutMs: number;
  request(request: TargetRequest): Promise<Exchange>;
  /** The URL and headers `request` would send, token included: for a bare-socket request. */
  prepare(request: TargetRequest): { url: string; headers: Record<string, string> };
}

export interface TargetClientOptions {
  readonly baseUrl: string;
  /** Tokens by level name: `status`, `quantity`, or a level the spec's views declare. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Called with every exchange, for conformance and counting. */
  readonly onExchange?: (exchange: Exchange) => void;
}

/** A token that no real configuration would hold, to provoke an invalid_token answer. */
const WRONG_TOKEN = 'stockmock-contract-deliberately-wrong-token';

export function createTargetClient(options: TargetClientOptions): TargetClient {
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  const limit = createLimiter(options.concurrency);
  const prepare = (request: TargetRequest) => {
    const url = request.path.startsWith('http')
      ? request.path
      : new URL(request.path.replace(/^\//, ''), base).toString();
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    const given = tokenFor(request.as, options.tokens);
    const token =
      given === undefined || request.alter === undefined ? given : request.alter.apply(given);
    if (token !== undefined) headers['authorization'] = `${request.scheme ?? 'Bearer '}${token}`;
    return { url, headers };
  };
  return {
    origin: base.origin,
    timeoutMs: options.timeoutMs,
    prepare,
    request: (request) =>
      limit(async () => {
        const method = request.method ?? 'GET';
        const { url, headers } = prepare(request);
        const sent: Sent = {
          method,
          url,
          as: request.as,
          ...(request.headers === undefined ? {} : { headers: request.headers }),
          ...(request.scheme === undefined ? {} : { scheme: request.scheme }),
          ...(request.alter === undefined ? {} : { altered: request.alter.described }),
        };
        const exchange = await send(sent, headers, options.timeoutMs);
        options.onExchange?.(exchange);
        return exchange;
      }),
  };
}

function tokenFor(as: Credentials, tokens: Readonly<Record<string, string>>): string | undefined {
  if (as === 'none') return undefined;
  if (as === 'wrong') return WRONG_TOKEN;
  return Object.hasOwn(tokens, levelName(as)) ? tokens[levelName(as)] : undefined;
}

/**
 * One request over node:http(s), not fetch: the WHATWG fetch standard refuses "bad ports" (1,
 * 6000, 6665–6669, 10080, …) before sending anything, and a service listening on one of them
 * must still be checkable. A body in a content coding the target chose anyway is decoded.
 */
function send(sent: Sent, headers: Record<string, string>, timeoutMs: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const url = new URL(sent.url);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: sent.method, headers, agent: url.protocol === 'https:' ? HTTPS_AGENT : HTTP_AGENT },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            request.destroy(new Error(`the answer is larger than ${String(MAX_BODY_BYTES)} bytes`));
          } else chunks.push(chunk);
        });
        response.on('end', () => {
          clearTimeout(timer);
          const raw = Buffer.concat(chunks);
          const recorded = recordedResponse(response, raw);
          resolve({ ...sent, kind: 'response', response: recorded, bytes: raw.length });
        });
        response.on('error', (error) => {
          clearTimeout(timer);
          resolve({ ...sent, kind: 'no-response', reason: describeRequestError(error) });
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      resolve({ ...sent, kind: 'no-response', reason: `no answer within ${String(timeoutMs)} ms` });
    }, timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      // A connection that broke its answer is not reused, nor left open.
      request.socket?.destroy();
      request.destroy();
      resolve({ ...sent, kind: 'no-response', reason: describeRequestError(error) });
    });
    request.end();
  });
}

/** Kept-alive connections, as fetch keeps them: a run makes thousands of requests. */
const HTTP_AGENT = new HttpAgent({ keepAlive: true });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true });

/** An answer larger than this is no stock API's: the request is abandoned. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

function recordedResponse(response: IncomingMessage, raw: Buffer): RecordedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const text = decode(raw, headers['content-encoding']).toString('utf8');
  const type = headers['content-type'] ?? '';
  let body: unknown = text === '' ? undefined : text;
  if (text !== '' && /[/+]json\b/i.test(type)) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Left as text: the spec check reports a body that is not the JSON it claims to be.
    }
  }
  return { status: response.statusCode ?? 0, headers, body };
}

/** The body in its content coding decoded; as it came when the coding is unknown or broken. */
function decode(raw: Buffer, coding: string | undefined): Buffer {
  try {
    switch (coding?.trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(raw);
      case 'deflate':
        return inflateSync(raw);
      case 'br':
        return brotliDecompressSync(raw);
      default:
        return raw;
    }
  } catch {
    return raw;
  }
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
