/**
 * Servers for the link-less variant of the billing example (./unlinked-spec.ts): the invoice list
 * answers `{items, meta: {total}}` and is paged by `page` (from 1) and `limit` (1..50, default 20)
 * alone. Written from that spec, its `x-stockmock` declarations, examples/billing/billing.yaml
 * and docs/declare-a-resource.md and docs/behaviour.md, on plain node:http; the data and value
 * helpers (fixture loading, instants, matchers, comparers, Accept) come from
 * ../billing/billing-servers.ts.
 *
 * One base service answers as the reference; every other server switches one thing on: a choice
 * the interface leaves open ('different'), or one paging or listing fault ('broken').
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  acceptsJson,
  byCodePoints,
  CUSTOMER_COMPARERS,
  CUSTOMER_MATCHERS,
  DEMO_TOKENS,
  INVOICE_COMPARERS,
  INVOICE_MATCHERS,
  isFullDate,
  isStatus,
  loadBilling,
  parseDateTime,
  standardCustomerView,
  STATUSES,
  type Comparers,
  type Customer,
  type Invoice,
  type Json,
  type JsonObject,
  type Level,
  type SortKey,
  type Tokens,
} from '../billing/billing-servers.ts';

export interface UnlinkedServer {
  readonly name: string;
  readonly kind: 'reference' | 'different' | 'broken';
  /** For 'broken': the rule it breaks and how a client suffers; else the choice it makes. */
  readonly rule: string;
  start(): Promise<RunningServer>;
}

export interface RunningServer {
  readonly url: string;
  readonly tokens: Tokens;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Paging the invoice list

type Compare<Item> = (a: Item, b: Item) => number;

/** What the invoice list's pager gets: the data, the request's filter, order and page. */
export interface PageContext {
  /** Every invoice, in key order (id by code point), unfiltered. */
  readonly all: readonly Invoice[];
  /** The request's filters (AND). */
  readonly keep: (invoice: Invoice) => boolean;
  /** The asked order (`sort`, else -issued_at), ties by id ascending. */
  readonly compare: Compare<Invoice>;
  /** The sort keys asked (or the default), to build another order from. */
  readonly keys: readonly SortKey[];
  readonly page: number;
  readonly limit: number;
}

export interface PageResult {
  readonly items: readonly Invoice[];
  /** meta.total: the number of records the filters keep over all pages. */
  readonly total: number;
}

export type Pager = (context: PageContext) => PageResult;

/** Filter, then sort, then cut the page: (page − 1) × limit, limit items. */
export const referencePager: Pager = ({ all, keep, compare, page, limit }) => {
  const list = all.filter(keep).sort(compare);
  return { items: list.slice((page - 1) * limit, page * limit), total: list.length };
};

/** listInvoices `sort.default: -issued_at`. */
export const DEFAULT_INVOICE_SORT: readonly SortKey[] = [{ field: 'issued_at', descending: true }];

/** An order of sort keys; "Ties keep the invoice id's order" (ascending, by default). */
export function orderBy<Item extends { readonly id: string }>(
  keys: readonly SortKey[],
  comparers: Comparers<Item>,
  tieBreak: Compare<string> = byCodePoints,
): Compare<Item> {
  return (a, b) => {
    for (const key of keys) {
      const result = comparers[key.field]?.(a, b) ?? 0;
      if (result !== 0) return key.descending ? -result : result;
    }
    return tieBreak(a.id, b.id);
  };
}

// ---------------------------------------------------------------------------------------------
// Options: what a server changes

interface Options {
  /** The invoice list's page and total (the reference: referencePager). */
  readonly pager?: Pager;
  /** The invoice list's default limit (components.parameters.Limit: 20). */
  readonly defaultLimit?: number;
  /** A page past the last: 200 with no items (the reference), or a 404 problem. */
  /** A page past the end: 200 and no items, or a problem with this status. */
  readonly pastTheEnd?: 'empty' | 400 | 404;
  /** Query parameters no operation declares: 400 (the reference), or ignored. */
  readonly unknownParameters?: 'reject' | 'ignore';
  /** Extra headers on a list's answer. */
  readonly listHeaders?: (total: number, page: number, limit: number) => Record<string, string>;
  /** Rewrites every JSON body just before it is written. */
  readonly body?: (body: Json) => Json;
  /** A problem's `type` from its kind (the reference: stockmock's URNs). */
  readonly problemType?: (kind: string) => string;
  /** The 401 challenge's realm (the reference: stockmock). */
  readonly realm?: string;
}

// ---------------------------------------------------------------------------------------------
// Replies

interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Json;
}

const ALLOW = 'GET, HEAD, OPTIONS';
const TITLES: Readonly<Record<number, [string, string]>> = {
  400: ['invalid-parameters', 'Invalid parameters'],
  401: ['unauthorized', 'Unauthorized'],
  404: ['not-found', 'Not found'],
  405: ['method-not-allowed', 'Method not allowed'],
  406: ['not-acceptable', 'Not acceptable'],
  500: ['internal', 'Internal error'],
};

function json(body: Json, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status: 200, headers: { 'content-type': 'application/json', ...headers }, body };
}

// ---------------------------------------------------------------------------------------------
// Query parameters

interface ParameterError extends JsonObject {
  readonly parameter: string;
  readonly in: 'query' | 'path';
  readonly message: string;
}

type Parsed =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };
type Rule = (raw: string) => Parsed;

const ok = (value: unknown): Parsed => ({ ok: true, value });
const fail = (message: string): Parsed => ({ ok: false, message });

const integer =
  (min: number, max: number): Rule =>
  (raw) => {
    if (!/^-?\d+$/.test(raw)) return fail(`must be an integer, not "${raw}"`);
    const value = Number(raw);
    if (value < min) return fail(`must be >= ${min}`);
    return value > max ? fail(`must be <= ${max}`) : ok(value);
  };

/** `type: number, minimum: 0`: a decimal as JSON writes it. */
const number: Rule = (raw) => {
  if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(raw)) return fail('must be a number');
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? ok(value) : fail('must be a number >= 0');
};

const dateTime: Rule = (raw) => {
  const instant = parseDateTime(raw);
  return instant === undefined ? fail('must be an RFC 3339 date-time') : ok(instant);
};
const date: Rule = (raw) => (isFullDate(raw) ? ok(raw) : fail('must be a date, YYYY-MM-DD'));
const boolean: Rule = (raw) =>
  raw === 'true' ? ok(true) : raw === 'false' ? ok(false) : fail('must be true or false');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid: Rule = (raw) => (UUID.test(raw) ? ok(raw) : fail('must be a UUID'));
const country: Rule = (raw) => (/^[A-Z]{2}$/.test(raw) ? ok(raw) : fail('must be two capitals'));
const nonEmpty: Rule = (raw) => (raw === '' ? fail('must not be empty') : ok(raw));

/** `status`: an array, `explode: false` (comma-separated), minItems 1. */
const statuses: Rule = (raw) => {
  const items = raw.split(',');
  const bad = items.findIndex((item) => !isStatus(item));
  return bad === -1 ? ok(items) : fail(`item ${bad + 1} must be one of ${STATUSES.join(', ')}`);
};

/** A sort value: fields, comma-separated, each with an optional leading `-`, each once. */
const sortOf =
  (fields: readonly string[], pattern: RegExp): Rule =>
  (raw) => {
    if (!pattern.test(raw)) return fail('is not a sort this list takes');
    const keys: SortKey[] = [];
    for (const part of raw.split(',')) {
      const descending = part.startsWith('-');
      const field = descending ? part.slice(1) : part;
      if (!fields.includes(field)) return fail(`cannot order by ${field}`);
      if (keys.some((key) => key.field === field)) return fail(`names ${field} twice`);
      keys.push({ field, descending });
    }
    return ok(keys);
  };

const PAGING: Readonly<Record<string, Rule>> = {
  limit: integer(1, 50),
  page: integer(1, Number.MAX_SAFE_INTEGER),
};

const INVOICE_PARAMETERS: Readonly<Record<string, Rule>> = {
  status: statuses,
  customer_id: uuid,
  amount_min: number,
  amount_max: number,
  issued_after: dateTime,
  due_before: date,
  recurring: boolean,
  sort: sortOf(['issued_at', 'amount', 'due_on', 'status'], /^-?[a-z_]+(,-?[a-z_]+)*$/),
  ...PAGING,
};

const CUSTOMER_PARAMETERS: Readonly<Record<string, Rule>> = {
  country,
  q: nonEmpty,
  created_after: dateTime,
  sort: sortOf(['name', 'created_at'], /^-?(name|created_at)$/),
  ...PAGING,
};

interface Query {
  /** The values read, by parameter. */
  readonly values: ReadonlyMap<string, unknown>;
  /** The declared parameters as the request wrote them, in its order. */
  readonly given: readonly (readonly [string, string])[];
  readonly errors: readonly ParameterError[];
}

function decode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

function decodePath(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** application/x-www-form-urlencoded; every parameter single-valued (status: comma-separated). */
function readQuery(
  search: string,
  rules: Readonly<Record<string, Rule>>,
  unknown: 'reject' | 'ignore',
): Query {
  const errors: ParameterError[] = [];
  const raw = new Map<string, string>();
  const repeated = new Set<string>();
  for (const part of search.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = decode(equals === -1 ? part : part.slice(0, equals));
    const value = decode(equals === -1 ? '' : part.slice(equals + 1));
    if (name === undefined || value === undefined) {
      errors.push({ parameter: name ?? part, in: 'query', message: 'is not valid UTF-8' });
    } else if (!Object.hasOwn(rules, name)) {
      if (unknown === 'reject') {
        errors.push({ parameter: name, in: 'query', message: 'is not a parameter here' });
      }
    } else if (raw.has(name)) {
      if (!repeated.has(name)) {
        errors.push({ parameter: name, in: 'query', message: 'must be given at most once' });
      }
      repeated.add(name);
    } else raw.set(name, value);
  }
  const values = new Map<string, unknown>();
  for (const [name, value] of raw) {
    if (repeated.has(name)) continue;
    const parsed = rules[name]?.(value) ?? fail('is not a parameter here');
    if (parsed.ok) values.set(name, parsed.value);
    else errors.push({ parameter: name, in: 'query', message: parsed.message });
  }
  return { values, given: [...raw], errors };
}

/** The record passes every filter given (AND); `matchers` by parameter name. */
function keeper<Item>(
  values: ReadonlyMap<string, unknown>,
  tests: Readonly<Record<string, (item: Item, value: never) => boolean>>,
): (item: Item) => boolean {
  const given = [...values].filter(([name]) => Object.hasOwn(tests, name));
  return (item) => given.every(([name, value]) => tests[name]?.(item, value as never) === true);
}

// ---------------------------------------------------------------------------------------------
// The service

interface Data {
  readonly invoices: readonly Invoice[];
  readonly customers: readonly Customer[];
  readonly invoicesById: ReadonlyMap<string, Invoice>;
  readonly customersById: ReadonlyMap<string, Customer>;
}

function loadData(): Data {
  const { invoices, customers } = loadBilling();
  return {
    invoices,
    customers,
    invoicesById: new Map(invoices.map((invoice) => [invoice.id, invoice])),
    customersById: new Map(customers.map((customer) => [customer.id, customer])),
  };
}

type Route =
  | { readonly kind: 'invoices' | 'customers' }
  | { readonly kind: 'invoice' | 'customer'; readonly id: string };

function route(pathname: string): Route | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (path === '/v1/invoices') return { kind: 'invoices' };
  if (path === '/v1/customers') return { kind: 'customers' };
  const item = /^\/v1\/(invoices|customers)\/([^/]+)$/.exec(path);
  if (item?.[1] === undefined || item[2] === undefined) return undefined;
  return { kind: item[1] === 'invoices' ? 'invoice' : 'customer', id: item[2] };
}

function handler(options: Options, tokens: Tokens) {
  const data = loadData();
  const problem = (status: number, detail: string, extra: JsonObject = {}): Reply => {
    const [kind, title] = TITLES[status] ?? ['internal', 'Internal error'];
    const type = options.problemType?.(kind) ?? `urn:problem-type:stockmock:${kind}`;
    return {
      status,
      headers: { 'content-type': 'application/problem+json' },
      body: { type, title, status, detail, ...extra },
    };
  };
  const badRequest = (errors: readonly ParameterError[]): Reply =>
    problem(400, errors.map((e) => `${e.parameter} ${e.message}`).join('; '), { errors });
  const unknown = options.unknownParameters ?? 'reject';

  function levelOf(authorization: string | undefined): Level | 'missing' | 'invalid' {
    const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization ?? '');
    if (match?.[1]?.toLowerCase() !== 'bearer') return 'missing';
    if (match[2] === tokens.support) return 'support';
    return match[2] === tokens.partner ? 'partner' : 'invalid';
  }

  function listInvoices(search: string): Reply {
    const query = readQuery(search, INVOICE_PARAMETERS, unknown);
    if (query.errors.length > 0) return badRequest(query.errors);
    const keys =
      (query.values.get('sort') as readonly SortKey[] | undefined) ?? DEFAULT_INVOICE_SORT;
    const page = (query.values.get('page') as number | undefined) ?? 1;
    const limit = (query.values.get('limit') as number | undefined) ?? options.defaultLimit ?? 20;
    const { items, total } = (options.pager ?? referencePager)({
      all: data.invoices,
      keep: keeper<Invoice>(query.values, INVOICE_MATCHERS),
      compare: orderBy(keys, INVOICE_COMPARERS),
      keys,
      page,
      limit,
    });
    const pastTheEnd = options.pastTheEnd ?? 'empty';
    if (pastTheEnd !== 'empty' && page > Math.max(1, Math.ceil(total / limit))) {
      return problem(pastTheEnd, `Page ${page} is past the last page of this list.`);
    }
    return json(
      { items: items.map((invoice) => invoice.record), meta: { total } },
      options.listHeaders?.(total, page, limit),
    );
  }

  function listCustomers(search: string, level: Level, origin: string): Reply {
    const query = readQuery(search, CUSTOMER_PARAMETERS, unknown);
    if (query.errors.length > 0) return badRequest(query.errors);
    const keys = (query.values.get('sort') as readonly SortKey[] | undefined) ?? [];
    const page = (query.values.get('page') as number | undefined) ?? 1;
    const limit = (query.values.get('limit') as number | undefined) ?? 20;
    const list = data.customers
      .filter(keeper<Customer>(query.values, CUSTOMER_MATCHERS))
      .sort(orderBy(keys, CUSTOMER_COMPARERS));
    const last = Math.max(1, Math.ceil(list.length / limit));
    const pastTheEnd = options.pastTheEnd ?? 'empty';
    if (pastTheEnd !== 'empty' && page > last) {
      return problem(pastTheEnd, `Page ${page} is past the last page of this list.`);
    }
    // Links keep every filter and the sort as written, the limit (its default too), their page.
    const kept = query.given.filter(([name]) => name !== 'page' && name !== 'limit');
    const link = (target: number, rel: string): string => {
      const pairs = [...kept, ['limit', String(limit)], ['page', String(target)]];
      const written = pairs.map(
        ([n = '', v = '']) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`,
      );
      return `<${origin}/v1/customers?${written.join('&')}>; rel="${rel}"`;
    };
    const links = [link(1, 'first'), link(last, 'last')];
    if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
    if (page < last) links.push(link(page + 1, 'next'));
    const items = list.slice((page - 1) * limit, page * limit);
    return json(
      items.map((customer) => standardCustomerView(customer, level)),
      { link: links.join(', '), ...options.listHeaders?.(list.length, page, limit) },
    );
  }

  function item(kind: 'invoice' | 'customer', segment: string, search: string, level: Level) {
    const query = readQuery(search, {}, unknown);
    const id = decodePath(segment);
    const valid = kind === 'invoice' ? /^inv_[0-9a-z]{6}$/ : UUID;
    const errors = [...query.errors];
    if (id === undefined || !valid.test(id)) {
      const parameter = kind === 'invoice' ? 'invoiceId' : 'customerId';
      errors.push({ parameter, in: 'path', message: `is not a ${parameter}` });
    }
    if (errors.length > 0 || id === undefined) return badRequest(errors);
    if (kind === 'invoice') {
      const invoice = data.invoicesById.get(id);
      return invoice === undefined ? problem(404, `No invoice ${id}.`) : json(invoice.record);
    }
    const customer = data.customersById.get(id);
    return customer === undefined
      ? problem(404, `No customer ${id}.`)
      : json({ data: standardCustomerView(customer, level) });
  }

  return (request: IncomingMessage): Reply => {
    const target = request.url ?? '/';
    let url: URL;
    try {
      // Concatenated, not resolved: a path such as //x stays a path.
      url = new URL(target.startsWith('/') ? `http://placeholder${target}` : target, 'http://x');
    } catch {
      return problem(400, 'The request target is not a URL.');
    }
    const found = route(url.pathname);
    if (found === undefined) return problem(404, `Nothing is served at ${url.pathname}.`);
    const method = request.method ?? 'GET';
    if (method === 'OPTIONS') {
      return {
        status: 204,
        headers: {
          allow: ALLOW,
          'access-control-allow-methods': ALLOW,
          'access-control-allow-headers':
            request.headers['access-control-request-headers'] ?? 'Authorization',
          'access-control-max-age': '600',
        },
      };
    }
    if (method !== 'GET' && method !== 'HEAD') {
      const reply = problem(405, `${url.pathname} takes ${ALLOW}, not ${method}.`);
      return { ...reply, headers: { ...reply.headers, allow: ALLOW } };
    }
    const level = levelOf(request.headers.authorization);
    if (level === 'missing' || level === 'invalid') {
      const reply = problem(401, 'Send a known token: Authorization: Bearer <token>.');
      const error = level === 'invalid' ? ', error="invalid_token"' : '';
      const challenge = `Bearer realm="${options.realm ?? 'stockmock'}"${error}`;
      return { ...reply, headers: { ...reply.headers, 'www-authenticate': challenge } };
    }
    if (!acceptsJson(request.headers.accept)) return problem(406, 'Answers are application/json.');
    const search = url.search.slice(1);
    const origin = `http://${request.headers.host ?? 'localhost'}`;
    switch (found.kind) {
      case 'invoices':
        return listInvoices(search);
      case 'customers':
        return listCustomers(search, level, origin);
      default:
        return item(found.kind, found.id, search, level);
    }
  };
}

async function startServer(options: Options): Promise<RunningServer> {
  const answer = handler(options, DEMO_TOKENS);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      let reply: Reply;
      try {
        reply = answer(request);
      } catch (error) {
        reply = {
          status: 500,
          headers: { 'content-type': 'application/problem+json' },
          body: {
            type: 'about:blank',
            title: 'Internal error',
            status: 500,
            detail: String(error),
          },
        };
      }
      const body =
        reply.body === undefined ? undefined : (options.body ?? ((b: Json) => b))(reply.body);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = {
        ...reply.headers,
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'WWW-Authenticate, Allow, Link',
      };
      if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
      response.writeHead(reply.status, headers);
      // HEAD: GET's status and headers, no body (RFC 9110 §9.3.2).
      response.end(request.method === 'HEAD' ? undefined : payload);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens: DEMO_TOKENS,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}

function server(
  name: string,
  kind: UnlinkedServer['kind'],
  rule: string,
  options: Options = {},
): UnlinkedServer {
  return { name, kind, rule, start: () => startServer(options) };
}

// ---------------------------------------------------------------------------------------------
// The servers

export const REFERENCE: UnlinkedServer = server(
  'reference',
  'reference',
  'the link-less spec as docs/declare-a-resource.md reads its x-stockmock: filters (AND), sort ' +
    '(default -issued_at, ties by id ascending), then page (page from 1, limit default 20, max ' +
    '50); {items, meta: {total}}; customers with a Link header; docs/behaviour.md for the rest',
);

/** Every JSON object's members in reverse order, recursively. */
function reversedMembers(value: Json): Json {
  if (Array.isArray(value)) return (value as readonly Json[]).map(reversedMembers);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as JsonObject).reverse();
  return Object.fromEntries(entries.map(([key, member]) => [key, reversedMembers(member)]));
}

export const DIFFERENT: readonly UnlinkedServer[] = [
  server(
    'page past the end is a 400',
    'different',
    'a page past the last answers a 400 problem instead of 200 and no items (docs/contract-' +
      'checker.md: past-the-end "holds no items … or is a 4xx"; the stand-in default is 200): ' +
      'the lists declare 400 and no 404, so a 404 there would be an answer they do not declare',
    { pastTheEnd: 400 },
  ),
  server(
    'extra headers',
    'different',
    'lists add X-Total-Count, X-Page and X-Per-Page, and every list answer Cache-Control: ' +
      'private, no-store: headers the spec does not declare are free',
    {
      listHeaders: (total, page, limit) => ({
        'x-total-count': String(total),
        'x-page': String(page),
        'x-per-page': String(limit),
        'cache-control': 'private, no-store',
      }),
    },
  ),
  server(
    'members in another order',
    'different',
    'every JSON object with its members reversed ({meta, items}; an invoice from memo to id; ' +
      'problems from detail to type): JSON objects are unordered (RFC 8259 §4)',
    { body: reversedMembers },
  ),
  server(
    'unknown parameters ignored',
    'different',
    'a query parameter no operation declares is ignored instead of refused with a 400 ' +
      "(docs/contract-checker.md negative.unknown-parameters-400: the stand-in's decision)",
    { unknownParameters: 'ignore' },
  ),
  server(
    'problem types and realm of its own',
    'different',
    'problem types are https URLs of the service, and the 401 challenge is Bearer ' +
      'realm="billing" (docs/contract-checker.md: problem types any URI reference, the realm ' +
      'any realm at the interface level)',
    {
      problemType: (kind) => `https://billing.example.com/problems/${kind}`,
      realm: 'billing',
    },
  ),
];

/** The reference's page, changed afterwards. */
const afterReference =
  (change: (result: PageResult, context: PageContext) => PageResult): Pager =>
  (context) =>
    change(referencePager(context), context);

/** The filtered, sorted list: what the reference pages. */
const listOf = ({ all, keep, compare }: PageContext): Invoice[] => all.filter(keep).sort(compare);

export const BROKEN: readonly UnlinkedServer[] = [
  server(
    'total one short',
    'broken',
    'envelope total (meta.total) is "the number of records the filters keep over all pages": it ' +
      'says one fewer, so a client that stops once it has read total items never reads the last',
    { pager: afterReference((result) => ({ ...result, total: Math.max(0, result.total - 1) })) },
  ),
  server(
    'total counted before the filter',
    'broken',
    'meta.total counts the records the filters keep: it counts every invoice, so a filtered ' +
      'list says 57 and a client asks for pages that come back empty, or shows a wrong count',
    { pager: afterReference((result, { all }) => ({ ...result, total: all.length })) },
  ),
  server(
    'page ignored',
    'broken',
    'page (components.parameters.Page) selects the page: every page is page 1, so a client ' +
      'paging by number reads the first page over and over and never the rest',
    { pager: (context) => referencePager({ ...context, page: 1 }) },
  ),
  server(
    'page numbers from 0',
    'broken',
    'Page minimum: 1, default 1, page 1 is the first: page n answers the items of page n + 1, ' +
      'so a client never sees the first limit records',
    { pager: (context) => referencePager({ ...context, page: context.page + 1 }) },
  ),
  server(
    'pages overlap by one',
    'broken',
    'page n holds items (n − 1) × limit + 1 … n × limit: page 2 and later start one item early, ' +
      'so each page repeats the previous page’s last invoice and the client shows it twice',
    {
      pager: (context) => {
        const list = listOf(context);
        const start = Math.max(0, (context.page - 1) * context.limit - (context.page > 1 ? 1 : 0));
        return { items: list.slice(start, start + context.limit), total: list.length };
      },
    },
  ),
  server(
    'limit held to 25',
    'broken',
    'Limit maximum: 50: any limit above 25 is quietly served as 25 (for the page and the ' +
      'offset), so a client asking limit=50 gets half a page and, reading a short page as the ' +
      'last, stops after 25 invoices',
    { pager: (context) => referencePager({ ...context, limit: Math.min(context.limit, 25) }) },
  ),
  server(
    'last item dropped',
    'broken',
    'the pages hold every record the filters keep: the list’s last record is never served ' +
      '(an off-by-one end index) while meta.total still counts it, so a client never sees it',
    {
      pager: (context) => {
        const list = listOf(context);
        const served = list.slice(0, -1);
        const start = (context.page - 1) * context.limit;
        return { items: served.slice(start, start + context.limit), total: list.length };
      },
    },
  ),
  server(
    'a last page of one item is empty',
    'broken',
    'the last page holds the rest of the list: when that rest is one item (total ≡ 1 mod ' +
      'limit), page past the full ones answers no items, so the client loses that record',
    {
      pager: afterReference((result, { page, limit }) =>
        page > 1 && limit > 1 && result.items.length === 1 ? { ...result, items: [] } : result,
      ),
    },
  ),
  server(
    'an exactly full last page loses its last item',
    'broken',
    'the last page holds the rest of the list: when the rest fills it exactly (total a ' +
      'multiple of limit), its last item is cut (the end clamped to total − 1), so the client ' +
      'never sees it',
    {
      pager: afterReference((result, { page, limit }) =>
        result.items.length === limit && page * limit === result.total
          ? { ...result, items: result.items.slice(0, -1) }
          : result,
      ),
    },
  ),
  server(
    'a last page one short of full repeats an item',
    'broken',
    'each record is on exactly one page: when the last page is one short of full it is ' +
      'anchored to the list’s end and filled with the previous page’s last item, which the ' +
      'client shows twice',
    {
      pager: (context) => {
        const result = referencePager(context);
        const start = (context.page - 1) * context.limit;
        const oneShort = context.limit > 1 && result.items.length === context.limit - 1;
        if (context.page === 1 || !oneShort) return result;
        const list = listOf(context);
        return { ...result, items: list.slice(start - 1, start + context.limit - 1) };
      },
    },
  ),
  server(
    'sort kept on page 1 only',
    'broken',
    'sort orders the whole list, every page: pages after the first come in the default order ' +
      '(-issued_at), so a client paging sort=amount sees some invoices twice and others never',
    {
      pager: (context) =>
        context.page === 1
          ? referencePager(context)
          : referencePager({
              ...context,
              compare: orderBy(DEFAULT_INVOICE_SORT, INVOICE_COMPARERS),
            }),
    },
  ),
  server(
    'filter applied to each page',
    'broken',
    'filters keep records before paging (docs/declare-a-resource.md: real filtering, total over ' +
      'all pages): each page of the unfiltered list is filtered afterwards, so pages hold fewer ' +
      'than limit items and a client stops at the first short page, missing matches',
    {
      pager: (context) => {
        const everything = [...context.all].sort(context.compare);
        const start = (context.page - 1) * context.limit;
        return {
          items: everything.slice(start, start + context.limit).filter(context.keep),
          total: everything.filter(context.keep).length,
        };
      },
    },
  ),
  server(
    'ties ordered differently on every other page',
    'broken',
    'sort: "Ties keep the invoice id’s order" (docs: ties by the key, ascending): on even ' +
      'pages ties come by id descending, as a database without a unique tie-breaker may, so ' +
      'ties that straddle a page boundary are shown twice or never',
    {
      pager: (context) =>
        context.page % 2 === 0
          ? referencePager({
              ...context,
              compare: orderBy(context.keys, INVOICE_COMPARERS, (a, b) => byCodePoints(b, a)),
            })
          : referencePager(context),
    },
  ),
  server(
    'default limit 10',
    'broken',
    'Limit default: 20: without limit a page holds 10, so a client that pages with the ' +
      'default and expects 20 a page reads a short first page as the whole list',
    { defaultLimit: 10 },
  ),
];
