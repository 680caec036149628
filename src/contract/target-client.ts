/** @module HTTP to the target under test: timeouts, bounded concurrency, every exchange recorded. */
import type { RecordedResponse } from '../spec/response-validator.ts';

/** The interface's two access levels, as the checker is given tokens for them. */
export const TOKEN_LEVELS = ['status', 'quantity'] as const;
export type TokenLevel = (typeof TOKEN_LEVELS)[number];

/** Which credentials a request carries: a given level, none, or a token no server knows. */
export type Credentials = TokenLevel | 'none' | 'wrong';

export interface TargetRequest {
  readonly method?: string;
  /** Path and query, or an absolute URL (a link the target gave). */
  readonly path: string;
  readonly as: Credentials;
  readonly headers?: Readonly<Record<string, string>>;
  /** How the credentials are written before the token: `Bearer ` unless told (`bearer  `). */
  readonly scheme?: string;
}

/** One request and what came of it. The token is never part of it: `as` names the level. */
export type Exchange = Sent &
  (
    | { readonly kind: 'response'; readonly response: RecordedResponse }
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
  readonly tokens: Partial<Record<TokenLevel, string>>;
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
    const token = tokenFor(request.as, options.tokens);
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
        };
        const exchange = await send(sent, headers, options.timeoutMs);
        options.onExchange?.(exchange);
        return exchange;
      }),
  };
}

function tokenFor(
  as: Credentials,
  tokens: Partial<Record<TokenLevel, string>>,
): string | undefined {
  if (as === 'none') return undefined;
  if (as === 'wrong') return WRONG_TOKEN;
  return tokens[as];
}

async function send(
  sent: Sent,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Exchange> {
  try {
    const response = await fetch(sent.url, {
      method: sent.method,
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    let body: unknown = text === '' ? undefined : text;
    if (text !== '' && /[/+]json\b/i.test(type)) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // Left as text: the spec check reports a body that is not the JSON it claims to be.
      }
    }
    const recorded = {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body,
    };
    return { ...sent, kind: 'response', response: recorded };
  } catch (error) {
    return { ...sent, kind: 'no-response', reason: describeFetchError(error, timeoutMs) };
  }
}

export function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `no answer within ${String(timeoutMs)} ms`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  if (cause?.code !== undefined) return `connection failed (${cause.code})`;
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
