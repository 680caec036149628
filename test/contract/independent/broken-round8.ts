/**
 * Round 8: variants of the stock reference written from the interface and PRODUCT.md alone, each
 * breaking one rule at an input a checker may not try: a page number concatenated as text, a
 * one-item last page merged into the page before, a filter lost by one link or applied after
 * paging, a default changed by an earlier request, accents and the Turkish i, `+` and malformed
 * escapes in the query, parameter names in another case, identical repeats, lenient number
 * syntaxes, a level leaking under one filter, HEAD without validation, a connection kept open
 * against `Connection: close`, a second Accept field line, a cacheable 401, a problem naming an
 * internal parameter, and a truncated token.
 */
import { timingSafeEqual } from 'node:crypto';
import type { StockStatus } from './catalogue.ts';
import { acceptsJson, readCredentials } from './http-rules.ts';
import { isJsonObject, type Json } from './json.ts';
import {
  DEFAULT_LIMIT,
  foldCase,
  lastPage,
  matchesAll,
  pageSlice,
  parseIdFilter,
  parseLimit,
  parsePage,
  parseStatus,
  standardLinks,
  type Filters,
  type ListQuery,
  type NameMatcher,
  type Parsed,
} from './query.ts';
import {
  authenticateBearer,
  type AuthOutcome,
  type Faults,
  type Level,
  type ReferenceOptions,
  type Tokens,
} from './reference-server.ts';
import type { VariantSpec } from './servers.ts';
import { broken, mapBody, mapHeaders } from './variant-helpers.ts';

/** The filters of a query without `status`. */
function withoutStatus(query: ListQuery): Filters {
  return {
    ...(query.name === undefined ? {} : { name: query.name }),
    ...(query.id === undefined ? {} : { id: query.id }),
  };
}

/** Splits a query string (`?` optional) into its raw name and value texts, as URLSearchParams does. */
function rawPairs(search: string): [string, string][] {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      return at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    });
}

// ---- pages and links ----------------------------------------------------------------------------

/**
 * Links whose `next` is built from the page as the query gave it, a string: "2" + 1 is "21". The
 * comparison with the last page and `prev` (page - 1) coerce to numbers and stay right; without
 * a `page` parameter the page is the number 1 and `next` is right too. The query is read before
 * the links are built, within one synchronous answer.
 */
function nextByConcatenation(): ReferenceOptions {
  let given: string | null = null;
  return {
    faults: {
      readQuery: (search) => {
        const parameters = new URLSearchParams(search);
        given = parameters.get('page');
        return parameters;
      },
      links: ({ info, link }) => {
        const standard = standardLinks(info, (page) => link(page));
        if (given === null || standard.next === null) return standard;
        return { ...standard, next: link(Number(`${given}1`)) };
      },
    },
  };
}

/**
 * Whether a paginator with one orphan allowed (Django's `Paginator(orphans=1)`) merges the last
 * page into the one before: the last page would hold a single item, and pages hold several.
 */
function mergesOrphan(total: number, limit: number): boolean {
  return limit > 1 && total > 1 && total % limit === 1;
}

function orphanLastPage(total: number, limit: number): number {
  return mergesOrphan(total, limit) ? lastPage(total, limit) - 1 : lastPage(total, limit);
}

const orphanMerged: Faults = {
  slice: (items, page, limit) => {
    const last = orphanLastPage(items.length, limit);
    if (page > last) return [];
    return mergesOrphan(items.length, limit) && page === last
      ? items.slice((page - 1) * limit)
      : pageSlice(items, page, limit);
  },
  links: ({ info, link }) =>
    standardLinks({ ...info, last: orphanLastPage(info.total, info.limit) }, (page) => link(page)),
};

/** The reference links, with `last` built by a helper that keeps only the limit of the query. */
const lastWithoutFilters: Faults = {
  links: (context) => {
    const standard = standardLinks(context.info, (page) => context.link(page));
    const limitOnly = new URLSearchParams();
    const limit = context.parameters.get('limit');
    if (limit !== null) limitOnly.set('limit', limit);
    return { ...standard, last: context.link(context.info.last, limitOnly) };
  },
};

/**
 * The status filter applied to each page after paging, as when the status is derived in code
 * rather than stored: the page, its size and the page count come from the list filtered by name
 * and id only, and each page then drops the items of another status. The list is selected before
 * it is sliced, within one synchronous answer.
 */
function statusFilteredAfterPaging(): ReferenceOptions {
  let status: StockStatus | undefined;
  return {
    faults: {
      select: (products, query, { nameMatches }) => {
        status = query.status;
        return products.filter((p) => matchesAll(p, withoutStatus(query), nameMatches));
      },
      slice: (items, page, limit) =>
        pageSlice(items, page, limit).filter((p) => status === undefined || p.status === status),
    },
  };
}

/**
 * The defaults object mutated by a request (`Object.assign(DEFAULTS, query)`): every valid limit
 * a request gives becomes the page size of later requests that give none, whoever sends them.
 */
function limitBecomesDefault(): ReferenceOptions {
  let defaultLimit = DEFAULT_LIMIT;
  return {
    faults: {
      parseLimit: (raw) => {
        const parsed = parseLimit(raw);
        if (parsed.ok) defaultLimit = parsed.value;
        return parsed;
      },
      get defaultLimit() {
        return defaultLimit;
      },
    },
  };
}

// ---- the name filter ----------------------------------------------------------------------------

/** The reference folding, then every combining mark dropped (an accent-insensitive collation). */
function foldWithoutAccents(text: string): string {
  return foldCase(text).normalize('NFD').replace(/\p{M}/gu, '');
}

const accentInsensitive: NameMatcher = (name, needle) =>
  foldWithoutAccents(name).includes(foldWithoutAccents(needle));

/** The reference folding under the Turkish locale: I lower-cases to ı, i upper-cases to İ. */
function foldTurkish(text: string): string {
  return text
    .normalize('NFC')
    .toLocaleUpperCase('tr')
    .toLocaleLowerCase('tr')
    .replaceAll('\u00df', 'ss')
    .replaceAll('\u03c2', '\u03c3');
}

const turkishFolding: NameMatcher = (name, needle) =>
  foldTurkish(name).includes(foldTurkish(needle));

// ---- reading the query --------------------------------------------------------------------------

/**
 * Percent-decoding as the WHATWG URL standard does it: each run of valid escapes becomes bytes
 * read as UTF-8 (invalid sequences as U+FFFD), and a `%` that starts no escape stays itself.
 */
function percentDecode(text: string): string {
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) =>
    utf8.decode(Buffer.from(run.replaceAll('%', ''), 'hex')),
  );
}

/**
 * The query percent-decoded first and its `+` read as a space afterwards: `%2B`, an encoded plus,
 * turns into a space too. Everything else reads as URLSearchParams reads it.
 */
function readQueryPlusAfterDecoding(search: string): URLSearchParams {
  const plusAsSpace = (text: string): string => percentDecode(text).replaceAll('+', ' ');
  return new URLSearchParams(
    rawPairs(search).map(([name, value]): [string, string] => [
      plusAsSpace(name),
      plusAsSpace(value),
    ]),
  );
}

/**
 * The query decoded with decodeURIComponent, which throws a URIError on a `%` that starts no
 * escape or on bytes that are no UTF-8; the error escapes as an unhandled one (a 500).
 */
function readQueryStrictly(search: string): URLSearchParams {
  const decode = (text: string): string => decodeURIComponent(text.replaceAll('+', ' '));
  return new URLSearchParams(
    rawPairs(search).map(([name, value]): [string, string] => [decode(name), decode(value)]),
  );
}

/** The query with every parameter name lower-cased, as a case-insensitive binder reads it. */
function readQueryNamesLowerCased(search: string): URLSearchParams {
  return new URLSearchParams(
    [...new URLSearchParams(search)].map(([name, value]): [string, string] => [
      name.toLowerCase(),
      value,
    ]),
  );
}

/** The query with pairs repeated with the same value kept once, as a set of pairs reads it. */
function readQueryIdenticalOnce(search: string): URLSearchParams {
  const seen = new Set<string>();
  return new URLSearchParams(
    [...new URLSearchParams(search)].filter((pair) => {
      const key = JSON.stringify(pair);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  );
}

// ---- numbers ------------------------------------------------------------------------------------

/** A page read with JavaScript's Number(): "1e1", "0x2", "+2", "2.0" and " 2 " are integers. */
function parsePageWithNumber(raw: string): Parsed<number> {
  const page = Number(raw);
  if (!Number.isInteger(page)) return { ok: false, message: `must be an integer, not "${raw}"` };
  return parsePage(String(page));
}

const DECIMAL_DIGIT = /^\p{Nd}$/u;

function isDecimalDigit(codePoint: number): boolean {
  return codePoint >= 0 && DECIMAL_DIGIT.test(String.fromCodePoint(codePoint));
}

/** The value of a decimal digit of any script: Unicode puts each script's 0 to 9 in one run. */
function digitValue(character: string): number {
  const codePoint = character.codePointAt(0) ?? 0;
  let start = codePoint;
  while (isDecimalDigit(start - 1)) start -= 1;
  return (codePoint - start) % 10;
}

/**
 * A path id read as Python's int() reads text: surrounding whitespace, a sign, single
 * underscores between digits, and the decimal digits of any script (fullwidth １４,
 * Arabic-Indic ١٤). A positive safe integer is an id, anything else none (a 400).
 */
function parsePathIdAsPython(segment: string): number | undefined {
  const match = /^\s*([+-]?)(\p{Nd}(?:_?\p{Nd})*)\s*$/u.exec(segment);
  const digits = match?.[2];
  if (match === null || digits === undefined) return undefined;
  const value = Number(Array.from(digits.replaceAll('_', ''), digitValue).join(''));
  const id = match[1] === '-' ? -value : value;
  return Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

// ---- access levels and HEAD ---------------------------------------------------------------------

/**
 * The status filter's query path selects the whole stock row and skips the level's projection:
 * a status token listing with a status filter sees the absolute level. The list is selected
 * before its items are viewed, within one synchronous answer.
 */
function quantityLeaksUnderStatusFilter(): ReferenceOptions {
  let byStatus = false;
  return {
    faults: {
      select: (products, query, { nameMatches }) => {
        byStatus = query.status !== undefined;
        return products.filter((p) => matchesAll(p, query, nameMatches));
      },
      stockView: (p, view, standard) =>
        byStatus && view.level === 'status' && view.place === 'list'
          ? { product_id: standard['product_id'] ?? p.id, quantity: p.quantity, status: p.status }
          : standard,
    },
  };
}

/** The query parameters of each list, and how each value is validated. */
const LIST_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  '/v1/stock': ['name', 'id', 'status', 'limit', 'page'],
  '/v1/products': ['name', 'id', 'limit', 'page'],
};

const VALID: Readonly<Record<string, (raw: string) => boolean>> = {
  name: () => true,
  id: (raw) => parseIdFilter(raw).ok,
  status: (raw) => parseStatus(raw).ok,
  limit: (raw) => parseLimit(raw).ok,
  page: (raw) => parsePage(raw).ok,
};

/**
 * HEAD answered by a handler that only computes the headers and skips the query's validation:
 * an unknown parameter, a repeated one (the last value kept) or an invalid value is dropped
 * instead of refused, so HEAD answers 200 where GET answers 400. The method and path are noted
 * when the Authorization is read, and the query read right after within one synchronous answer.
 */
function headSkipsValidation(): ReferenceOptions {
  let headPath: string | undefined;
  return {
    faults: {
      readAuthorization: (request) => {
        const path = new URL(request.url ?? '/', 'http://placeholder').pathname;
        headPath = request.method === 'HEAD' ? path : undefined;
        return request.headers.authorization;
      },
      readQuery: (search) => {
        const parameters = new URLSearchParams(search);
        if (headPath === undefined) return parameters;
        const kept = new URLSearchParams();
        for (const name of LIST_PARAMETERS[headPath] ?? []) {
          const value = parameters.getAll(name).at(-1);
          if (value !== undefined && VALID[name]?.(value) === true) kept.set(name, value);
        }
        return kept;
      },
    },
  };
}

// ---- connections and header fields --------------------------------------------------------------

/**
 * Accept read from its first field line only, as `headers.get` of some frameworks returns it:
 * node joins repeated lines into one list, which this reads no further than the first line. The
 * Accept lines are noted when the Authorization is read, and negotiated right after.
 */
function firstAcceptLineOnly(): ReferenceOptions {
  let first: string | undefined;
  return {
    faults: {
      readAuthorization: (request) => {
        const raw = request.rawHeaders;
        first = undefined;
        for (let i = 0; i + 1 < raw.length; i += 2) {
          if (raw[i]?.toLowerCase() === 'accept') {
            first = raw[i + 1];
            break;
          }
        }
        return request.headers.authorization;
      },
      acceptsJson: () => acceptsJson(first),
    },
  };
}

// ---- tokens -------------------------------------------------------------------------------------

/**
 * Tokens compared in constant time over the presented token's length only (to keep
 * timingSafeEqual from throwing on a length mismatch): any leading part of a configured token is
 * accepted as it. A longer token is refused, as the reference refuses it.
 */
function authenticateTruncated(authorization: string | undefined, tokens: Tokens): AuthOutcome {
  const credentials = readCredentials(authorization);
  if (credentials.kind !== 'bearer') return authenticateBearer(authorization, tokens);
  const presented = Buffer.from(credentials.token, 'utf8');
  const levels: readonly Level[] = ['status', 'quantity'];
  const level = levels.find((candidate) => {
    const configured = Buffer.from(tokens[candidate], 'utf8');
    return (
      presented.length <= configured.length &&
      timingSafeEqual(presented, configured.subarray(0, presented.length))
    );
  });
  return level === undefined ? { kind: 'invalid' } : { kind: 'level', level };
}

// ---- problems -----------------------------------------------------------------------------------

/** A 400 whose errors name `offset` where the request's parameter is `page`. */
const pageNamedOffset: Faults = {
  rewrite: (reply) =>
    reply.status === 400
      ? mapBody(reply, (body) => {
          const errors = body['errors'];
          if (!Array.isArray(errors)) return body;
          const renamed: Json[] = errors.map((error: Json) =>
            isJsonObject(error) && error['parameter'] === 'page'
              ? { ...error, parameter: 'offset' }
              : error,
          );
          return { ...body, errors: renamed };
        })
      : reply,
};

export const ROUND8_STOCK: readonly VariantSpec[] = [
  broken(
    'interface',
    'next link concatenates the given page and 1',
    'Interface "Pagination", rule 2: links.next moves to the next page. With page given in the ' +
      'query, next is built from its text: GET /v1/stock?page=2 links page=21 as next (page=1 ' +
      'links page=11); without page, and in prev, first and last, the links are right',
    nextByConcatenation,
  ),
  broken(
    'interface',
    'one-item last page merged into the page before',
    'Interface "Limits" and "Paging rules": limit is the page size, and a page holds at most ' +
      'limit items. A paginator with one orphan allowed merges a last page of one item into ' +
      'the page before: GET /v1/stock?limit=59 on 60 products answers 60 items with next null ' +
      'and last page=1 (also status=incoming&limit=11 on 12 incoming products); other limits ' +
      'are paged right',
    { faults: orphanMerged },
  ),
  broken(
    'interface',
    'last link drops the filters',
    'Interface "List envelope": last is the URL of the last page of the list answered; the ' +
      'last link of a filtered list keeps the limit but drops name, id and status, so ' +
      'GET /v1/stock?status=incoming&limit=5 links last as ?limit=5&page=3, page 3 of the ' +
      'unfiltered list (first, prev and next keep the filters)',
    { faults: lastWithoutFilters },
  ),
  broken(
    'interface',
    'status filter applied after paging',
    'Interface "Limits" and "Paging rules": page and limit page the list the filters select. ' +
      'The status filter is applied to each page of the list filtered by name and id only: ' +
      'GET /v1/stock?status=incoming&limit=5 holds only the incoming items among the first 5 ' +
      'products (1, not 5), and last counts pages of all 60; the name and id filters are right',
    statusFilteredAfterPaging,
  ),
  broken(
    'interface',
    'a given limit becomes the default of later requests',
    'Interface "Limits": when limit is omitted, a list response holds at most 10 items. The ' +
      'defaults object is mutated by each request: after GET /v1/stock?limit=20 (from any ' +
      'caller), GET /v1/stock answers 20 items; a fresh server answers 10',
    limitBecomesDefault,
  ),
  broken(
    'stand-in',
    'name filter ignores accents',
    'PRODUCT.md "name filter": case-insensitive with Unicode case folding, every character ' +
      'literal; "Cafe table" is no substring of "Caf\u00e9 table" under case folding, yet an ' +
      'accent-insensitive collation (as utf8mb4_0900_ai_ci) finds it: GET ' +
      '/v1/products?name=Cafe%20table. The interface level allows that reading, as databases ' +
      'with such collations serve it',
    { faults: { nameMatches: accentInsensitive } },
  ),
  broken(
    'stand-in',
    'name filter folds case under the Turkish locale',
    'PRODUCT.md "name filter": case-insensitive with Unicode-aware (locale-independent) case ' +
      'folding; folded with the Turkish locale, I becomes \u0131 and i becomes \u0130, so ' +
      'GET /v1/products?name=LINEN misses "Linen armchair" and name=sign misses "CAF\u00c9 SIGN" ' +
      '(the interface does not say case-insensitive)',
    { faults: { nameMatches: turkishFolding } },
  ),
  broken(
    'interface',
    'percent-encoded plus read as a space',
    'RFC 3986 §2.1 and the WHATWG URL standard (application/x-www-form-urlencoded): %2B is a ' +
      'plus sign, only a literal + is a space; interface "GET /v1/stock": name is a substring ' +
      'match. The query is percent-decoded before + is replaced, so ' +
      'GET /v1/products?name=C%2B%2B looks for "C  " and misses "C++ desk organiser"',
    { faults: { readQuery: readQueryPlusAfterDecoding } },
  ),
  broken(
    'interface',
    'malformed percent escape in the query crashes with 500',
    'RFC 9110 §15.6: 5xx means the server failed; a % that starts no escape is at worst the ' +
      "client's error (a 4xx), and the WHATWG URL standard reads it as a plain %. " +
      'GET /v1/stock?name=100% (or name=%FF, no UTF-8) throws in decodeURIComponent, a 500',
    { faults: { readQuery: readQueryStrictly } },
  ),
  broken(
    'stand-in',
    'parameter names matched case-insensitively',
    'PRODUCT.md "unknown query parameters": 400 by default; LIMIT, Status or Page are not the ' +
      "spec's parameter names (names are case-sensitive in a query), but a case-insensitive " +
      'binder serves GET /v1/stock?LIMIT=5 with 5 items',
    { faults: { readQuery: readQueryNamesLowerCased } },
  ),
  broken(
    'stand-in',
    'identical repeated parameter accepted',
    'PRODUCT.md "invalid parameter values": a repeated single-valued parameter is a 400; ' +
      'repeated with the same value it is kept once and served, ' +
      'GET /v1/stock?status=incoming&status=incoming answers 200 (different values, ' +
      'status=incoming&status=available, still give 400)',
    { faults: { readQuery: readQueryIdenticalOnce } },
  ),
  broken(
    'stand-in',
    'page read with Number()',
    'PRODUCT.md "invalid parameter values": a non-integer page is a 400 (the interface types ' +
      'page as an integer); read with Number(), GET /v1/stock?page=2e0 (or 0x2, %2B2, 2.0, ' +
      '%202) serves page 2',
    { faults: { parsePage: parsePageWithNumber } },
  ),
  broken(
    'stand-in',
    'path id read as Python int()',
    'PRODUCT.md "path id that is not a positive integer": 400; read as Python\'s int() reads ' +
      'text, GET /v1/stock/1_4 (or %2014%20, %2B14, fullwidth %EF%BC%91%EF%BC%94, ' +
      'Arabic-Indic %D9%A1%D9%A4) answers product 14',
    { faults: { parsePathId: parsePathIdAsPython } },
  ),
  broken(
    'interface',
    'quantity leaks to status tokens when filtering by status',
    'Interface "Authentication": the access level determines how stock is presented (PRODUCT.md: ' +
      'the status level sees {product_id, status}); GET /v1/stock?status=available with a ' +
      'status token lists quantity too, while other lists and single items do not',
    quantityLeaksUnderStatusFilter,
  ),
  broken(
    'interface',
    'HEAD skips parameter validation',
    'RFC 9110 §9.3.2: HEAD answers with the status GET would; HEAD /v1/stock?limit=0 (or an ' +
      'unknown or repeated parameter) answers 200, where GET answers 400; with a valid query ' +
      'HEAD is right',
    headSkipsValidation,
  ),
  broken(
    'interface',
    'Connection: close ignored',
    'RFC 9112 §9.6: a server that receives the close connection option MUST close the ' +
      'connection after its response; GET /v1/stock with Connection: close is answered ' +
      'Connection: keep-alive and the connection stays open, so a client that sends its next ' +
      'request on it gets a 400 from the HTTP parser',
    {
      faults: {
        prepareResponse: (_request, response) => {
          response.shouldKeepAlive = true;
        },
      },
    },
  ),
  broken(
    'interface',
    'second Accept field line ignored',
    'RFC 9110 §5.3 and §12.5.1: field lines of one name make one comma-separated list; a ' +
      'request with the lines "Accept: text/html" and "Accept: application/json" admits JSON ' +
      'but is answered 406 (one line "Accept: text/html, application/json" is served)',
    firstAcceptLineOnly,
  ),
  broken(
    'interface',
    '401 answers publicly cacheable without Vary: Authorization',
    'RFC 9111 §3 and §4.1: an explicitly fresh 401 (Cache-Control: public, max-age=300) with no ' +
      'Vary: Authorization is stored by a shared cache and served to later requests for the ' +
      'URL whatever their Authorization; interface "Authentication": a request with a valid ' +
      'token is served at its level. GET /v1/stock without a token shows it',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 401
            ? mapHeaders(reply, { 'cache-control': 'public, max-age=300' })
            : reply,
      },
    },
  ),
  broken(
    'stand-in',
    '400 names page as offset',
    'PRODUCT.md "invalid parameter values": the problem body names each bad parameter; the ' +
      'page is turned into an offset before it is validated, so GET /v1/stock?page=0 names ' +
      '"offset", a parameter of no request (other parameters are named right)',
    { faults: pageNamedOffset },
  ),
  broken(
    'interface',
    'truncated token accepted',
    'RFC 6750 §3.1: a token the server does not know is invalid_token, a 401; the token is ' +
      'compared over the length presented only, so "Bearer " with any leading part of a ' +
      "configured token (the quantity token without its last 6 characters) gets that token's " +
      'level',
    { faults: { authenticate: authenticateTruncated } },
  ),
];
