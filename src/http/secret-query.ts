/**
 * @module Credentials a client may put in the query: RFC 6750 §2.3 sends a bearer token as
 * `access_token`. stockmock does not accept a token there (a 401 says to use the header), but
 * a client that sent one must not find it in the request log or the journal.
 */
import { decodeQueryComponent } from '../spec/parameter-parser.ts';

/** Query parameters that carry a credential, by the RFCs that define them. */
const SECRET_PARAMETERS: ReadonlySet<string> = new Set(['access_token']);

/** What stands for a secret value: pino's own mark for a redacted field. */
export const MASKED = '[Redacted]';

export function isSecretParameter(name: string): boolean {
  return SECRET_PARAMETERS.has(name);
}

const MAY_NAME_A_SECRET = /access|%/i;

/** The URL with each secret parameter's value masked; the URL itself when it has none. */
export function maskSecretParameters(url: string): string {
  const query = url.indexOf('?');
  // Most queries name no credential: only one that may (spelt out, or percent-encoded) is split.
  if (query < 0 || !MAY_NAME_A_SECRET.test(url.slice(query))) return url;
  const pairs = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const raw = pair.split('=', 1)[0] ?? '';
      return isSecretParameter(decodeQueryComponent(raw) ?? raw) ? `${raw}=${MASKED}` : pair;
    });
  return `${url.slice(0, query)}?${pairs.join('&')}`;
}
