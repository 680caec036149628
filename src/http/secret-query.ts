/**
 * @module Credentials a client may put in the query: RFC 6750 §2.3 sends a bearer token as
 * `access_token` (stockmock does not accept one there: a 401 says to use the header), and a
 * spec's API key may travel `in: query`. Neither value may reach the request log or the journal.
 */
import { decodeQueryComponent } from '../spec/parameter-parser.ts';

/** What stands for a secret value: pino's own mark for a redacted field. */
export const MASKED = '[Redacted]';

/** Query parameters that carry a credential, by the RFCs that define them. */
const RFC_SECRETS = ['access_token'];

export interface SecretQuery {
  isSecret(name: string): boolean;
  /** The URL with each secret parameter's value masked; the URL itself when it has none. */
  mask(url: string): string;
}

/** The secret query parameters of an app: the RFCs' and the spec's API keys `in: query`. */
export function createSecretQuery(apiKeyNames: Iterable<string> = []): SecretQuery {
  const names: ReadonlySet<string> = new Set([...RFC_SECRETS, ...apiKeyNames]);
  // Most queries name no credential: only one that may (spelt out, or percent-encoded) is split.
  const mayName = new RegExp(
    [...names, '%'].map((name) => name.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
    'i',
  );
  const isSecret = (name: string) => names.has(name);
  return {
    isSecret,
    mask(url) {
      const query = url.indexOf('?');
      if (query < 0 || !mayName.test(url.slice(query))) return url;
      const pairs = url
        .slice(query + 1)
        .split('&')
        .map((pair) => {
          const raw = pair.split('=', 1)[0] ?? '';
          return isSecret(decodeQueryComponent(raw) ?? raw) ? `${raw}=${MASKED}` : pair;
        });
      return `${url.slice(0, query)}?${pairs.join('&')}`;
    },
  };
}
