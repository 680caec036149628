/** @module Exchanges and values as a failure shows them. */
import type { Exchange } from './target-client.ts';

export function describeRequest(exchange: Pick<Exchange, 'method' | 'url' | 'as'>): string {
  const who =
    exchange.as === 'none'
      ? 'no token'
      : exchange.as === 'wrong'
        ? 'a wrong token'
        : `${exchange.as} token`;
  return `${exchange.method} ${exchange.url} (${who})`;
}

export function describeResponse(exchange: Exchange): string {
  if (exchange.kind === 'no-response') return exchange.reason;
  const body = exchange.response.body;
  const text =
    body === undefined ? '' : ` ${typeof body === 'string' ? body : JSON.stringify(body)}`;
  return `${String(exchange.response.status)}${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/** A failure about one exchange. */
export function failureOf(
  exchange: Exchange,
  message: string,
  expected?: string,
): {
  message: string;
  request: string;
  expected?: string;
  actual: string;
} {
  const failure = {
    message,
    request: describeRequest(exchange),
    actual: describeResponse(exchange),
  };
  return expected === undefined ? failure : { ...failure, expected };
}
