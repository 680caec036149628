/** @module The scheme and host that absolute links start with. */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/** A host as a URL may hold it: a name or IPv4 address, or a bracketed IPv6 one; an optional port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The origin of a request's links: `http://host:port`, without a trailing slash. */
export type RequestOrigin = (request: FastifyRequest) => string;

/**
 * The configured base URL wins (trimmed of trailing slashes here, once). Otherwise the request's
 * own scheme and Host; a Host header that is not a plain host (a client may send anything) falls
 * back to `fallbackHost`, so that links are always valid absolute URLs.
 */
export function createRequestOrigin(
  baseUrl: string | undefined,
  fallbackHost: string,
): RequestOrigin {
  if (baseUrl !== undefined) {
    const origin = baseUrl.replace(/\/+$/, '');
    return () => origin;
  }
  // The last host that passed: clients send the same Host on every request of a connection.
  let lastPlainHost = '';
  const isPlainHost = (host: string): boolean => {
    if (host === lastPlainHost) return true;
    if (!HOST.test(host)) return false;
    lastPlainHost = host;
    return true;
  };
  return (request) => {
    const host = request.headers.host;
    return `${request.protocol}://${host !== undefined && isPlainHost(host) ? host : fallbackHost}`;
  };
}

/** `http://` or `https://`, in any case, then the authority. */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)/i;

/**
 * The request target in origin form (`/v1/stock?limit=1`). A target in absolute form
 * (`http://127.0.0.1:4010/v1/stock?limit=1`, RFC 9112 §3.2.2) gives its path and query, and its
 * authority replaces the Host header, which the RFC says the server then ignores.
 */
export function originFormOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const absolute = ABSOLUTE_FORM.exec(url);
  if (absolute === null) return url;
  const [prefix, authority = ''] = absolute;
  request.headers.host = authority;
  const rest = url.slice(prefix.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
