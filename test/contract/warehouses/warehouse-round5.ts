/**
 * Round 5 (issue 36): variants of the warehouses reference, written from the example's spec
 * (examples/warehouses/openapi.yaml), its x-stockmock declarations (README, "Declare a
 * resource"), PRODUCT.md and HTTP alone. LISTED are the faults an outside round found; NEW break
 * one rule each at inputs a checker may not try; DIFFERENT are correct services that are easy to
 * mistake for broken ones.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  foldCase,
  pick,
  problem,
  standardPage,
  STANDARD_MATCHERS,
  startWarehouseServer,
  type Json,
  type JsonObject,
  type ListFilters,
  type Reply,
  type WarehouseOptions,
  type WarehouseServer,
} from './warehouse-servers.ts';

function broken(
  level: WarehouseServer['level'],
  name: string,
  rule: string,
  options: WarehouseOptions,
): WarehouseServer {
  return { name, kind: 'broken', rule, level, start: () => startWarehouseServer(options) };
}

function different(name: string, rule: string, options: WarehouseOptions): WarehouseServer {
  return {
    name,
    kind: 'different',
    rule,
    level: 'stand-in',
    start: () => startWarehouseServer(options),
  };
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request's path, without its query. */
function pathOf(request: IncomingMessage): string {
  return new URL(request.url ?? '/', 'http://placeholder').pathname;
}

/** Whether a reply is a 200 to the list (GET or HEAD /v1/warehouses). */
function isListAnswer(reply: Reply, request: IncomingMessage): boolean {
  return reply.status === 200 && pathOf(request).replace(/\/$/, '') === '/v1/warehouses';
}

/** The reply with each string member of its links changed. */
function mapLinks(reply: Reply, change: (link: string) => string): Reply {
  const body = reply.body;
  if (!isObject(body) || !isObject(body['links'])) return reply;
  const links = Object.fromEntries(
    Object.entries(body['links']).map(([key, value]) => [
      key,
      typeof value === 'string' ? change(value) : value,
    ]),
  );
  return { ...reply, body: { ...body, links } };
}

/** A copy without some members. */
function withoutMembers(object: JsonObject, names: readonly string[]): JsonObject {
  return pick(
    object,
    Object.keys(object).filter((name) => !names.includes(name)),
  );
}

const FILTERS = 'listWarehouses x-stockmock.filters';
const VIEWS = 'x-stockmock.views of listWarehouses and getWarehouse';

// ---- LISTED (issue 36) ------------------------------------------------------------------------

const LISTED: readonly WarehouseServer[] = [
  broken(
    'interface',
    'exact city filter ignores case',
    `${FILTERS}.city { match: exact } ("Exactly this city."): city=lyon is not Lyon`,
    { matchers: { city: (record, value) => foldCase(record.city) === foldCase(value) } },
  ),
  broken(
    'interface',
    'max_capacity ignored when min_capacity is also given',
    `${FILTERS}.max_capacity { match: max } ("At most this many pallet places"), with every ` +
      'filter holding (PRODUCT.md: AND); min_capacity=1000&max_capacity=3000 lists larger ones',
    {
      filtersOf: (filters): ListFilters =>
        filters.min_capacity === undefined
          ? filters
          : Object.fromEntries(Object.entries(filters).filter(([name]) => name !== 'max_capacity')),
    },
  ),
  broken(
    'interface',
    'filter applied after paging',
    `${FILTERS} and Page/Limit: a page is a window of the filtered list; here each window of ` +
      'the whole list is filtered on its own, so pages run short and last counts every record',
    {
      paginate: ({ records, keep, offset, size }) => ({
        items: records.slice(offset, offset + size).filter(keep),
        total: records.length,
      }),
    },
  ),
  broken(
    'interface',
    'staff view lacks manager',
    `${VIEWS}: staff { ..., rest: true } shows every other field of the record (README, ` +
      '"Declare a resource"); manager is left out',
    {
      view: (_record, context, standard) =>
        context.level === 'staff' ? withoutMembers(standard, ['manager']) : standard,
    },
  ),
  broken(
    'interface',
    'links drop the range filters after page 1',
    'Links keep every filter (README, "Declare a resource"; PRODUCT.md "links"): on page 2 ' +
      'and later, first, last, prev and next lose min_capacity and max_capacity',
    {
      linkQuery: (standard, page) => {
        if (page <= 1) return standard;
        const kept = new URLSearchParams(standard);
        kept.delete('min_capacity');
        kept.delete('max_capacity');
        return kept;
      },
    },
  ),
  broken(
    'stand-in',
    'page past the end repeats the last page',
    'PRODUCT.md "page past the end": 200 with empty data; ?limit=14&page=4 (42 warehouses, ' +
      'three pages) answers the 14 items of page 3',
    {
      paginate: (context) => {
        const total = context.records.filter(context.keep).length;
        const last = Math.max(1, Math.ceil(total / context.size));
        const page = Math.min(context.page, last);
        return standardPage({ ...context, page, offset: (page - 1) * context.size });
      },
    },
  ),
];

// ---- NEW ---------------------------------------------------------------------------------------

/** UTF-8 percent-escapes of Latin-1 characters re-encoded as one Latin-1 byte each. */
function latin1Escapes(link: string): string {
  return link.replace(/%C([23])%([89AB][0-9A-F])/gi, (_match, lead: string, tail: string) => {
    const byte = (lead === '3' ? 0x40 : 0) + Number.parseInt(tail, 16);
    return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  });
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

const NEW: readonly WarehouseServer[] = [
  broken(
    'interface',
    'max_capacity=0 ignored',
    `${FILTERS}.max_capacity { match: max }: at most 0 pallet places matches no warehouse; ` +
      'a falsy check (if (max_capacity)) lists them all',
    {
      filtersOf: (filters): ListFilters =>
        filters.max_capacity === 0
          ? Object.fromEntries(Object.entries(filters).filter(([name]) => name !== 'max_capacity'))
          : filters,
    },
  ),
  broken(
    'interface',
    'limit=100 falls back to 10',
    'components.parameters.Limit { minimum: 1, maximum: 100 }: 100 is valid and gives pages ' +
      'of up to 100; an off-by-one range check treats it as too large and serves 10',
    { pageSize: (limit) => (limit >= 100 ? 10 : limit) },
  ),
  broken(
    'interface',
    'a one-item last page served empty',
    'Page and Limit pagination (PRODUCT.md: the links walk the whole list exactly once): ' +
      'limit=41 on 42 warehouses leaves one item on page 2, which answers no items',
    {
      paginate: (context) => {
        const page = standardPage(context);
        return context.page > 1 && page.items.length === 1 ? { ...page, items: [] } : page;
      },
    },
  ),
  broken(
    'interface',
    'links carry an extra self member',
    'components.schemas.Links { required: [first, last, prev, next], additionalProperties: ' +
      'false }: a self member is not allowed',
    {
      rewrite: (reply, request) => {
        const body = reply.body;
        if (!isListAnswer(reply, request) || !isObject(body) || !isObject(body['links'])) {
          return reply;
        }
        const self = `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`;
        return { ...reply, body: { ...body, links: { ...body['links'], self } } };
      },
    },
  ),
  broken(
    'interface',
    'staff view shows a missing manager as null',
    'components.schemas.Warehouse: manager is a string; records without one get ' +
      '"manager": null at the staff level',
    {
      view: (record, context, standard) =>
        context.level === 'staff' && record.fields['manager'] === undefined
          ? { ...standard, manager: null }
          : standard,
    },
  ),
  broken(
    'interface',
    'exact city filter trims its value',
    `${FILTERS}.city { match: exact } ("Exactly this city."): "Lyon " is not "Lyon"`,
    { matchers: { city: (record, value) => record.city === value.trim() } },
  ),
  broken(
    'stand-in',
    'name filter folds ASCII case only',
    'PRODUCT.md "name filter": Unicode-aware case folding (the name parameter: ' +
      '"Case-insensitive"); "TROMSØ" misses "Tromsø", "GDAŃSK" misses "Gdańsk"',
    {
      matchers: {
        name: (record, value) => asciiLower(record.name).includes(asciiLower(value)),
      },
    },
  ),
  broken(
    'interface',
    'empty name filter matches nothing',
    `${FILTERS}.name { match: contains }: every name contains the empty string, so name= ` +
      'lists every warehouse',
    {
      matchers: {
        name: (record, value) => value !== '' && STANDARD_MATCHERS.name(record, value),
      },
    },
  ),
  broken(
    'interface',
    'healthz counts the first page only',
    'GET /healthz ("Liveness and the number of warehouses", x-stockmock health: { ' +
      'warehouses: warehouses }): the count of the collection, 42, not 10',
    {
      rewrite: (reply, request) => {
        const body = reply.body;
        return reply.status === 200 && pathOf(request) === '/healthz' && isObject(body)
          ? { ...reply, body: { ...body, warehouses: Math.min(10, Number(body['warehouses'])) } }
          : reply;
      },
    },
  ),
  broken(
    'interface',
    'unknown token answered 403',
    'The 401 Unauthorized response ("No token, or not a known one") and RFC 6750 §3.1: an ' +
      'unknown token is invalid_token, a 401 with a challenge; 403 is not declared',
    {
      rewrite: (reply) =>
        reply.status === 401 && (reply.headers['www-authenticate'] ?? '').includes('error=')
          ? problem(403, 'The bearer token is not allowed here.')
          : reply,
    },
  ),
  broken(
    'interface',
    'links encode filter values in Latin-1',
    'Links keep every filter (PRODUCT.md "links"), as URLs (RFC 3986 §2.5: UTF-8): ' +
      'city=Tromsø is written city=Troms%F8, which reads back as no valid city',
    {
      rewrite: (reply, request) =>
        isListAnswer(reply, request) ? mapLinks(reply, latin1Escapes) : reply,
    },
  ),
];

// ---- DIFFERENT ---------------------------------------------------------------------------------

/** An object with its members in reverse order. */
function reversed(object: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(object).reverse());
}

const DIFFERENT: readonly WarehouseServer[] = [
  different(
    'JSON members in another order',
    'Member order (RFC 8259 §4: an object is unordered): links before data, and each ' +
      'warehouse with its members in reverse order',
    {
      view: (_record, _context, standard) => reversed(standard),
      rewrite: (reply) =>
        reply.status === 200 && isObject(reply.body) && isObject(reply.body['links'])
          ? { ...reply, body: reversed(reply.body) }
          : reply,
    },
  ),
  different(
    'chunked transfer coding',
    'Framing (spec and PRODUCT.md: silent): Transfer-Encoding: chunked, no Content-Length ' +
      '(RFC 9112 §6.1, §7.1)',
    { chunked: true },
  ),
  different(
    'private caching, a longer Vary and open CORS',
    'Headers (PRODUCT.md: CORS open by default; caching silent): Cache-Control: private, ' +
      'max-age=30, Vary: Accept, Accept-Encoding, Authorization, Origin, ' +
      'Access-Control-Allow-Origin: * and an X-Request-Id on every answer',
    {
      extraHeaders: () => ({
        'cache-control': 'private, max-age=30',
        vary: 'Accept, Accept-Encoding, Authorization, Origin',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'WWW-Authenticate, Allow',
        'x-request-id': randomUUID(),
      }),
    },
  ),
];

export const ROUND5_WAREHOUSES: readonly WarehouseServer[] = [...LISTED, ...NEW, ...DIFFERENT];

/** How many of ROUND5_WAREHOUSES are the listed faults (they come first). */
export const ROUND5_WAREHOUSES_LISTED = LISTED.length;
