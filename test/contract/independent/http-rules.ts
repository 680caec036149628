/**
 * The HTTP rules every client relies on, written out from the RFCs: content negotiation on
 * `Accept` (RFC 9110 §12.5.1) and bearer credentials (RFC 7235 §2.1, RFC 6750 §2.1).
 */

/** How specific a media range is about application/json, or undefined if it excludes it. */
function specificityForJson(range: string): number | undefined {
  const [type, subtype, ...rest] = range.toLowerCase().split('/');
  if (type === undefined || subtype === undefined || rest.length > 0) return undefined;
  if (type === '*' && subtype === '*') return 0;
  if (type === 'application' && subtype === '*') return 1;
  if (type === 'application' && subtype === 'json') return 2;
  return undefined;
}

/** The `q` weight of a media range's parameters (1 when absent or unreadable). */
function weight(parameters: readonly string[]): number {
  for (const parameter of parameters) {
    const [key, value] = parameter.split('=').map((s) => s.trim());
    if (key?.toLowerCase() === 'q' && value !== undefined) {
      const q = Number(value);
      return Number.isFinite(q) ? q : 1;
    }
  }
  return 1;
}

/**
 * Whether an `Accept` field admits application/json. No field (or an empty one) admits
 * anything. Media type parameters other than `q` (such as charset) do not matter: the most
 * specific range that matches decides, and a weight of 0 means "not acceptable".
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let best: { specificity: number; q: number } | undefined;
  for (const element of accept.split(',')) {
    const [range, ...parameters] = element.split(';').map((s) => s.trim());
    if (range === undefined || range === '') continue;
    const specificity = specificityForJson(range);
    if (specificity === undefined) continue;
    const q = weight(parameters);
    if (best === undefined || specificity > best.specificity) best = { specificity, q };
    else if (specificity === best.specificity) best = { specificity, q: Math.max(q, best.q) };
  }
  return best !== undefined && best.q > 0;
}

export type Credentials =
  | { readonly kind: 'none' }
  /** Credentials of another scheme: no bearer token was given. */
  | { readonly kind: 'other-scheme' }
  | { readonly kind: 'bearer'; readonly token: string };

/**
 * Reads `Authorization`: the scheme is case-insensitive and one or more spaces separate it
 * from the token (RFC 7235 §2.1: `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`).
 */
export function readCredentials(authorization: string | undefined): Credentials {
  if (authorization === undefined || authorization.trim() === '') return { kind: 'none' };
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/.exec(authorization.trim());
  if (match === null) return { kind: 'other-scheme' };
  const scheme = match[1] ?? '';
  const token = (match[2] ?? '').trim();
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'other-scheme' };
  return token === '' ? { kind: 'none' } : { kind: 'bearer', token };
}

/**
 * Whether an `Accept-Encoding` field admits gzip (RFC 9110 §12.5.3): `gzip` or `x-gzip`
 * (§8.4.1.3) decides when listed, else `*`; a weight of 0 refuses. No field asks for nothing:
 * a server that compresses "when asked" sends identity then.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  let named: number | undefined;
  let any: number | undefined;
  for (const element of acceptEncoding.split(',')) {
    const [coding, ...parameters] = element.split(';').map((s) => s.trim().toLowerCase());
    const q = weight(parameters);
    if (coding === 'gzip' || coding === 'x-gzip') named = Math.max(named ?? 0, q);
    else if (coding === '*') any = Math.max(any ?? 0, q);
  }
  return (named ?? any ?? 0) > 0;
}
