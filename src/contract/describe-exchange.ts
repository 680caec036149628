/** @module Exchanges and values as a failure shows them. */
import { levelName, type Exchange, type Sent } from './target-client.ts';

/** One deviation: what was asked, what the rules expect, and what came back. */
export interface Failure {
  readonly message: string;
  /** `GET http://…/v1/stock?limit=5 (status token)`: enough to replay it with curl. */
  readonly request?: string;
  readonly expected?: string;
  /** The answer: its status and an excerpt of its body, or why there was none. */
  readonly actual?: string;
}

/** At most this much of a body is shown: enough to see what came back. */
const BODY_EXCERPT = 300;

export function describeRequest(sent: Sent): string {
  const who =
    sent.altered ??
    (sent.as === 'none'
      ? 'no token'
      : sent.as === 'wrong'
        ? 'a wrong token'
        : `${levelName(sent.as)} token`);
  const extra = [
    ...(sent.headerCase === undefined ? [] : [`header names in ${sent.headerCase} case`]),
    ...Object.entries(sent.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    ...(sent.scheme === undefined ? [] : [`Authorization: ${JSON.stringify(sent.scheme)}…`]),
  ];
  return `${sent.method} ${sent.url} (${[who, ...extra].join('; ')})`;
}

/** The status, the content type and an excerpt of the body; or why there was no answer. */
export function describeResponse(exchange: Exchange): string {
  if (exchange.kind === 'no-response') return exchange.reason;
  const { status, headers, body } = exchange.response;
  const type = headers['content-type'];
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const excerpt = text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}…` : text;
  return [String(status), type === undefined ? '' : `(${type})`, excerpt]
    .filter((part) => part !== '')
    .join(' ');
}

/** A failure about one exchange: always with the request and what came back. */
export function failureOf(
  exchange: Exchange,
  message: string,
  expected?: string,
): { message: string; request: string; expected?: string; actual: string } {
  const failure = {
    message,
    request: describeRequest(exchange),
    actual: describeResponse(exchange),
  };
  return expected === undefined ? failure : { ...failure, expected };
}

/** The status of an answer, or undefined when none came. */
export function statusOf(exchange: Exchange): number | undefined {
  return exchange.kind === 'response' ? exchange.response.status : undefined;
}
