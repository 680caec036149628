/**
 * @module PRODUCT.md's CORS, as the independent servers answer it: open by default, and a
 * preflight answered without a token, allowing GET, HEAD and the Authorization header.
 */
import type { IncomingMessage } from 'node:http';

/** The CORS headers of an answer to `request`: none unless it came from another origin. */
export function corsHeaders(request: IncomingMessage): Record<string, string> {
  if (request.headers.origin === undefined) return {};
  const preflight =
    request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
  return {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'WWW-Authenticate, Allow',
    ...(preflight
      ? {
          'access-control-allow-methods': 'GET, HEAD',
          'access-control-allow-headers': 'authorization',
          'access-control-max-age': '600',
        }
      : {}),
  };
}
