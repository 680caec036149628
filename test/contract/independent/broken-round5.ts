/**
 * Round 5 (issue 36): variants of the stock reference written from the interface, PRODUCT.md,
 * the shipped spec and the HTTP RFCs alone. LISTED are the faults an outside round found; NEW
 * break one rule each at inputs a checker may not try (edge page sizes, combined filters,
 * encodings, header case, caching, preflights, framing); DIFFERENT are correct services that are
 * easy to mistake for broken ones.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { makeCatalogue, type Product } from './catalogue.ts';
import { acceptsJson, readCredentials } from './http-rules.ts';
import { isJsonObject, memberObject, without, type Json, type JsonObject } from './json.ts';
import {
  caseInsensitiveSubstring,
  foldCase,
  matchesAll,
  parseIdFilter,
  parseLimit,
  parsePathId,
  parseStatus,
  standardLinks,
  type Filters,
  type Links,
} from './query.ts';
import {
  authenticateBearer,
  DEFAULT_TOKENS,
  type Faults,
  type LinkContext,
  type Reply,
  type ReplyContext,
} from './reference-server.ts';
import type { VariantSpec } from './servers.ts';
import { broken, isList, isProblem, isSingle, mapBody, mapHeaders } from './variant-helpers.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The reference links with some members replaced. */
function linksWith(change: (context: LinkContext, standard: Links) => Partial<Links>) {
  return (context: LinkContext): Links => {
    const standard = standardLinks(context.info, (page) => context.link(page));
    return { ...standard, ...change(context, standard) };
  };
}

/** A CORS preflight (Fetch standard): OPTIONS with Origin and Access-Control-Request-Method. */
function isPreflight(context: ReplyContext): boolean {
  const headers = context.requestHeaders;
  return (
    context.method === 'OPTIONS' &&
    headers.origin !== undefined &&
    headers['access-control-request-method'] !== undefined
  );
}

/** The 401 the reference gives for this Authorization field. */
function unauthorized(context: ReplyContext, authorization: string | undefined): Reply {
  const given = readCredentials(authorization).kind === 'bearer';
  const challenge = given
    ? 'Bearer realm="stockmock", error="invalid_token"'
    : 'Bearer realm="stockmock"';
  return mapHeaders(context.problem(401, 'Send a token: Authorization: Bearer <token>.'), {
    'www-authenticate': challenge,
  });
}

/** The request's single header value (Node joins repeated fields). */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Whether an If-None-Match field matches an entity tag, by weak comparison (RFC 9110 §13.1.2). */
function noneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

// ---- LISTED (issue 36) ------------------------------------------------------------------------

const JSON_RANGES = ['*/*', 'application/*', 'application/json'];

/** The default catalogue and a product whose name holds the words of "café table" apart. */
function withCafeSideTable(): Product[] {
  return [
    ...makeCatalogue('default'),
    {
      id: 4,
      name: 'Caf\u00e9 Side Table',
      quantity: 3,
      status: 'available',
      extra: { category: 'tables', price: 149, discontinued: false },
    },
  ];
}

/** A needle's space as a wildcard for any run of characters, as `%` in SQL LIKE. */
function spaceAsWildcard(name: string, needle: string): boolean {
  const escape = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  const pattern = foldCase(needle).split(' ').map(escape).join('.*');
  return new RegExp(pattern, 'su').test(foldCase(name));
}

/** An id written with a leading zero, such as 014. */
const LEADING_ZERO = /^0+\d/;

/** What a service comparing ids as text answers for an id with a leading zero: nothing. */
function idsAsText(reply: Reply, context: ReplyContext): Reply {
  if (reply.status !== 200) return reply;
  const segment = context.route?.idSegment;
  if (segment !== undefined) {
    return LEADING_ZERO.test(decodeURIComponent(segment))
      ? context.problem(404, `No product has the id ${segment}.`)
      : reply;
  }
  const id = context.url.searchParams.get('id');
  if (id === null || !LEADING_ZERO.test(id)) return reply;
  return mapBody(reply, (body) => {
    const links = memberObject(body, 'links');
    const first = links?.['first'] ?? null;
    const page = context.page?.page ?? 1;
    return { data: [], links: { first, last: first, prev: page > 1 ? first : null, next: null } };
  });
}

const LISTED: readonly VariantSpec[] = [
  broken(
    'interface',
    'Accept media type compared case-sensitively',
    'RFC 9110 §8.3.1 and §12.5.1: type and subtype are case-insensitive; ' +
      '"Accept: Application/JSON" admits application/json, but is answered 406',
    {
      faults: {
        acceptsJson: (accept) => {
          if (accept === undefined || accept.trim() === '') return true;
          const exact = accept
            .split(',')
            .filter((element) => JSON_RANGES.includes(element.split(';')[0]?.trim() ?? ''));
          return exact.length > 0 && acceptsJson(exact.join(','));
        },
      },
    },
  ),
  broken(
    'stand-in',
    'CORS preflight answered 401',
    'PRODUCT.md "Surface": a CORS preflight is answered without a token (Fetch standard: a ' +
      'preflight never carries credentials); here the token check runs first',
    {
      faults: {
        rewrite: (reply, context) =>
          isPreflight(context) &&
          authenticateBearer(header(context.requestHeaders, 'authorization'), DEFAULT_TOKENS)
            .kind !== 'level'
            ? unauthorized(context, header(context.requestHeaders, 'authorization'))
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'token-dependent answers publicly cacheable without Vary: Authorization',
    'RFC 9111 §3.5 and §4.1: "public" lets a shared cache store an answer to a request with ' +
      'Authorization, and without Vary: Authorization it serves it to other callers; interface ' +
      '"Authentication": the caller\'s level decides what it sees (Cache-Control: public, ' +
      'max-age=300, Vary: Accept)',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 200 && context.route !== undefined
            ? mapHeaders(reply, { 'cache-control': 'public, max-age=300', vary: 'Accept' })
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'next null before a last page holding one item',
    'Interface "Pagination", rule 3: next is null only at the end of the list; "has next" is ' +
      'page × limit < total − 1, so the page before a one-item last page ends the walk',
    {
      faults: {
        links: linksWith(({ info, link }) => ({
          next: info.page * info.limit < info.total - 1 ? link(info.page + 1) : null,
        })),
      },
    },
  ),
  broken(
    'interface',
    'space in a name needle matches any run of characters',
    'Interface "GET /v1/stock": name is a substring match (PRODUCT.md: every character literal); ' +
      '"café table" is not a substring of "Café Side Table", yet finds it',
    { catalogue: withCafeSideTable(), faults: { nameMatches: spaceAsWildcard } },
  ),
  broken(
    // The interface: the `id` filter is an integer, and the sample ids are integers; 014 is 14,
    // or malformed, but never an id that no product has.
    'interface',
    'ids compared as text',
    'PRODUCT.md "type of product_id": integer; "path id": a positive integer, a valid id no ' +
      'product has is 404. 014 is the positive integer 14, so /v1/stock/014 is product 14 and ' +
      'id=014 lists it; here both find nothing (a 404, an empty list). The interface types the ' +
      '`id` filter as an integer too',
    { faults: { rewrite: idsAsText } },
  ),
  broken(
    'interface',
    'bearer scheme in another case served at the status level',
    'RFC 9110 §11.1: the auth scheme is case-insensitive; interface "Authentication": the ' +
      "token's level decides the presentation. With `bearer` or `BEARER` the quantity token " +
      'is served as a status token',
    {
      faults: {
        authenticate: (authorization, tokens) => {
          const outcome = authenticateBearer(authorization, tokens);
          const scheme = authorization?.trim().split(' ')[0];
          return outcome.kind === 'level' && scheme !== 'Bearer'
            ? { kind: 'level', level: 'status' }
            : outcome;
        },
      },
    },
  ),
  broken(
    'stand-in',
    'errors sent as application/json',
    'PRODUCT.md "error body": RFC 9457 problem details with Content-Type: ' +
      'application/problem+json (the interface leaves errors open; JSON they still are)',
    {
      faults: {
        rewrite: (reply) =>
          isProblem(reply) ? mapHeaders(reply, { 'content-type': 'application/json' }) : reply,
      },
    },
  ),
  broken(
    'interface',
    'name needle trimmed (" chair" finds "armchair")',
    'Interface "GET /v1/stock": name is a substring match; the spaces of the needle are ' +
      'characters of it (PRODUCT.md: every character literal), so " chair" does not find ' +
      '"Linen armchair"',
    { faults: { nameMatches: (name, needle) => caseInsensitiveSubstring(name, needle.trim()) } },
  ),
  broken(
    'stand-in',
    'unknown quantity shown as 0',
    'PRODUCT.md "quantity when stock is unknown": null (status on_request); here 0, while the ' +
      'status stays on_request (the interface does not say how an unknown level is written)',
    {
      faults: {
        stockView: (p, view, standard) =>
          view.level === 'quantity' && p.quantity === null
            ? { ...standard, quantity: 0 }
            : standard,
      },
    },
  ),
];

// ---- NEW: numbers, page sizes and links --------------------------------------------------------

/** The reference's query reading, with each name and value percent-decoded as Latin-1 bytes. */
function readQueryAsLatin1(search: string): URLSearchParams {
  const decode = (text: string): string =>
    text
      .replaceAll('+', ' ')
      .replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
  const parameters = new URLSearchParams();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    parameters.append(
      decode(at === -1 ? pair : pair.slice(0, at)),
      decode(at === -1 ? '' : pair.slice(at + 1)),
    );
  }
  return parameters;
}

/** The query percent-decoded as a whole, then split on & and =: an encoded & splits a value. */
function readQueryDecodedFirst(search: string): URLSearchParams {
  let decoded: string;
  try {
    decoded = decodeURIComponent(search.replace(/^\?/, '').replaceAll('+', ' '));
  } catch {
    return new URLSearchParams(search);
  }
  const parameters = new URLSearchParams();
  for (const pair of decoded.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    parameters.append(at === -1 ? pair : pair.slice(0, at), at === -1 ? '' : pair.slice(at + 1));
  }
  return parameters;
}

/** Links built by appending `page` to the request's own query, which may already name one. */
function appendingPage(reply: Reply, context: ReplyContext): Reply {
  if (reply.status !== 200 || !isList(context)) return reply;
  return mapBody(reply, (body) => {
    const links = memberObject(body, 'links');
    if (links === undefined) return body;
    const search = context.url.search;
    const rewritten: Record<string, Json> = {};
    for (const [member, value] of Object.entries(links)) {
      if (typeof value !== 'string') {
        rewritten[member] = value;
        continue;
      }
      const url = new URL(value);
      const page = url.searchParams.get('page') ?? '1';
      const query = search === '' ? '?' : `${search}&`;
      rewritten[member] = `${url.origin}${url.pathname}${query}page=${page}`;
    }
    return { ...body, links: rewritten };
  });
}

const NUMBERS: readonly VariantSpec[] = [
  broken(
    'interface',
    'limit with a leading zero read as octal',
    'Interface "GET /v1/stock" and "Limits": limit is the page size, an integer; "010" is ten ' +
      '(or refused as invalid), never eight: read as C strtol with base 0 reads it',
    {
      faults: {
        parseLimit: (raw) =>
          /^0[0-7]+$/.test(raw) ? parseLimit(String(Number.parseInt(raw, 8))) : parseLimit(raw),
      },
    },
  ),
  broken(
    'interface',
    'page sizes below 5 raised to 5',
    'Interface "Limits" and "Paging rules": the client chooses the page size with limit (1 to ' +
      '100); limit=1 to 4 answer 5 items per page',
    { faults: { effectiveLimit: (limit) => Math.max(limit, 5) } },
  ),
  broken(
    'interface',
    'last link rounds total/limit',
    'Interface "List envelope": last is the URL of the last page, ceil(total/limit); ' +
      'Math.round names the page before it when the last page is less than half full',
    {
      faults: {
        links: linksWith(({ info, link }) => ({
          last: link(Math.max(1, Math.round(info.total / info.limit))),
        })),
      },
    },
  ),
  broken(
    'stand-in',
    'prev past the end names the page before the requested one',
    'PRODUCT.md "page past the end": prev points at the last page; here at page − 1, itself ' +
      'past the end (the interface leaves pages past the end open)',
    {
      faults: {
        links: linksWith(({ info, link }) => ({
          prev: info.page <= 1 ? null : link(info.page - 1),
        })),
      },
    },
  ),
  broken(
    'interface',
    'links append page to the request query',
    'Interface "Pagination", rule 2: the client may follow links.next and links.prev; from ' +
      'page 2 on the links repeat page (…&page=2&page=3), which the service itself refuses ' +
      '(PRODUCT.md: a repeated parameter is a 400)',
    { faults: { rewrite: appendingPage } },
  ),
  broken(
    'interface',
    'links omit their null members',
    'Interface "List envelope": links has the members first, last, prev and next, each a URL ' +
      'or null; a serializer that drops nulls leaves prev out on page 1 and next on the last',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 200 && isList(context)
            ? mapBody(reply, (body) => {
                const links = memberObject(body, 'links') ?? {};
                const kept = Object.entries(links).filter(([, value]) => value !== null);
                return { ...body, links: Object.fromEntries(kept) };
              })
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'path id truncated to 32 bits',
    'Interface "GET /v1/stock/:id": the stock of the product with this id; product ' +
      '4294967296 is listed, but its id read as a 32-bit integer is 0, a 404',
    {
      faults: {
        parsePathId: (segment) => {
          const id = parsePathId(segment);
          return id === undefined ? undefined : id | 0;
        },
      },
    },
  ),
  broken(
    'interface',
    'id filter beyond 2^53 crashes with 500',
    "RFC 9110 §15.6: 5xx means the server failed; id=99999999999999999999 is the client's " +
      'error, a 4xx (PRODUCT.md: 400)',
    {
      faults: {
        parseIdFilter: (raw) => {
          if (/^\d+$/.test(raw) && !Number.isSafeInteger(Number(raw))) {
            throw new RangeError(`BigInt ${raw} out of range for int8`);
          }
          return parseIdFilter(raw);
        },
      },
    },
  ),
  broken(
    'interface',
    'percent-encoded path id refused',
    'RFC 3986 §2.3 and §6.2.2.2: a percent-encoded unreserved character is equivalent to the ' +
      'character; /v1/stock/%31%34 is /v1/stock/14, not a 400',
    {
      faults: {
        rewrite: (reply, context) =>
          isSingle(context) &&
          (context.route?.idSegment ?? '').includes('%') &&
          reply.status === 200
            ? context.problem(400, '1 parameter is invalid.', {
                errors: [{ parameter: 'id', in: 'path', message: 'must be a positive integer' }],
              })
            : reply,
      },
    },
  ),
];

// ---- NEW: filters ------------------------------------------------------------------------------

/** Filters of a query, without some. */
function filtersOf(query: Filters, drop: readonly (keyof Filters)[]): Filters {
  return {
    ...(drop.includes('name') || query.name === undefined ? {} : { name: query.name }),
    ...(drop.includes('id') || query.id === undefined ? {} : { id: query.id }),
    ...(drop.includes('status') || query.status === undefined ? {} : { status: query.status }),
  };
}

/** Folding as the reference does, but without NFC normalization first. */
function foldWithoutNormalizing(text: string): string {
  return text.toUpperCase().toLowerCase().replaceAll('\u00df', 'ss').replaceAll('\u03c2', '\u03c3');
}

const FILTERS: readonly VariantSpec[] = [
  broken(
    'interface',
    'status filter ignored when name is also given',
    'Interface "GET /v1/stock": status filters on availability, whatever else is asked ' +
      '(PRODUCT.md: filters combine with AND); name=table&status=incoming lists other statuses',
    {
      faults: {
        select: (products, query, { nameMatches }) =>
          products.filter((p) =>
            matchesAll(
              p,
              query.name === undefined ? query : filtersOf(query, ['status']),
              nameMatches,
            ),
          ),
      },
    },
  ),
  broken(
    'interface',
    'id filter short-circuits the other filters',
    'Interface "GET /v1/stock": status and name filter the list; with id given the product is ' +
      'listed whatever its status or name (PRODUCT.md: AND)',
    {
      faults: {
        select: (products, query, { nameMatches }) =>
          query.id === undefined
            ? products.filter((p) => matchesAll(p, query, nameMatches))
            : products.filter((p) => p.id === query.id),
      },
    },
  ),
  broken(
    'stand-in',
    'name filter does not normalize (composed é ≠ decomposed é)',
    'PRODUCT.md "name filter": Unicode-aware case folding; README "Behaviour": composed = ' +
      'decomposed. "café" (U+00E9) misses "Cafe\u0301 chair" (e + U+0301)',
    {
      faults: {
        nameMatches: (name, needle) =>
          foldWithoutNormalizing(name).includes(foldWithoutNormalizing(needle)),
      },
    },
  ),
  broken(
    'interface',
    'query decoded as Latin-1',
    'RFC 3986 §2.5 (and the WHATWG URL standard): percent-encoded query text is UTF-8; ' +
      'name=caf%C3%A9 is "café", read here as "cafÃ©" and finding nothing',
    { faults: { readQuery: readQueryAsLatin1 } },
  ),
  broken(
    'interface',
    'query percent-decoded before it is split',
    'RFC 3986 §2.2: a percent-encoded reserved character is data, not a delimiter; ' +
      'name=Salt%20%26%20pepper is one needle, split here at the & into name and an unknown ' +
      'parameter (a 400)',
    { faults: { readQuery: readQueryDecodedFirst } },
  ),
  broken(
    'stand-in',
    'status filter case-insensitive',
    'PRODUCT.md "invalid parameter values": an unknown status is a 400; status=AVAILABLE is ' +
      "not one of the four values (the spec's enum) but is served as available",
    { faults: { parseStatus: (raw) => parseStatus(raw.toLowerCase()) } },
  ),
];

// ---- NEW: fields -------------------------------------------------------------------------------

const FIELDS: readonly VariantSpec[] = [
  broken(
    'interface',
    'quantity level omits status',
    'Interface "Stock object" and "GET /v1/stock": a stock object has product_id, the stock ' +
      'level and status; the quantity level gets {product_id, quantity}',
    {
      faults: {
        stockView: (_p, view, standard) =>
          view.level === 'quantity' ? without(standard, 'status') : standard,
      },
    },
  ),
  broken(
    // The quantity level sees the absolute level on every stock object (interface: "The access
    // level of the caller determines how stock is presented"): a member left out is no level.
    'interface',
    'unknown quantity omitted (a serializer that drops nulls)',
    'PRODUCT.md "which access level sees what" and "quantity when stock is unknown": ' +
      '{product_id, quantity, status} with quantity null; here the member is left out',
    {
      faults: {
        stockView: (p, view, standard) =>
          view.level === 'quantity' && p.quantity === null
            ? without(standard, 'quantity')
            : standard,
      },
    },
  ),
];

// ---- NEW: HTTP ---------------------------------------------------------------------------------

/** Accept honoured for its single highest-weighted range only. */
function highestRangeOnly(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let best: { element: string; q: number } | undefined;
  for (const element of accept.split(',')) {
    const q = /;\s*q=([0-9.]+)/i.exec(element)?.[1];
    const weight = q === undefined ? 1 : Number(q);
    if (best === undefined || weight > best.q) best = { element, q: weight };
  }
  return best !== undefined && acceptsJson(best.element);
}

/** The Authorization field only under its exact name "Authorization". */
function authorizationByExactName(rawHeaders: readonly string[]): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i] === 'Authorization') return rawHeaders[i + 1];
  }
  return undefined;
}

const HTTP: readonly VariantSpec[] = [
  broken(
    'interface',
    'Authorization header name matched case-sensitively',
    'RFC 9110 §5.1: field names are case-insensitive; "authorization: Bearer <token>" carries ' +
      'the token, but only "Authorization" is read',
    { faults: { readAuthorization: (request) => authorizationByExactName(request.rawHeaders) } },
  ),
  broken(
    'interface',
    'HEAD skips authentication',
    'RFC 9110 §9.3.2: HEAD answers as GET would, without content; GET without a token is a ' +
      '401, HEAD here a 200',
    {
      faults: {
        rewrite: (reply, context) =>
          context.method === 'HEAD' && reply.status === 401
            ? { status: 200, headers: { 'content-type': JSON_TYPE, vary: 'Accept, Authorization' } }
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'only the highest-weighted Accept range honoured',
    'RFC 9110 §12.5.1: every range with q > 0 is acceptable; "application/json;q=0.5, ' +
      'text/html" admits JSON, answered 406 here',
    { faults: { acceptsJson: highestRangeOnly } },
  ),
  broken(
    'stand-in',
    'Accept with application/json;q=0 served JSON',
    'PRODUCT.md "Accept": an Accept that excludes JSON gets 406; q=0 excludes it (RFC 9110 ' +
      '§12.4.2), but the weight is ignored (HTTP lets a server disregard Accept altogether)',
    {
      faults: {
        acceptsJson: (accept) =>
          acceptsJson(accept?.replace(/;\s*q=0(?:\.0*)?(?=\s*(?:,|;|$))/gi, '')),
      },
    },
  ),
  broken(
    'stand-in',
    'challenge names invalid_token when no token was sent',
    'PRODUCT.md "missing or invalid token": error="invalid_token" only when a bearer token was ' +
      'given (RFC 6750 §3.1: SHOULD NOT include an error code without credentials)',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 401
            ? mapHeaders(reply, {
                'www-authenticate': 'Bearer realm="stockmock", error="invalid_token"',
              })
            : reply,
      },
    },
  ),
  broken(
    'stand-in',
    'preflight asking for the Authorization header answered 403',
    'PRODUCT.md "Surface": CORS is open by default and preflights are answered without a ' +
      'token; a preflight with Access-Control-Request-Headers: authorization gets a 403 (Fetch ' +
      'standard: a preflight needs an ok status)',
    {
      faults: {
        rewrite: (reply, context) =>
          isPreflight(context) &&
          /authorization/i.test(
            header(context.requestHeaders, 'access-control-request-headers') ?? '',
          )
            ? context.problem(403, 'Request header authorization is not allowed.')
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'Content-Length counts UTF-16 code units',
    'RFC 9110 §8.6: Content-Length is the number of octets of the content; counted in code ' +
      'units, a body with é, ø or 東京 is cut short and is no JSON',
    { faults: { contentLength: (payload) => payload.length } },
  ),
  broken(
    'interface',
    'JSON bodies start with a byte order mark',
    'RFC 8259 §8.1: implementations MUST NOT add a byte order mark to the beginning of a ' +
      'networked-transmitted JSON text',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 200 && reply.body !== undefined
            ? { ...reply, raw: `\uFEFF${JSON.stringify(reply.body)}` }
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'one strong ETag for both access levels, 304 across them',
    'RFC 9110 §8.8.1 and §8.8.3: a strong validator is unique across the representations of a ' +
      'resource; the ETag is made from the URL, so a quantity client revalidating with the ' +
      "status view's tag gets 304 and keeps the wrong view (§13.1.2)",
    {
      faults: {
        rewrite: (reply, context) => {
          if (reply.status !== 200 || context.route === undefined) return reply;
          const etag = `"${digest(`${context.url.pathname}${context.url.search}`)}"`;
          if (noneMatchHits(header(context.requestHeaders, 'if-none-match'), etag)) {
            return {
              status: 304,
              headers: { etag, vary: reply.headers['vary'] ?? 'Authorization' },
            };
          }
          return mapHeaders(reply, { etag });
        },
      },
    },
  ),
];

// ---- DIFFERENT: correct, and easy to take for broken --------------------------------------------

function different(name: string, rule: string, faults: Faults, chunked = false): VariantSpec {
  return {
    name,
    kind: 'different',
    rule,
    level: 'stand-in',
    options: chunked ? { decisions: { framing: 'chunked' }, faults } : { faults },
  };
}

/** An object with its members in reverse order. */
function reversed(object: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(object).reverse());
}

/** Weak ETags from the body as sent, and 304 for a matching If-None-Match. */
function weakEtags(reply: Reply, context: ReplyContext): Reply {
  if (reply.status !== 200 || reply.body === undefined) return reply;
  if (context.method !== 'GET' && context.method !== 'HEAD') return reply;
  const etag = `W/"${digest(JSON.stringify(reply.body))}"`;
  if (noneMatchHits(header(context.requestHeaders, 'if-none-match'), etag)) {
    const vary = reply.headers['vary'] ?? 'Accept, Authorization';
    return { status: 304, headers: { etag, vary } };
  }
  return mapHeaders(reply, { etag });
}

/** CORS open to every origin, preflights answered in full. */
function openCors(reply: Reply, context: ReplyContext): Reply {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'WWW-Authenticate, Allow',
  };
  if (!isPreflight(context)) return mapHeaders(reply, cors);
  const asked = header(context.requestHeaders, 'access-control-request-headers');
  return mapHeaders(reply, {
    ...cors,
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-allow-headers': asked ?? 'Authorization, Accept',
    'access-control-max-age': '600',
  });
}

const DIFFERENT: readonly VariantSpec[] = [
  different(
    'chunked transfer coding',
    'Framing (interface and PRODUCT.md: silent): every body sent with Transfer-Encoding: ' +
      'chunked and no Content-Length, in two chunks (RFC 9112 §6.1, §7.1)',
    {},
    true,
  ),
  different(
    'weak ETags and 304 per representation',
    'Conditional requests (interface and PRODUCT.md: silent): a weak ETag from the body sent, ' +
      'so each level has its own, and 304 Not Modified for a matching If-None-Match (RFC 9110 ' +
      '§8.8.3, §13.1.2, §15.4.5); Vary: Accept, Authorization kept',
    { rewrite: weakEtags },
  ),
  different(
    'JSON members in another order',
    'Member order (RFC 8259 §4: an object is an unordered collection): links before data in ' +
      'lists, and each stock object as {status, quantity, product_id}',
    {
      stockView: (_p, _view, standard) => reversed(standard),
      rewrite: (reply) =>
        reply.status === 200 && isJsonObject(reply.body) ? mapBody(reply, reversed) : reply,
    },
  ),
  different(
    'private caching with a longer Vary',
    'Caching (PRODUCT.md: silent): Cache-Control: private, max-age=60 and Vary: Accept, ' +
      'Accept-Encoding, Authorization, Origin on every 200 (RFC 9111 §5.2.2.7: private ' +
      'answers are kept by no shared cache; RFC 9110 §12.5.5: Vary may name more fields)',
    {
      rewrite: (reply) =>
        reply.status === 200
          ? mapHeaders(reply, {
              'cache-control': 'private, max-age=60',
              vary: 'Accept, Accept-Encoding, Authorization, Origin',
            })
          : reply,
    },
  ),
  different(
    'challenge auth-params in another order',
    'The 401 challenge (PRODUCT.md: Bearer realm="stockmock", plus error="invalid_token" when ' +
      'a token was given): error first, then realm (RFC 9110 §11.2: auth-params in any order)',
    {
      rewrite: (reply) => {
        const challenge = reply.headers['www-authenticate'];
        return challenge?.includes('error=') === true
          ? mapHeaders(reply, {
              'www-authenticate': 'Bearer error="invalid_token", realm="stockmock"',
            })
          : reply;
      },
    },
  ),
  different(
    'CORS headers on every answer',
    'CORS (PRODUCT.md "Surface": open by default, preflights answered without a token): ' +
      'Access-Control-Allow-Origin: * and Expose-Headers on every answer, and preflights with ' +
      'Allow-Methods, Allow-Headers and Max-Age',
    { rewrite: openCors },
  ),
];

export const ROUND5_STOCK: readonly VariantSpec[] = [
  ...LISTED,
  ...NUMBERS,
  ...FILTERS,
  ...FIELDS,
  ...HTTP,
  ...DIFFERENT,
];

/** How many of ROUND5_STOCK are the issue's listed faults (they come first). */
export const ROUND5_STOCK_LISTED = LISTED.length;
