/**
 * Variants that break one rule at an edge the common cases miss: very large page numbers, odd
 * credentials, plain OPTIONS, Allow and HEAD lengths, links that do not read back as written, and
 * the name filter's needle taken other than literally. Everything else is the reference.
 */
import { readCredentials } from './http-rules.ts';
import { caseInsensitiveSubstring, matchesAll, parsePage, standardLinks } from './query.ts';
import { authenticateBearer, type Faults, type Level } from './reference-server.ts';
import type { VariantSpec } from './servers.ts';
import { broken, mapHeaders } from './variant-helpers.ts';

// ---- numbers and methods ----------------------------------------------------------------------

const INT32_MAX = 2_147_483_647;

/** Whether a request is a CORS preflight (Fetch standard: OPTIONS with the request method). */
function isPreflight(headers: Readonly<Record<string, unknown>>): boolean {
  return headers['access-control-request-method'] !== undefined;
}

const EDGES: readonly VariantSpec[] = [
  broken(
    'interface',
    'page past 2^31 crashes with 500',
    'RFC 9110 §15.6: 5xx means the server failed; page is an integer (interface "Endpoints"), ' +
      'and a page past 2^31 - 1 is a valid page past the end, or a 4xx at worst',
    {
      faults: {
        parsePage: (raw) => {
          const parsed = parsePage(raw);
          if (parsed.ok && parsed.value > INT32_MAX) {
            throw new RangeError(`value "${raw}" is out of range for type integer`);
          }
          return parsed;
        },
      },
    },
  ),
  broken(
    'interface',
    'plain OPTIONS crashes with 500',
    'RFC 9110 §9.3.7 and §15.6: OPTIONS (listed in Allow) asks for the communication options; ' +
      'without CORS preflight headers it is still a valid request, never a 5xx',
    {
      faults: {
        rewrite: (reply, context) =>
          context.method === 'OPTIONS' && !isPreflight(context.requestHeaders)
            ? context.problem(500, "Cannot read properties of undefined (reading 'split')")
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'Allow names a method that answers 405',
    'RFC 9110 §10.2.1: Allow lists the methods the target resource supports; PUT is listed ' +
      'and answered 405',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 405 ? mapHeaders(reply, { allow: 'GET, HEAD, OPTIONS, PUT' }) : reply,
      },
    },
  ),
  broken(
    'interface',
    'HEAD has Content-Length 0',
    "RFC 9110 §8.6 and §9.3.2: a Content-Length in a HEAD response MUST equal the length GET's " +
      'content would have; 0 is sent for a non-empty body',
    {
      faults: {
        rewrite: (reply, context) =>
          context.method === 'HEAD' && (reply.body !== undefined || reply.raw !== undefined)
            ? { status: reply.status, headers: { ...reply.headers, 'content-length': '0' } }
            : reply,
      },
    },
  ),
];

// ---- bearer authentication --------------------------------------------------------------------

/** The level whose configured token `accepts` the presented one, or invalid. */
function tokenMatching(
  accepts: (presented: string, configured: string) => boolean,
): NonNullable<Faults['authenticate']> {
  return (authorization, tokens) => {
    const credentials = readCredentials(authorization);
    if (credentials.kind !== 'bearer') return authenticateBearer(authorization, tokens);
    const levels: readonly Level[] = ['status', 'quantity'];
    const level = levels.find((l) => accepts(credentials.token, tokens[l]));
    return level === undefined ? { kind: 'invalid' } : { kind: 'level', level };
  };
}

const AUTH: readonly VariantSpec[] = [
  broken(
    'interface',
    'empty bearer token crashes with 500',
    'RFC 6750 §3.1 and RFC 9110 §15.5.2: "Bearer" without a token carries no credentials, a 401 ' +
      'with a challenge; RFC 9110 §15.6: never a 5xx',
    {
      faults: {
        authenticate: (authorization, tokens) => {
          if (/^bearer *$/i.test((authorization ?? '').trim())) {
            throw new TypeError("Cannot read properties of undefined (reading 'length')");
          }
          return authenticateBearer(authorization, tokens);
        },
      },
    },
  ),
  broken(
    'interface',
    'token accepted by prefix',
    'RFC 6750 §3.1: a token the server does not know is invalid_token, a 401; "<token>X" is ' +
      'not the configured token (compared up to its length only)',
    { faults: { authenticate: tokenMatching((presented, token) => presented.startsWith(token)) } },
  ),
  broken(
    'interface',
    'token accepted in another case',
    'RFC 6749 §1.4 and RFC 6750 §3.1: an access token is an opaque string, compared exactly; ' +
      'only the scheme is case-insensitive (RFC 9110 §11.1), so the upper-cased token is unknown',
    {
      faults: {
        authenticate: tokenMatching(
          (presented, token) => presented.toLowerCase() === token.toLowerCase(),
        ),
      },
    },
  ),
  broken(
    'interface',
    'Basic credentials served at the status level',
    'Interface "Authentication": requests carry a bearer token; RFC 6750 §3.1: credentials of ' +
      'another scheme are no bearer token, a 401 (PRODUCT.md: another scheme counts as none)',
    {
      faults: {
        authenticate: (authorization, tokens) =>
          /^basic(?: |$)/i.test((authorization ?? '').trim())
            ? { kind: 'level', level: 'status' }
            : authenticateBearer(authorization, tokens),
      },
    },
  ),
];

// ---- links that do not read back --------------------------------------------------------------

/** Decodes %XX escapes; a malformed one stays as it is. */
function decodeLeniently(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Reads a query as decodeURIComponent does: a `+` stays a plus (RFC 3986 has no `+` rule). */
function readQueryLiterally(search: string): URLSearchParams {
  const parameters = new URLSearchParams();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = at === -1 ? pair : pair.slice(0, at);
    const value = at === -1 ? '' : pair.slice(at + 1);
    parameters.append(decodeLeniently(name), decodeLeniently(value));
  }
  return parameters;
}

/** The reference links, with the name filter percent-encoded before the query encodes it again. */
const encodedTwice: NonNullable<Faults['links']> = (context) => {
  const kept = new URLSearchParams(context.parameters);
  const name = kept.get('name');
  if (name !== null) kept.set('name', encodeURIComponent(name));
  return standardLinks(context.info, (page) => context.link(page, kept));
};

const LINKS: readonly VariantSpec[] = [
  broken(
    'interface',
    'links write spaces as + that the server reads literally',
    'Interface "Pagination", rule 2: following next and prev moves between pages of the same ' +
      'list; the links write a space as "+" (form encoding), the server reads "+" as a plus',
    { faults: { readQuery: readQueryLiterally } },
  ),
  broken(
    'interface',
    'links encode the name filter twice',
    'Interface "Pagination", rule 2: following next and prev moves between pages of the same ' +
      'list; a space written %2520 reads back as "%20"',
    { faults: { links: encodedTwice } },
  ),
];

// ---- the name filter's needle -----------------------------------------------------------------

const NAME: readonly VariantSpec[] = [
  broken(
    'interface',
    'name filter trims its needle',
    'Interface "GET /v1/stock": name is a substring match; its spaces are characters of the ' +
      'substring ("table " is not "table"; PRODUCT.md: every character literal)',
    { faults: { nameMatches: (name, needle) => caseInsensitiveSubstring(name, needle.trim()) } },
  ),
  broken(
    'interface',
    'name filter also matches ids as text',
    'Interface "GET /v1/stock": name filters on the product name; a product whose name lacks ' +
      'the needle is not listed because its id contains it',
    {
      faults: {
        select: (products, query, { nameMatches }) =>
          products.filter((p) =>
            matchesAll(
              p,
              query,
              (name, needle) => nameMatches(name, needle) || String(p.id).includes(needle),
            ),
          ),
      },
    },
  ),
  broken(
    'interface',
    'empty name filter matches nothing',
    'Interface "GET /v1/stock": name is a substring match with wildcards on both sides; the ' +
      'empty substring is in every name, so name= lists every product',
    {
      faults: {
        nameMatches: (name, needle) => needle !== '' && caseInsensitiveSubstring(name, needle),
      },
    },
  ),
];

export const BROKEN_EDGES: readonly VariantSpec[] = [...EDGES, ...AUTH, ...LINKS, ...NAME];
