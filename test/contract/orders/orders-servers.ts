/**
 * Servers for the orders example (examples/orders/openapi.yaml), written from the spec, its
 * `x-stockmock` declarations, orders.yaml and the docs (serve-your-own-spec, declare-a-resource,
 * behaviour) alone, on plain node:http. One service answers as the reference; each variant plugs
 * one hook into it, so that it differs from the reference in exactly one thing.
 *
 * The reference is a service as a team would write it for this spec: orders listed and read from
 * orders.yaml; placing an order answers the order as placed (numbered on from the fixture, not
 * stored, so that every list and item answer stays the fixture's); cancelling answers 204; the
 * customers come from the service's own directory; the summary counts the fixture's orders.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parse } from 'yaml';

export interface OrdersServer {
  readonly name: string;
  readonly kind: 'reference' | 'broken' | 'different';
  /** The rule broken (and how a client suffers), or the choice made, with its source. */
  readonly rule: string;
  /**
   * 'interface': breaks (or, for 'different', chooses within) what the spec or HTTP declares;
   * 'stand-in': departs from a decision of stockmock's docs (docs/behaviour.md) only.
   */
  readonly level: 'interface' | 'stand-in';
  start(): Promise<RunningOrdersServer>;
}

export interface RunningOrdersServer {
  readonly url: string;
  readonly tokens: Tokens;
  close(): Promise<void>;
}

export interface Tokens {
  readonly clerk: string;
  readonly manager: string;
}

export type Level = keyof Tokens;

export type Json = null | boolean | number | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

// ---------------------------------------------------------------------------------------------
// Data

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const ORDERS_FIXTURE = resolve(REPO_ROOT, 'examples/orders/orders.yaml');

/** examples/orders/stockmock.config.yaml `tokens`. */
export const DEMO_TOKENS: Tokens = { clerk: 'clerk-demo-token', manager: 'manager-demo-token' };

/** components.schemas.OrderStatus. */
export const STATUSES = ['pending', 'shipped', 'cancelled'] as const;
export type OrderStatus = (typeof STATUSES)[number];

export interface Order {
  readonly id: number;
  readonly reference: string;
  readonly customer: string;
  readonly status: OrderStatus;
  readonly total: number;
}

/** x-stockmock-collections.orders.record's properties, in their declared order. */
const RECORD_FIELDS: readonly (keyof Order)[] = ['id', 'reference', 'customer', 'status', 'total'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Array.isArray does not narrow a readonly array out of a union: test for an object instead. */
export function isJsonObject(value: Json | undefined): value is JsonObject {
  return isRecord(value);
}

export function isJsonArray(value: Json | undefined): value is readonly Json[] {
  return Array.isArray(value);
}

/** A parsed YAML or JSON value as JSON, or an error. */
function toJson(value: unknown, where: string): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((item, i) => toJson(item, `${where}[${i}]`));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, toJson(item, `${where}.${key}`)]),
    );
  }
  throw new Error(`${where}: not a JSON value`);
}

export function isStatus(value: unknown): value is OrderStatus {
  return STATUSES.some((status) => status === value);
}

/** One fixture entry, checked against x-stockmock-collections.orders.record. */
function toOrder(entry: unknown, where: string): Order {
  if (!isRecord(entry)) throw new Error(`${where}: not an object`);
  const extra = Object.keys(entry).filter((key) => !RECORD_FIELDS.some((field) => field === key));
  if (extra.length > 0) throw new Error(`${where}: undeclared fields ${extra.join(', ')}`);
  const { id, reference, customer, status, total } = entry;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new Error(`${where}.id: not a positive integer`);
  }
  if (typeof reference !== 'string' || reference === '') {
    throw new Error(`${where}.reference: not a non-empty string`);
  }
  if (typeof customer !== 'string' || customer === '') {
    throw new Error(`${where}.customer: not a non-empty string`);
  }
  if (!isStatus(status)) throw new Error(`${where}.status: not one of ${STATUSES.join(', ')}`);
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) {
    throw new Error(`${where}.total: not an integer >= 0`);
  }
  return { id, reference, customer, status, total };
}

/** The `orders` list of a fixture file (examples/orders/orders.yaml by default), by id. */
export function loadOrders(file = ORDERS_FIXTURE): Order[] {
  const document: unknown = parse(readFileSync(file, 'utf8'));
  const list = isRecord(document) ? document['orders'] : undefined;
  if (!Array.isArray(list)) throw new Error(`${file}: no orders list`);
  const orders = list.map((entry, i) => toOrder(entry, `${file}: orders[${i}]`));
  return orders.sort((a, b) => a.id - b.id);
}

export interface Customer {
  readonly name: string;
  readonly country: string;
}

/**
 * The service's customer directory: every customer of orders.yaml, with its country (ISO
 * 3166-1 alpha-2, as listCustomers' `pattern: ^[A-Z]{2}$` asks). The spec's example gives the
 * first two.
 */
export const CUSTOMERS: readonly Customer[] = [
  { name: 'Ada Shop', country: 'GB' },
  { name: 'Brightwater Ltd', country: 'IE' },
  { name: 'Cobalt & Co', country: 'NL' },
  { name: 'Dune Outfitters', country: 'ES' },
  { name: 'Ember Café', country: 'FR' },
];

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// Query: filters, pagination, links

export interface ListFilters {
  readonly status?: OrderStatus;
  readonly customer?: string;
  readonly min_total?: number;
}

/** How each filter tests an order, by query parameter. */
export type Matchers = {
  readonly [K in keyof ListFilters]-?: (
    order: Order,
    value: NonNullable<ListFilters[K]>,
  ) => boolean;
};

/** Unicode-aware caseless form: NFC first, so that composed and decomposed letters match. */
/** A-Z to a-z, and nothing else: the fold of a match that knows ASCII alone. */
function asciiLower(text: string): string {
  return text.replaceAll(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase();
}

/** listOrders' `x-stockmock.filters`, with the parameters' descriptions. */
export const STANDARD_MATCHERS: Matchers = {
  // match: exact.
  status: (order, value) => order.status === value,
  // match: contains; "Case-insensitive, literal substring of the customer's name".
  customer: (order, value) => foldCase(order.customer).includes(foldCase(value)),
  // match: min; "At least this total".
  min_total: (order, value) => order.total >= value,
};

function matchesAll(order: Order, filters: ListFilters, matchers: Matchers): boolean {
  return (
    (filters.status === undefined || matchers.status(order, filters.status)) &&
    (filters.customer === undefined || matchers.customer(order, filters.customer)) &&
    (filters.min_total === undefined || matchers.min_total(order, filters.min_total))
  );
}

const FILTER_NAMES = ['status', 'customer', 'min_total'] as const;
const LIST_PARAMETERS: readonly string[] = [...FILTER_NAMES, 'limit', 'page'];

export interface ListQuery {
  readonly filters: ListFilters;
  /** The filters as the request wrote them: the links keep them as given. */
  readonly given: readonly [string, string][];
  readonly limit: number;
  readonly limitGiven: boolean;
  readonly page: number;
}

type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** components.parameters.Limit: 1..100, default 10. */
export const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

function integerIn(raw: string, min: number, max: number): Parsed<number> {
  // Digits only: "1.5", "1e1", "+3", " 3" and "0x10" are not integers a client meant.
  if (!/^-?\d+$/.test(raw)) return { ok: false, message: `must be an integer, not "${raw}"` };
  const value = Number(raw);
  if (value < min) return { ok: false, message: `must be >= ${min}` };
  if (value > max) return { ok: false, message: `must be <= ${max}` };
  return { ok: true, value };
}

function parseStatus(raw: string): Parsed<OrderStatus> {
  return isStatus(raw)
    ? { ok: true, value: raw }
    : { ok: false, message: `must be one of ${STATUSES.join(', ')}` };
}

interface ParameterError extends JsonObject {
  readonly parameter: string;
  readonly in: 'query' | 'path';
  readonly message: string;
}

/**
 * Reads single-valued parameters: a repeated one is an error, and so is an unknown one when
 * `unknown` is 'reject'. Returns a reader of one parameter's value.
 */
function singleValues(
  search: URLSearchParams,
  allowed: readonly string[],
  unknown: 'reject' | 'ignore',
  errors: ParameterError[],
): (name: string) => string | undefined {
  for (const name of new Set(search.keys())) {
    if (!allowed.includes(name)) {
      if (unknown === 'reject') {
        errors.push({
          parameter: name,
          in: 'query',
          message: 'is not a parameter of this operation',
        });
      }
    } else if (search.getAll(name).length > 1) {
      errors.push({ parameter: name, in: 'query', message: 'must be given at most once' });
    }
  }
  return (name) => (allowed.includes(name) ? (search.get(name) ?? undefined) : undefined);
}

function readListQuery(
  search: URLSearchParams,
  unknown: 'reject' | 'ignore',
  errors: ParameterError[],
): ListQuery {
  const single = singleValues(search, LIST_PARAMETERS, unknown, errors);
  const read = <T>(name: string, parseValue: (raw: string) => Parsed<T>): T | undefined => {
    const raw = single(name);
    if (raw === undefined) return undefined;
    const parsed = parseValue(raw);
    if (parsed.ok) return parsed.value;
    errors.push({ parameter: name, in: 'query', message: parsed.message });
    return undefined;
  };
  // min_total: { type: integer, minimum: 0 } with no maximum: a huge one is still an integer,
  // and simply matches nothing.
  const status = read('status', parseStatus);
  const customer = single('customer');
  const minTotal = read('min_total', (raw) => integerIn(raw, 0, Number.POSITIVE_INFINITY));
  const filters: ListFilters = {
    ...(status === undefined ? {} : { status }),
    ...(customer === undefined ? {} : { customer }),
    ...(minTotal === undefined ? {} : { min_total: minTotal }),
  };
  const given: [string, string][] = [];
  for (const name of FILTER_NAMES) {
    const raw = single(name);
    if (raw !== undefined) given.push([name, raw]);
  }
  const limit = read('limit', (raw) => integerIn(raw, 1, MAX_LIMIT));
  const page = read('page', (raw) => integerIn(raw, 1, Number.MAX_SAFE_INTEGER));
  return {
    filters,
    given,
    limit: limit ?? DEFAULT_LIMIT,
    limitGiven: limit !== undefined,
    page: page ?? 1,
  };
}

export type LinkRelation = 'first' | 'last' | 'prev' | 'next';

export interface Links {
  readonly first: string;
  readonly last: string;
  readonly prev: string | null;
  readonly next: string | null;
}

/** The number of pages: max(1, ceil(total / size)). */
export function standardLastPage(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

// ---------------------------------------------------------------------------------------------
// Access levels and views

/** The `views` of listOrders and getOrder (the same on both). */
const VIEWS: Readonly<Record<Level, { fields: readonly (keyof Order)[]; rest: boolean }>> = {
  clerk: { fields: ['id', 'reference', 'status'], rest: false },
  manager: { fields: ['id', 'reference', 'status'], rest: true },
};

/**
 * An order as one level sees it: the view's fields in order; with `rest`, every other declared
 * field follows in the record's order (docs/declare-a-resource.md).
 */
export function standardView(order: Order, level: Level): JsonObject {
  const view = VIEWS[level];
  const names = [...view.fields];
  if (view.rest) names.push(...RECORD_FIELDS.filter((name) => !view.fields.includes(name)));
  return Object.fromEntries(names.map((name) => [name, order[name]]));
}

export interface ViewContext {
  readonly level: Level;
  readonly place: 'list' | 'item' | 'created';
}

// ---------------------------------------------------------------------------------------------
// Requests and replies

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Json;
}

export type Operation =
  | 'listOrders'
  | 'createOrder'
  | 'getOrder'
  | 'cancelOrder'
  | 'listCustomers'
  | 'orderSummary'
  | 'serviceStatus'
  | 'health';

/** What a reply answered, for the hooks that rewrite it. */
export interface ReplyContext {
  /** The operation; undefined for an unknown path, a 405 and OPTIONS. */
  readonly operation: Operation | undefined;
  readonly method: string;
}

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

const PROBLEMS = {
  'invalid-parameters': [400, 'Invalid parameters'],
  unauthorized: [401, 'Unauthorized'],
  'not-found': [404, 'Not found'],
  'method-not-allowed': [405, 'Method not allowed'],
  'not-acceptable': [406, 'Not acceptable'],
  'invalid-order': [422, 'Invalid order'],
  internal: [500, 'Internal error'],
} as const;
type ProblemKind = keyof typeof PROBLEMS;

/** RFC 9457 problem details: type, title, status, detail. */
export function problem(kind: ProblemKind, detail: string, extra: JsonObject = {}): Reply {
  const [status, title] = PROBLEMS[kind];
  return {
    status,
    headers: { 'content-type': PROBLEM_TYPE },
    body: { type: `urn:problem-type:orders:${kind}`, title, status, detail, ...extra },
  };
}

function badRequest(errors: readonly ParameterError[]): Reply {
  const detail = errors.map((e) => `${e.parameter} ${e.message}`).join('; ');
  return problem('invalid-parameters', `Invalid parameters: ${detail}.`, { errors });
}

function json(status: number, body: Json, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body };
}

function withHeaders(reply: Reply, headers: Readonly<Record<string, string>>): Reply {
  return { ...reply, headers: { ...reply.headers, ...headers } };
}

export function withoutHeader(reply: Reply, name: string): Reply {
  return {
    ...reply,
    headers: Object.fromEntries(Object.entries(reply.headers).filter(([key]) => key !== name)),
  };
}

type AuthOutcome =
  { readonly kind: 'level'; readonly level: Level } | { readonly kind: 'missing' | 'invalid' };

/** RFC 6750 §2.1: `Bearer <token>`, the scheme case-insensitive; another scheme is no token. */
function authenticateBearer(authorization: string | undefined, tokens: Tokens): AuthOutcome {
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization ?? '');
  if (match?.[1]?.toLowerCase() !== 'bearer') return { kind: 'missing' };
  const token = match[2];
  if (token === tokens.clerk) return { kind: 'level', level: 'clerk' };
  if (token === tokens.manager) return { kind: 'level', level: 'manager' };
  return { kind: 'invalid' };
}

function unauthorized(realm: string, tokenGiven: boolean): Reply {
  const reply = tokenGiven
    ? problem('unauthorized', 'The bearer token is not known.')
    : problem('unauthorized', 'Send a token: Authorization: Bearer <token>.');
  const challenge = `Bearer realm="${realm}"${tokenGiven ? ', error="invalid_token"' : ''}`;
  return withHeaders(reply, { 'www-authenticate': challenge });
}

/** Whether an Accept admits application/json, media types compared case-insensitively. */
export function standardAcceptsJson(accept: string | undefined): boolean {
  return acceptsJsonBy(accept, (text) => text.toLowerCase());
}

/**
 * RFC 9110 §12.5.1: absent, or any list whose most specific range matching application/json
 * has a q above 0. Media types are compared after `normalise` (the reference: case-insensitive,
 * RFC 9110 §8.3.1).
 */
function acceptsJsonBy(accept: string | undefined, normalise: (text: string) => string): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let best: { specificity: number; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const [type, subtype, more] = normalise(range).split('/');
    if (type === undefined || subtype === undefined || more !== undefined) continue;
    let specificity: number;
    if (type === 'application' && subtype === 'json') specificity = 2;
    else if (type === 'application' && subtype === '*') specificity = 1;
    else if (type === '*' && subtype === '*') specificity = 0;
    else continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=').map((piece) => piece.trim());
      if (key.toLowerCase() === 'q') {
        const weight = Number(value);
        q = value !== '' && Number.isFinite(weight) ? weight : 1;
      }
    }
    if (best === undefined || specificity > best.specificity) best = { specificity, q };
    else if (specificity === best.specificity) best = { specificity, q: Math.max(q, best.q) };
  }
  return best !== undefined && best.q > 0;
}

/** Media types are matched as written: Application/JSON is not application/json. */
export function caseSensitiveAcceptsJson(accept: string | undefined): boolean {
  return acceptsJsonBy(accept, (text) => text);
}

/** createOrder's request body: application/json (a missing Content-Type is read as JSON too). */
function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return essence === JSON_TYPE || /^application\/[^/]+\+json$/.test(essence);
}

/** A path id: OrderId, a positive safe integer in digits, else undefined. */
function parsePathId(segment: string): number | undefined {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape stays as it is, and is no id.
  }
  const parsed = integerIn(decoded, 1, Number.MAX_SAFE_INTEGER);
  return parsed.ok ? parsed.value : undefined;
}

/** RFC 3339 full-date (`format: date`): YYYY-MM-DD, a day the calendar has. */
export function isFullDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

// ---------------------------------------------------------------------------------------------
// Placing an order

export interface OrderLine {
  readonly sku: string;
  readonly quantity: number;
}

export interface OrderInput {
  readonly customer: string;
  readonly lines: readonly OrderLine[];
}

/** What is wrong with a createOrder body, by its requestBody schema; empty: nothing. */
export function standardOrderErrors(body: Json): string[] {
  if (!isJsonObject(body)) return ['the body must be a JSON object'];
  const errors: string[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'customer' && key !== 'lines') errors.push(`${key} is not a member of an order`);
  }
  const customer = body['customer'];
  if (typeof customer !== 'string' || customer === '') {
    errors.push('customer must be a non-empty string');
  }
  const lines = body['lines'];
  if (!isJsonArray(lines)) {
    errors.push('lines must be an array');
    return errors;
  }
  if (lines.length < 1) errors.push('lines must hold at least one line');
  lines.forEach((line, i) => {
    if (!isJsonObject(line)) {
      errors.push(`lines[${i}] must be an object`);
      return;
    }
    for (const key of Object.keys(line)) {
      if (key !== 'sku' && key !== 'quantity') {
        errors.push(`lines[${i}].${key} is not a member of a line`);
      }
    }
    const { sku, quantity } = line;
    if (typeof sku !== 'string' || sku === '') {
      errors.push(`lines[${i}].sku must be a non-empty string`);
    }
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) {
      errors.push(`lines[${i}].quantity must be an integer >= 1`);
    }
  });
  return errors;
}

/** The body as an order, once checked; undefined when it is not shaped as one. */
function toOrderInput(body: Json): OrderInput | undefined {
  if (!isJsonObject(body)) return undefined;
  const { customer, lines } = body;
  if (typeof customer !== 'string' || !isJsonArray(lines)) return undefined;
  const read: OrderLine[] = [];
  for (const line of lines) {
    if (!isJsonObject(line)) return undefined;
    const { sku, quantity } = line;
    if (typeof sku !== 'string' || typeof quantity !== 'number') return undefined;
    read.push({ sku, quantity });
  }
  return { customer, lines: read };
}

/** The price of every unit, in cents (4 units: the spec example's 4200). */
export const UNIT_PRICE = 1050;

/** The order as placed: numbered on from the fixture's highest id, pending, priced per unit. */
export function standardPlacement(input: OrderInput, id: number): Order {
  return {
    id,
    reference: `ORD-${String(id).padStart(4, '0')}`,
    customer: input.customer,
    status: 'pending',
    total: input.lines.reduce((sum, line) => sum + line.quantity * UNIT_PRICE, 0),
  };
}

// ---------------------------------------------------------------------------------------------
// The service

type Route =
  | { readonly kind: 'orders' | 'customers' | 'summary' | 'status' | 'health' }
  | { readonly kind: 'order'; readonly segment: string };

const ALLOW: Readonly<Record<Route['kind'], string>> = {
  orders: 'GET, HEAD, POST, OPTIONS',
  order: 'GET, HEAD, DELETE, OPTIONS',
  customers: 'GET, HEAD, OPTIONS',
  summary: 'GET, HEAD, OPTIONS',
  status: 'GET, HEAD, OPTIONS',
  health: 'GET, HEAD, OPTIONS',
};

/** serviceStatus has `security: []`; /healthz is the service's own, open too. */
const OPEN_OPERATIONS: readonly Operation[] = ['serviceStatus', 'health'];

function matchRoute(pathname: string, trailingSlash: 'same' | 'not-found'): Route | undefined {
  let path = pathname;
  if (path.length > 1 && path.endsWith('/')) {
    if (trailingSlash === 'not-found') return undefined;
    path = path.slice(0, -1);
  }
  switch (path) {
    case '/v1/orders':
      return { kind: 'orders' };
    case '/v1/customers':
      return { kind: 'customers' };
    case '/v1/reports/summary':
      return { kind: 'summary' };
    case '/v1/status':
      return { kind: 'status' };
    case '/healthz':
      return { kind: 'health' };
    default: {
      const segment = /^\/v1\/orders\/([^/]+)$/.exec(path)?.[1];
      return segment === undefined ? undefined : { kind: 'order', segment };
    }
  }
}

function operationOf(route: Route, method: string): Operation | undefined {
  const read = method === 'GET' || method === 'HEAD';
  switch (route.kind) {
    case 'orders':
      return read ? 'listOrders' : method === 'POST' ? 'createOrder' : undefined;
    case 'order':
      return read ? 'getOrder' : method === 'DELETE' ? 'cancelOrder' : undefined;
    case 'customers':
      return read ? 'listCustomers' : undefined;
    case 'summary':
      return read ? 'orderSummary' : undefined;
    case 'status':
      return read ? 'serviceStatus' : undefined;
    case 'health':
      return read ? 'health' : undefined;
  }
}

/** A request's body, read up to 1 MiB. */
interface RequestBody {
  readonly bytes: Buffer;
  readonly tooLarge: boolean;
}

const MAX_BODY = 1024 * 1024;

/**
 * What a variant changes. Each hook gets the reference's behaviour (or its inputs) and returns
 * its replacement; no hook: the reference.
 */
export interface OrdersOptions {
  readonly tokens?: Tokens;
  /** Replaces how some filters test an order. */
  readonly matchers?: Partial<Matchers>;
  /** The filters actually applied, from the request's ones (links keep the request's). */
  readonly filtersOf?: (filters: ListFilters) => ListFilters;
  readonly view?: (order: Order, context: ViewContext, standard: JsonObject) => JsonObject;
  /** The number of pages of a list of `total` items, `size` a page. */
  readonly lastPage?: (total: number, size: number) => number;
  /** The query a link keeps (without its page), from the reference's one. */
  readonly linkQuery?: (
    standard: URLSearchParams,
    relation: LinkRelation,
    page: number,
  ) => URLSearchParams;
  /** What links start with, from the request's origin (the reference: the origin itself). */
  readonly linkBase?: (origin: string) => string;
  /** Whether links write `limit` when the request left it at its default (the reference: yes). */
  readonly linkDefaultLimit?: boolean;
  /** Unknown query parameters of listOrders and getOrder (the reference: a 400). */
  readonly unknownParameters?: 'reject' | 'ignore';
  /** Whether an Accept admits application/json, on listOrders and getOrder (they declare 406). */
  readonly acceptsJson?: (accept: string | undefined) => boolean;
  /** What is wrong with a createOrder body, from the reference's list. */
  readonly orderErrors?: (body: Json, standard: readonly string[]) => readonly string[];
  /** The order placed from an input: `id` is the next one after the fixture's, `sequence` 1, 2… */
  readonly placement?: (input: OrderInput, id: number, sequence: number) => Order;
  /** createOrder's Location for an order placed (the reference: the path of the order). */
  readonly location?: (order: Order, origin: string) => string;
  /** createOrder's `data`, from the input and the reference's one. */
  readonly placedData?: (input: OrderInput, standard: JsonObject) => JsonObject;
  /** The customer directory (the reference: CUSTOMERS) and its order (by name). */
  readonly customers?: readonly Customer[];
  readonly customerOrder?: (a: Customer, b: Customer) => number;
  /** orderSummary's `since` when the request gives none (the reference: none, a 400). */
  readonly defaultSince?: string;
  /** The operations open without a token (the reference: serviceStatus and /healthz). */
  readonly openOperations?: readonly Operation[];
  /** Whether a CORS preflight needs a token (the reference: no). */
  readonly preflightNeedsToken?: boolean;
  /** The realm of the Bearer challenge (the reference: "orders"). */
  readonly realm?: string;
  /** A trailing slash: the same resource (the reference), or no resource. */
  readonly trailingSlash?: 'same' | 'not-found';
  /** Whether a HEAD of this operation is sent with the GET's body (the reference: never). */
  readonly headBody?: (operation: Operation | undefined) => boolean;
  /** Rewrites every reply just before it is sent. */
  readonly rewrite?: (reply: Reply, context: ReplyContext) => Reply;
  /** Extra headers for every reply. */
  readonly extraHeaders?: () => Readonly<Record<string, string>>;
  /** JSON indentation (the reference: none, one line). */
  readonly indent?: number;
  /** Bodies sent with the chunked transfer coding rather than a Content-Length. */
  readonly chunked?: boolean;
}

/** CORS on every answer: any origin; the headers a client needs to read are exposed. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, WWW-Authenticate, Allow',
};

interface Answered {
  readonly operation: Operation | undefined;
  readonly reply: Reply;
}

class OrdersService {
  readonly tokens: Tokens;
  private readonly orders: readonly Order[];
  private readonly matchers: Matchers;
  private readonly options: OrdersOptions;
  private sequence = 0;

  constructor(options: OrdersOptions) {
    this.options = options;
    this.tokens = options.tokens ?? DEMO_TOKENS;
    this.orders = loadOrders();
    this.matchers = { ...STANDARD_MATCHERS, ...options.matchers };
  }

  /** Answers one request; an unexpected error is a 500 problem, as in a real service. */
  answer(request: IncomingMessage, body: RequestBody, origin: string): Answered {
    let answered: Answered;
    try {
      answered = this.handle(request, body, origin);
    } catch (error) {
      answered = {
        operation: undefined,
        reply: problem('internal', `Unexpected error: ${String(error)}`),
      };
    }
    let reply = withHeaders(answered.reply, CORS_HEADERS);
    const extra = this.options.extraHeaders?.();
    if (extra !== undefined) reply = withHeaders(reply, extra);
    const rewrite = this.options.rewrite;
    if (rewrite !== undefined) {
      reply = rewrite(reply, { operation: answered.operation, method: request.method ?? 'GET' });
    }
    return { operation: answered.operation, reply };
  }

  private authenticate(request: IncomingMessage): AuthOutcome {
    return authenticateBearer(request.headers.authorization, this.tokens);
  }

  private handle(request: IncomingMessage, body: RequestBody, origin: string): Answered {
    const raw = request.url ?? '/';
    // Concatenate rather than resolve: a path such as //x must stay a path, not become a host.
    const url = new URL(
      raw.startsWith('/') ? `http://placeholder${raw}` : raw,
      'http://placeholder',
    );
    const route = matchRoute(url.pathname, this.options.trailingSlash ?? 'same');
    const none = (reply: Reply): Answered => ({ operation: undefined, reply });
    if (route === undefined) {
      return none(problem('not-found', `No resource has the path ${url.pathname}.`));
    }
    const allow = ALLOW[route.kind];
    const method = request.method ?? 'GET';
    if (method === 'OPTIONS') return none(this.preflight(request, allow));
    const operation = operationOf(route, method);
    if (operation === undefined) {
      const reply = problem(
        'method-not-allowed',
        `${url.pathname} supports ${allow}, not ${method}.`,
      );
      return none(withHeaders(reply, { allow }));
    }
    const answered = (reply: Reply): Answered => ({ operation, reply });
    let level: Level = 'clerk';
    if (!(this.options.openOperations ?? OPEN_OPERATIONS).includes(operation)) {
      const outcome = this.authenticate(request);
      if (outcome.kind !== 'level') {
        return answered(unauthorized(this.options.realm ?? 'orders', outcome.kind === 'invalid'));
      }
      level = outcome.level;
    }
    // Only listOrders and getOrder declare a 406; elsewhere Accept is disregarded and JSON sent
    // (RFC 9110 §12.5.1 allows either).
    if (operation === 'listOrders' || operation === 'getOrder') {
      const accepts = this.options.acceptsJson ?? standardAcceptsJson;
      if (!accepts(request.headers.accept)) {
        return answered(
          problem('not-acceptable', 'Orders are served as application/json; Accept excludes it.'),
        );
      }
    }
    switch (operation) {
      case 'listOrders':
        return answered(this.list(url, level, origin));
      case 'getOrder':
        return answered(this.item(url, route.kind === 'order' ? route.segment : '', level));
      case 'createOrder':
        return answered(this.create(request, body, level, origin));
      case 'cancelOrder':
        return answered(this.cancel(route.kind === 'order' ? route.segment : ''));
      case 'listCustomers':
        return answered(this.customers());
      case 'orderSummary':
        return answered(this.summary(url));
      case 'serviceStatus':
        return answered(json(200, { status: 'up' }));
      case 'health':
        return answered(json(200, { status: 'ok', orders: this.orders.length }));
    }
  }

  /** OPTIONS, and CORS preflights: 204 with Allow, without a token. */
  private preflight(request: IncomingMessage, allow: string): Reply {
    const requestedMethod = request.headers['access-control-request-method'];
    const isPreflight = request.headers.origin !== undefined && requestedMethod !== undefined;
    if (!isPreflight) return { status: 204, headers: { allow } };
    if (this.options.preflightNeedsToken === true && this.authenticate(request).kind !== 'level') {
      return unauthorized(this.options.realm ?? 'orders', false);
    }
    const requestedHeaders = request.headers['access-control-request-headers'];
    return {
      status: 204,
      headers: {
        allow,
        'access-control-allow-methods': allow,
        'access-control-allow-headers': requestedHeaders ?? 'Authorization, Content-Type',
        'access-control-max-age': '600',
      },
    };
  }

  private list(url: URL, level: Level, origin: string): Reply {
    const errors: ParameterError[] = [];
    const query = readListQuery(
      url.searchParams,
      this.options.unknownParameters ?? 'reject',
      errors,
    );
    if (errors.length > 0) return badRequest(errors);
    const filters = this.options.filtersOf?.(query.filters) ?? query.filters;
    const matching = this.orders.filter((order) => matchesAll(order, filters, this.matchers));
    const size = query.limit;
    const lastPage = (this.options.lastPage ?? standardLastPage)(matching.length, size);
    const offset = (query.page - 1) * size;
    const data = matching
      .slice(offset, offset + size)
      .map((order) => this.view(order, { level, place: 'list' }));
    const standard = new URLSearchParams(query.given);
    if (query.limitGiven || this.options.linkDefaultLimit !== false) {
      standard.set('limit', String(query.limit));
    }
    const base = this.options.linkBase?.(origin) ?? origin;
    const link = (relation: LinkRelation, target: number): string => {
      const kept = this.options.linkQuery?.(standard, relation, query.page) ?? standard;
      const parameters = new URLSearchParams(kept);
      parameters.set('page', String(target));
      return `${base}/v1/orders?${parameters.toString()}`;
    };
    const links: Links = {
      first: link('first', 1),
      last: link('last', lastPage),
      // Past the end, prev leads back to the last page.
      prev: query.page <= 1 ? null : link('prev', Math.min(query.page - 1, lastPage)),
      next: query.page < lastPage ? link('next', query.page + 1) : null,
    };
    return json(200, { data, links: { ...links } });
  }

  private item(url: URL, segment: string, level: Level): Reply {
    const errors: ParameterError[] = [];
    singleValues(url.searchParams, [], this.options.unknownParameters ?? 'reject', errors);
    const id = parsePathId(segment);
    if (id === undefined) {
      errors.push({ parameter: 'orderId', in: 'path', message: 'must be a positive integer' });
    }
    if (errors.length > 0 || id === undefined) return badRequest(errors);
    const order = this.orders.find((candidate) => candidate.id === id);
    if (order === undefined) return problem('not-found', `No order has the id ${id}.`);
    return json(200, { data: this.view(order, { level, place: 'item' }) });
  }

  private create(request: IncomingMessage, body: RequestBody, level: Level, origin: string): Reply {
    const invalid = (detail: string, errors: readonly string[] = []): Reply =>
      problem('invalid-order', detail, errors.length > 0 ? { errors: [...errors] } : {});
    if (body.tooLarge) return invalid('The body is larger than 1 MiB.');
    if (!isJsonMediaType(request.headers['content-type'])) {
      return invalid('Send the order as application/json.');
    }
    let parsed: Json;
    try {
      parsed = toJson(JSON.parse(body.bytes.toString('utf8')), 'body');
    } catch {
      return invalid('The body is not JSON.');
    }
    const standard = standardOrderErrors(parsed);
    const errors = this.options.orderErrors?.(parsed, standard) ?? standard;
    if (errors.length > 0) {
      return invalid('An order needs a customer and at least one line.', errors);
    }
    const input = toOrderInput(parsed);
    if (input === undefined) return invalid('The body is not an order.');
    this.sequence += 1;
    const nextId = (this.orders.at(-1)?.id ?? 0) + this.sequence;
    const order = (this.options.placement ?? standardPlacement)(input, nextId, this.sequence);
    if (!Number.isSafeInteger(order.total)) {
      return invalid('The order is too large to be placed.');
    }
    const location = this.options.location?.(order, origin) ?? `/v1/orders/${order.id}`;
    const standardData = this.view(order, { level, place: 'created' });
    const data = this.options.placedData?.(input, standardData) ?? standardData;
    return json(201, { data }, { location });
  }

  /** Cancelling an order: 204; an id no order has (or no id at all) is a 404. */
  private cancel(segment: string): Reply {
    const id = parsePathId(segment);
    const order = this.orders.find((candidate) => candidate.id === id);
    if (id === undefined || order === undefined) {
      return problem('not-found', `No order has the id ${decodeSafely(segment)}.`);
    }
    return { status: 204, headers: {} };
  }

  private customers(): Reply {
    const order = this.options.customerOrder ?? ((a, b) => byCodeUnits(a.name, b.name));
    const customers = [...(this.options.customers ?? CUSTOMERS)].sort(order);
    return json(200, {
      customers: customers.map(({ name, country }) => ({ name, country })),
    });
  }

  private summary(url: URL): Reply {
    const values = url.searchParams.getAll('since');
    if (values.length > 1) {
      return badRequest([{ parameter: 'since', in: 'query', message: 'must be given once' }]);
    }
    const since = values[0] ?? this.options.defaultSince;
    if (since === undefined) {
      return badRequest([{ parameter: 'since', in: 'query', message: 'is required' }]);
    }
    if (!isFullDate(since)) {
      return badRequest([
        { parameter: 'since', in: 'query', message: 'must be a date, YYYY-MM-DD' },
      ]);
    }
    // orders.yaml dates no order: every order counts, whatever the day.
    const counts = Object.fromEntries(
      STATUSES.map((status) => [
        status,
        this.orders.filter((order) => order.status === status).length,
      ]),
    );
    return json(200, { since, counts });
  }

  private view(order: Order, context: ViewContext): JsonObject {
    const standard = standardView(order, context.level);
    return this.options.view?.(order, context, standard) ?? standard;
  }
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The request's own scheme and host: links are absolute; a malformed Host falls back. */
function originOf(request: IncomingMessage): string {
  const address = request.socket.localAddress ?? '127.0.0.1';
  const port = request.socket.localPort ?? 80;
  const fallback = `${address.includes(':') ? `[${address}]` : address}:${port}`;
  const host = request.headers.host;
  const valid =
    host !== undefined &&
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host);
  return `http://${valid ? host : fallback}`;
}

function readBody(request: IncomingMessage): Promise<RequestBody> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => {
      resolvePromise({ bytes: Buffer.concat(chunks), tooLarge });
    });
    request.on('error', reject);
  });
}

function send(
  request: IncomingMessage,
  response: ServerResponse,
  answered: Answered,
  options: OrdersOptions,
): void {
  const { reply, operation } = answered;
  const payload =
    reply.body === undefined ? undefined : JSON.stringify(reply.body, null, options.indent);
  const headers: OutgoingHttpHeaders = { ...reply.headers };
  if (payload !== undefined && options.chunked !== true) {
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  if (request.method === 'HEAD' && options.headBody?.(operation) === true) {
    // node:http never sends a body to HEAD: write the answer on the socket itself.
    const lines = [
      `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}`),
      'connection: close',
    ];
    request.socket.end(`${lines.join('\r\n')}\r\n\r\n${payload ?? ''}`);
    return;
  }
  response.writeHead(reply.status, headers);
  // HEAD: the same status and headers as GET, without the body (RFC 9110 §9.3.2).
  if (request.method === 'HEAD' || payload === undefined) response.end();
  else if (options.chunked === true) {
    // No Content-Length: node:http sends the body in chunks (RFC 9112 §7.1), here two.
    const bytes = Buffer.from(payload, 'utf8');
    response.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
    response.end(bytes.subarray(Math.floor(bytes.length / 2)));
  } else response.end(payload);
}

/** Starts an orders server on 127.0.0.1, on a free port. */
export async function startOrdersServer(options: OrdersOptions = {}): Promise<RunningOrdersServer> {
  const service = new OrdersService(options);
  const server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        send(request, response, service.answer(request, body, originOf(request)), options);
      },
      () => {
        response.destroy();
      },
    );
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolvePromise();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens: service.tokens,
    close: () =>
      new Promise<void>((resolvePromise, reject) => {
        server.close((error) => {
          if (error === undefined) resolvePromise();
          else reject(error);
        });
        // Idle keep-alive connections would hold close() open.
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The reference and its variants

function server(
  name: string,
  kind: OrdersServer['kind'],
  level: OrdersServer['level'],
  rule: string,
  options: OrdersOptions = {},
): OrdersServer {
  return { name, kind, rule, level, start: () => startOrdersServer(options) };
}

export const ORDERS_REFERENCE: OrdersServer = server(
  'reference',
  'reference',
  'interface',
  'examples/orders/openapi.yaml with its x-stockmock declarations and orders.yaml, RFC 9457 ' +
    'problems, RFC 6750 Bearer challenges, RFC 9110 HEAD, 405 and Accept, open CORS',
);

/** A rewrite of the replies of one operation with one status, every other reply kept. */
function on(
  operation: Operation,
  status: number,
  change: (reply: Reply) => Reply,
): (reply: Reply, context: ReplyContext) => Reply {
  return (reply, context) =>
    context.operation === operation && reply.status === status ? change(reply) : reply;
}

/** The reply's body with `change` applied to it when it is an object. */
function mapBody(reply: Reply, change: (body: JsonObject) => JsonObject): Reply {
  return isJsonObject(reply.body) ? { ...reply, body: change(reply.body) } : reply;
}

function pick(object: JsonObject, names: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([name]) => names.includes(name)));
}

function omit(object: JsonObject, names: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([name]) => !names.includes(name)));
}

const VIEWS_RULE = 'x-stockmock.views of listOrders and getOrder';
const FILTERS = 'listOrders x-stockmock.filters';

/** Each breaks one rule of the spec (or of HTTP), and nothing else. */
const BROKEN: readonly OrdersServer[] = [
  // createOrder (answered from examples by stockmock)
  server(
    'POST answers 200',
    'broken',
    'interface',
    'createOrder declares 201 (with Location), 401 and 422 only: a 200 is no declared status, so ' +
      'a client generated from the spec takes the placed order for an unexpected answer',
    { rewrite: on('createOrder', 201, (reply) => ({ ...reply, status: 200 })) },
  ),
  server(
    'POST without Location',
    'broken',
    'interface',
    'createOrder 201 headers.Location is required: true (and RFC 9110 §15.3.2): without it a ' +
      'client cannot find the order it just placed',
    { rewrite: on('createOrder', 201, (reply) => withoutHeader(reply, 'location')) },
  ),
  server(
    'POST accepts an order without lines',
    'broken',
    'interface',
    'createOrder requestBody lines minItems: 1; an order that cannot be placed as sent is a 422: ' +
      'here { lines: [] } is placed with 201, so a client bug (an empty basket) goes unnoticed ' +
      'and an empty order is booked',
    {
      orderErrors: (_body, standard) =>
        standard.filter((error) => error !== 'lines must hold at least one line'),
    },
  ),
  server(
    'POST 422 as application/json',
    'broken',
    'interface',
    'createOrder 422 content is application/problem+json (RFC 9457 §3): sent as ' +
      'application/json, a client that dispatches on the media type does not read it as a problem',
    {
      rewrite: on('createOrder', 422, (reply) =>
        withHeaders(reply, { 'content-type': 'application/json' }),
      ),
    },
  ),
  server(
    'POST 401 without WWW-Authenticate',
    'broken',
    'interface',
    'components.responses.Unauthorized headers.WWW-Authenticate is required: true (RFC 9110 ' +
      '§15.5.2, RFC 6750 §3): a client placing an order is not told how to authenticate',
    { rewrite: on('createOrder', 401, (reply) => withoutHeader(reply, 'www-authenticate')) },
  ),
  server(
    'POST data echoes the lines',
    'broken',
    'interface',
    'createOrder 201 data is an Order, additionalProperties: false: an extra `lines` member ' +
      'breaks clients generated with strict models',
    {
      placedData: (input, standard) => ({
        ...standard,
        lines: input.lines.map(({ sku, quantity }) => ({ sku, quantity })),
      }),
    },
  ),
  // cancelOrder
  server(
    'DELETE answers 200 with a body',
    'broken',
    'interface',
    'cancelOrder declares 204 (no content), 401 and 404: a 200 with a JSON body is no declared ' +
      'answer, and a client expecting 204 treats it as unexpected',
    {
      rewrite: on('cancelOrder', 204, (reply) => json(200, { cancelled: true }, reply.headers)),
    },
  ),
  // listCustomers
  server(
    'customer country not alpha-2',
    'broken',
    'interface',
    "listCustomers 200 customers[].country pattern: '^[A-Z]{2}$': one entry says NLD, which a " +
      'client validating or mapping country codes rejects',
    {
      customers: CUSTOMERS.map((customer) =>
        customer.name === 'Cobalt & Co' ? { ...customer, country: 'NLD' } : customer,
      ),
    },
  ),
  server(
    'HEAD on customers sends a body',
    'broken',
    'interface',
    'RFC 9110 §9.3.2: a server MUST NOT send content in the response to HEAD; the bytes are read ' +
      'as the start of the next answer on the connection',
    { headBody: (operation) => operation === 'listCustomers' },
  ),
  // orderSummary
  server(
    'summary without since answers 200',
    'broken',
    'interface',
    'orderSummary parameter since is required: true, and its 400 is "the day is missing or not ' +
      'a date": here a missing day is taken as 1970-01-01, so a client bug goes unnoticed',
    { defaultSince: '1970-01-01' },
  ),
  server(
    'summary counts a negative number',
    'broken',
    'interface',
    'orderSummary 200 counts additionalProperties { type: integer, minimum: 0 }: a sign bug ' +
      'reports cancelled as -4, which a client summing counts gets wrong',
    {
      rewrite: on('orderSummary', 200, (reply) =>
        mapBody(reply, (body) => {
          const counts = body['counts'];
          const cancelled = isJsonObject(counts) ? counts['cancelled'] : undefined;
          return isJsonObject(counts) && typeof cancelled === 'number'
            ? { ...body, counts: { ...counts, cancelled: -cancelled } }
            : body;
        }),
      ),
    },
  ),
  server(
    'summary since as a date-time',
    'broken',
    'interface',
    'orderSummary 200 since is format: date (RFC 3339 full-date): 2026-01-01T00:00:00Z is a ' +
      'date-time, which a client parsing a date rejects',
    {
      rewrite: on('orderSummary', 200, (reply) =>
        mapBody(reply, (body) =>
          typeof body['since'] === 'string'
            ? { ...body, since: `${body['since']}T00:00:00Z` }
            : body,
        ),
      ),
    },
  ),
  server(
    'summary 400 problem claims 422',
    'broken',
    'interface',
    'RFC 9457 §3.1.3: the problem status member MUST be the status of the response: a 400 whose ' +
      'body says 422 misleads a client that reads the problem',
    {
      rewrite: on('orderSummary', 400, (reply) =>
        mapBody(reply, (body) => ({ ...body, status: 422 })),
      ),
    },
  ),
  // serviceStatus
  server(
    'status needs a token',
    'broken',
    'interface',
    'serviceStatus has security: [] (open) and declares no 401: a monitor without credentials ' +
      'is refused',
    { openOperations: ['health'] },
  ),
  server(
    'status says ok',
    'broken',
    'interface',
    'serviceStatus 200 status enum [up, degraded]: "ok" is neither, and a monitor matching on ' +
      'the enum reports the service down',
    {
      rewrite: on('serviceStatus', 200, (reply) =>
        mapBody(reply, (body) => ({ ...body, status: 'ok' })),
      ),
    },
  ),
  // listOrders (from data)
  server(
    'status filter dropped beside customer',
    'broken',
    'interface',
    `${FILTERS}: status { match: exact } and customer together (AND): here status is ignored ` +
      'when customer is given too, so a client gets orders of every status',
    {
      filtersOf: (filters) =>
        filters.customer === undefined
          ? filters
          : {
              customer: filters.customer,
              ...(filters.min_total === undefined ? {} : { min_total: filters.min_total }),
            },
    },
  ),
  server(
    'min_total exclusive',
    'broken',
    'interface',
    `${FILTERS}.min_total { match: min }, "At least this total": the bound is included; here ` +
      'orders of exactly min_total are left out',
    { matchers: { min_total: (order, value) => order.total > value } },
  ),
  server(
    'customer filter case-sensitive',
    'broken',
    'interface',
    'listOrders customer parameter: "Case-insensitive, literal substring": customer=ADA SHOP ' +
      'finds nothing',
    { matchers: { customer: (order, value) => order.customer.includes(value) } },
  ),
  // Added by the session that wrote filters.PATH.PARAMETER-case, to show it asks beyond ASCII.
  server(
    'customer filter folds ASCII only',
    'broken',
    'stand-in',
    'the stand-in folds case with Unicode case folding (nameMatch): customer=CAFÉ finds ' +
      'nothing where Ember Café is served',
    {
      matchers: {
        customer: (order, value) => asciiLower(order.customer).includes(asciiLower(value)),
      },
    },
  ),
  server(
    'clerk sees total',
    'broken',
    'interface',
    `${VIEWS_RULE}: clerk { fields: { id, reference, status } } and no more (bearerAuth: ` +
      '"clerk-demo-token sees an order\'s status"): the list leaks total to a clerk',
    {
      view: (order, context, standard) =>
        context.level === 'clerk' && context.place === 'list'
          ? { ...standard, total: order.total }
          : standard,
    },
  ),
  server(
    'next link drops the filters after page 1',
    'broken',
    'interface',
    'links keep every filter (docs/declare-a-resource.md): from page 2 on, next keeps only ' +
      'limit, so a client walking the pages gets orders outside its filter',
    {
      linkQuery: (standard, relation, page) =>
        relation === 'next' && page > 1
          ? new URLSearchParams([...standard].filter(([name]) => name === 'limit'))
          : standard,
    },
  ),
  server(
    'a last page of one item is lost',
    'broken',
    'interface',
    'pagination: last is page ceil(total/limit) and next is null on it only: when the last page ' +
      'holds exactly one item, last points one page early and next is null there, so a client ' +
      'walking next never sees the last order',
    {
      lastPage: (total, size) =>
        total > size && total % size === 1
          ? Math.floor(total / size)
          : standardLastPage(total, size),
    },
  ),
  server(
    'links are relative',
    'broken',
    'interface',
    'components.schemas.Links members are format: uri (an absolute URI, RFC 3986 §4.3): ' +
      '/v1/orders?… is a relative reference, which a client following the link cannot fetch as is',
    { linkBase: () => '' },
  ),
  server(
    'Accept matched case-sensitively',
    'broken',
    'interface',
    'RFC 9110 §8.3.1: media types are case-insensitive: Accept: Application/JSON admits ' +
      'application/json, and a 406 refuses a client that asked correctly',
    { acceptsJson: caseSensitiveAcceptsJson },
  ),
  // getOrder (from data)
  server(
    'unknown order 404 without detail',
    'broken',
    'interface',
    'getOrder 404 is a components.schemas.Problem, which requires type, title, status and ' +
      'detail: detail is missing',
    { rewrite: on('getOrder', 404, (reply) => mapBody(reply, (body) => omit(body, ['detail']))) },
  ),
  server(
    'manager item drops customer',
    'broken',
    'interface',
    'getOrder x-stockmock.views.manager { ..., rest: true }: every other field of the record ' +
      'follows, customer included ("manager-demo-token sees all of it")',
    {
      view: (_order, context, standard) =>
        context.level === 'manager' && context.place === 'item'
          ? pick(
              standard,
              Object.keys(standard).filter((name) => name !== 'customer'),
            )
          : standard,
    },
  ),
  // Every operation
  server(
    '405 without Allow',
    'broken',
    'interface',
    'RFC 9110 §15.5.6: a 405 MUST carry Allow: a client is not told which methods the path has',
    {
      rewrite: (reply) => (reply.status === 405 ? withoutHeader(reply, 'allow') : reply),
    },
  ),
  server(
    'preflight needs a token',
    'broken',
    'stand-in',
    'CORS (Fetch standard): a preflight never carries Authorization, so answering it 401 makes ' +
      'every authenticated cross-origin call fail in a browser',
    { preflightNeedsToken: true },
  ),
  server(
    'no CORS header on 401',
    'broken',
    'stand-in',
    'CORS: Access-Control-Allow-Origin on every answer: a 401 without it is unreadable to a ' +
      'browser client, which sees a network error instead of "token not known"',
    {
      rewrite: (reply) =>
        reply.status === 401 ? withoutHeader(reply, 'access-control-allow-origin') : reply,
    },
  ),
];

/** Correct services that decide otherwise where the spec (or HTTP) leaves room. */
const DIFFERENT: readonly OrdersServer[] = [
  server(
    'extra response headers and pretty JSON',
    'different',
    'interface',
    'headers the spec does not declare and whitespace are free: X-Request-Id, Cache-Control: ' +
      'no-store and X-Powered-By on every reply, JSON indented by two spaces',
    {
      extraHeaders: () => ({
        'x-request-id': randomUUID(),
        'cache-control': 'no-store',
        'x-powered-by': 'orders-fixture',
      }),
      indent: 2,
    },
  ),
  server(
    'another realm',
    'different',
    'interface',
    'Unauthorized requires a WWW-Authenticate header, any challenge: realm="orders-api"',
    { realm: 'orders-api' },
  ),
  server(
    'about:blank problems',
    'different',
    'interface',
    'Problem type is any uri-reference: about:blank with the status phrase as title (RFC 9457 ' +
      '§4.2.1) rather than urn:problem-type:orders:* types',
    {
      rewrite: (reply) =>
        reply.headers['content-type'] === PROBLEM_TYPE
          ? mapBody(reply, (body) => ({
              ...body,
              type: 'about:blank',
              title: STATUS_CODES[reply.status] ?? 'Error',
            }))
          : reply,
    },
  ),
  server(
    'customers ordered by country',
    'different',
    'interface',
    'listCustomers declares no order: by country, then name',
    {
      customerOrder: (a, b) => byCodeUnits(a.country, b.country) || byCodeUnits(a.name, b.name),
    },
  ),
  server(
    'POST numbers orders its own way',
    'different',
    'interface',
    'createOrder 201 is any Order with a Location: ids from 5001, references WEB-5001…, a unit ' +
      'price of 1999, and an absolute Location URL',
    {
      placement: (input, _id, sequence) => ({
        id: 5000 + sequence,
        reference: `WEB-${5000 + sequence}`,
        customer: input.customer,
        status: 'pending',
        total: input.lines.reduce((sum, line) => sum + line.quantity * 1999, 0),
      }),
      location: (order, origin) => `${origin}/v1/orders/${order.id}`,
    },
  ),
  server(
    'unknown list parameters ignored',
    'different',
    'stand-in',
    'docs/behaviour.md answers unknown query parameters 400; the spec does not say: listOrders ' +
      'and getOrder ignore them',
    { unknownParameters: 'ignore' },
  ),
  server(
    'links write limit only when given',
    'different',
    'stand-in',
    'docs/behaviour.md writes the default limit=10 into links; the spec asks only for URIs: a ' +
      'link without limit names the same page',
    { linkDefaultLimit: false },
  ),
  server(
    'Accept disregarded',
    'different',
    'stand-in',
    'RFC 9110 §12.5.1 lets a server disregard Accept and send its one representation: listOrders ' +
      'and getOrder never answer 406 (docs/behaviour.md does)',
    { acceptsJson: () => true },
  ),
  server(
    'trailing slash not found',
    'different',
    'stand-in',
    'docs/behaviour.md serves /v1/orders/ as /v1/orders; the spec declares no such path: 404',
    { trailingSlash: 'not-found' },
  ),
  server(
    'chunked bodies',
    'different',
    'interface',
    'RFC 9112 §7.1: bodies sent with the chunked transfer coding, without Content-Length',
    { chunked: true },
  ),
];

export const ORDERS_VARIANTS: readonly OrdersServer[] = [...BROKEN, ...DIFFERENT];
