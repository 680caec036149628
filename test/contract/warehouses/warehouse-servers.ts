/**
 * Stand-ins for the warehouses example (examples/warehouses/openapi.yaml), written from the spec,
 * its `x-stockmock` declarations (README, "Declare a resource") and PRODUCT.md alone, on plain
 * node:http. One server function serves the correct reference; each variant plugs one hook into
 * it, so that it differs from the reference in exactly one thing.
 */
import { randomUUID } from 'node:crypto';
import { corsHeaders } from '../cors-headers.ts';
import { readFileSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parse } from 'yaml';

export interface WarehouseServer {
  readonly name: string;
  readonly kind: 'reference' | 'broken' | 'different';
  /** The rule broken or the choice made, with its source. */
  readonly rule: string;
  /** 'interface': breaks what the spec declares; 'stand-in': a PRODUCT.md decision only. */
  readonly level: 'interface' | 'stand-in';
  start(): Promise<RunningWarehouseServer>;
}

export interface RunningWarehouseServer {
  readonly url: string;
  readonly tokens: Tokens;
  close(): Promise<void>;
}

export interface Tokens {
  readonly public: string;
  readonly staff: string;
}

export type Json = null | boolean | number | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

// ---------------------------------------------------------------------------------------------
// Data

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
const EXAMPLE = resolve(REPO_ROOT, 'examples/warehouses');

/** components.schemas.Region. */
export const REGIONS = ['north', 'south', 'east', 'west'] as const;
export type Region = (typeof REGIONS)[number];

export interface Warehouse {
  readonly id: number;
  readonly name: string;
  readonly city: string;
  readonly region: Region;
  readonly capacity: number;
  /** Every field of the fixture entry, in the fixture's order: declared ones and extra ones. */
  readonly fields: JsonObject;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parsed YAML value as JSON, or an error: the fixture holds nothing else. */
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

/** Array.isArray does not narrow a readonly array out of a union: test for an object instead. */
function isJsonObject(value: Json): value is JsonObject {
  return isRecord(value);
}

function isRegion(value: unknown): value is Region {
  return REGIONS.some((region) => region === value);
}

/** One fixture entry, checked against the required fields of the collection's `record`. */
function toWarehouse(entry: unknown, where: string): Warehouse {
  const record = toJson(entry, where);
  if (!isJsonObject(record)) throw new Error(`${where}: not an object`);
  const { id, name, city, region, capacity } = record;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new Error(`${where}.id: not a positive integer`);
  }
  if (typeof name !== 'string' || typeof city !== 'string') {
    throw new Error(`${where}: name and city must be strings`);
  }
  if (!isRegion(region)) throw new Error(`${where}.region: not one of ${REGIONS.join(', ')}`);
  if (typeof capacity !== 'number' || !Number.isSafeInteger(capacity) || capacity < 0) {
    throw new Error(`${where}.capacity: not an integer >= 0`);
  }
  return { id, name, city, region, capacity, fields: record };
}

/** The `warehouses` list of a fixture file (examples/warehouses/warehouses.yaml by default). */
export function loadWarehouses(file = resolve(EXAMPLE, 'warehouses.yaml')): Warehouse[] {
  const document: unknown = parse(readFileSync(file, 'utf8'));
  const list = isRecord(document) ? document['warehouses'] : undefined;
  if (!Array.isArray(list)) throw new Error(`${file}: no warehouses list`);
  return list.map((entry, i) => toWarehouse(entry, `${file}: warehouses[${i}]`));
}

function loadSpec(): Json {
  const file = resolve(EXAMPLE, 'openapi.yaml');
  return toJson(parse(readFileSync(file, 'utf8')), file);
}

// ---------------------------------------------------------------------------------------------
// Query: filters, pagination, links

export interface ListFilters {
  readonly name?: string;
  readonly city?: string;
  readonly region?: Region;
  readonly min_capacity?: number;
  readonly max_capacity?: number;
}

/** How each filter tests a record, by query parameter. */
export type Matchers = {
  readonly [K in keyof ListFilters]-?: (
    record: Warehouse,
    value: NonNullable<ListFilters[K]>,
  ) => boolean;
};

/** Unicode-aware caseless form: NFC first, so that composed and decomposed letters match. */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase();
}

/** The filters as listWarehouses' `x-stockmock.filters` declare them. */
export const STANDARD_MATCHERS: Matchers = {
  // match: contains: case-insensitive, every character literal (README, PRODUCT.md).
  name: (record, value) => foldCase(record.name).includes(foldCase(value)),
  // match: exact: the value itself.
  city: (record, value) => record.city === value,
  region: (record, value) => record.region === value,
  // match: min and max: inclusive bounds ("at least", "at most").
  min_capacity: (record, value) => record.capacity >= value,
  max_capacity: (record, value) => record.capacity <= value,
};

/** Every filter given must hold (AND, PRODUCT.md). */
export function matchesAll(record: Warehouse, filters: ListFilters, matchers: Matchers): boolean {
  return (
    (filters.name === undefined || matchers.name(record, filters.name)) &&
    (filters.city === undefined || matchers.city(record, filters.city)) &&
    (filters.region === undefined || matchers.region(record, filters.region)) &&
    (filters.min_capacity === undefined || matchers.min_capacity(record, filters.min_capacity)) &&
    (filters.max_capacity === undefined || matchers.max_capacity(record, filters.max_capacity))
  );
}

export const byId = (a: Warehouse, b: Warehouse): number => a.id - b.id;

/** An item is found by its key (getWarehouse `item: id`). */
function findById(records: readonly Warehouse[], id: number): Warehouse | undefined {
  return records.find((record) => record.id === id);
}

export interface ListQuery {
  readonly filters: ListFilters;
  readonly limit: number;
  /** Whether the request named `limit`: links keep the request's parameters as it gave them. */
  readonly limitGiven: boolean;
  readonly page: number;
}

type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

function integerIn(raw: string, min: number, max: number): Parsed<number> {
  // Digits only: "1.5", "1e1", "+3", " 3" and "0x10" are not integers a client meant.
  if (!/^-?\d+$/.test(raw)) return { ok: false, message: `must be an integer, not "${raw}"` };
  const value = Number(raw);
  if (value < min) return { ok: false, message: `must be >= ${min}` };
  if (value > max) return { ok: false, message: `must be <= ${max}` };
  return { ok: true, value };
}

function parseRegion(raw: string): Parsed<Region> {
  return isRegion(raw)
    ? { ok: true, value: raw }
    : { ok: false, message: `must be one of ${REGIONS.join(', ')}` };
}

interface ParameterError extends JsonObject {
  readonly parameter: string;
  readonly in: 'query' | 'path';
  readonly message: string;
}

/** Query parameters of listWarehouses: its filters, then Limit and Page. */
const LIST_PARAMETERS = ['name', 'city', 'region', 'min_capacity', 'max_capacity', 'limit', 'page'];

/**
 * Reads each single-valued parameter, recording unknown and repeated ones as errors (PRODUCT.md:
 * both are 400s). Returns a reader of one parameter's value.
 */
function singleValues(
  search: URLSearchParams,
  allowed: readonly string[],
  errors: ParameterError[],
): (name: string) => string | undefined {
  for (const name of new Set(search.keys())) {
    if (!allowed.includes(name)) {
      errors.push({
        parameter: name,
        in: 'query',
        message: 'is not a parameter of this operation',
      });
    } else if (search.getAll(name).length > 1) {
      errors.push({ parameter: name, in: 'query', message: 'must be given at most once' });
    }
  }
  return (name) => (allowed.includes(name) ? search.getAll(name).at(-1) : undefined);
}

function readListQuery(search: URLSearchParams, errors: ParameterError[]): ListQuery {
  const single = singleValues(search, LIST_PARAMETERS, errors);
  const read = <T>(name: string, parse: (raw: string) => Parsed<T>): T | undefined => {
    const raw = single(name);
    if (raw === undefined) return undefined;
    const parsed = parse(raw);
    if (parsed.ok) return parsed.value;
    errors.push({ parameter: name, in: 'query', message: parsed.message });
    return undefined;
  };
  // min_capacity and max_capacity: { type: integer, minimum: 0 }, no maximum.
  const capacity = (raw: string): Parsed<number> => integerIn(raw, 0, Number.POSITIVE_INFINITY);
  const filters: ListFilters = {
    ...optional('name', single('name')),
    ...optional('city', single('city')),
    ...optional('region', read('region', parseRegion)),
    ...optional('min_capacity', read('min_capacity', capacity)),
    ...optional('max_capacity', read('max_capacity', capacity)),
  };
  const limit = read('limit', (raw) => integerIn(raw, 1, MAX_LIMIT));
  const page = read('page', (raw) => integerIn(raw, 1, Number.MAX_SAFE_INTEGER));
  return {
    filters,
    limit: limit ?? DEFAULT_LIMIT,
    limitGiven: limit !== undefined,
    page: page ?? 1,
  };
}

/** `{key: value}`, or nothing when the value is absent (exactOptionalPropertyTypes). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

/** The query every link keeps: the filters and the limit of the request, in a fixed order. */
export function standardLinkQuery(query: ListQuery): URLSearchParams {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query.filters)) {
    if (value !== undefined) parameters.set(name, String(value));
  }
  if (query.limitGiven) parameters.set('limit', String(query.limit));
  return parameters;
}

export interface Links {
  readonly first: string;
  readonly last: string;
  readonly prev: string | null;
  readonly next: string | null;
}

/**
 * PRODUCT.md: first is page 1; last is max(1, ceil(total/limit)); prev is null on page 1 and
 * points at the last page past the end; next is null from the last page on.
 */
function pageLinks(page: number, lastPage: number, link: (page: number) => string): Links {
  return {
    first: link(1),
    last: link(lastPage),
    prev: page <= 1 ? null : link(Math.min(page - 1, lastPage)),
    next: page < lastPage ? link(page + 1) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Access levels and views

export type Level = keyof Tokens;

export const DEMO_TOKENS: Tokens = { public: 'public-demo-token', staff: 'staff-demo-token' };

/** The record's declared properties, in the order of x-stockmock-collections.warehouses.record. */
const DECLARED_FIELDS = ['id', 'name', 'city', 'region', 'capacity', 'manager'];

/** The `views` of listWarehouses and getWarehouse (the same on both). */
const VIEWS: Readonly<Record<Level, { fields: readonly string[]; rest: boolean }>> = {
  public: { fields: ['id', 'name', 'city'], rest: false },
  staff: { fields: ['id', 'name', 'city', 'region'], rest: true },
};

/**
 * A record as one level sees it: the view's fields in order; with `rest`, every other field
 * follows, declared ones first, then the fixture's extra fields in their order (README). A
 * declared field the record lacks (manager) is left out rather than shown as null, which its
 * schema (a string) would not admit.
 */
export function standardView(record: Warehouse, level: Level): JsonObject {
  const view = VIEWS[level];
  const names = [...view.fields];
  if (view.rest) {
    const extra = Object.keys(record.fields).filter((name) => !DECLARED_FIELDS.includes(name));
    names.push(...DECLARED_FIELDS.filter((name) => !view.fields.includes(name)), ...extra);
  }
  return pick(record.fields, names);
}

export function pick(object: JsonObject, names: readonly string[]): JsonObject {
  const out: Record<string, Json> = {};
  for (const name of names) {
    const value = object[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export type AuthOutcome =
  | { readonly kind: 'level'; readonly level: Level }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid' };

/**
 * The bearer token of `Authorization`, if any: the scheme is case-insensitive and one or more
 * spaces separate it from the token (RFC 7235 §2.1); another scheme counts as no token (RFC
 * 6750 §3.1, PRODUCT.md).
 */
function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/.exec(authorization?.trim() ?? '');
  if (match?.[1]?.toLowerCase() !== 'bearer') return undefined;
  const token = (match[2] ?? '').trim();
  return token === '' ? undefined : token;
}

export function authenticateBearer(authorization: string | undefined, tokens: Tokens): AuthOutcome {
  const token = bearerToken(authorization);
  if (token === undefined) return { kind: 'missing' };
  if (token === tokens.public) return { kind: 'level', level: 'public' };
  if (token === tokens.staff) return { kind: 'level', level: 'staff' };
  return { kind: 'invalid' };
}

// ---------------------------------------------------------------------------------------------
// HTTP

/** Whether an `Accept` field admits application/json (RFC 9110 §12.5.1, PRODUCT.md). */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let best: { specificity: number; q: number } | undefined;
  for (const element of accept.split(',')) {
    const [range = '', ...parameters] = element.split(';').map((s) => s.trim().toLowerCase());
    const specificity = { '*/*': 0, 'application/*': 1, 'application/json': 2 }[range];
    if (specificity === undefined) continue;
    const qParameter = parameters.find((p) => p.replace(/\s/g, '').startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.split('=')[1]);
    const weight = Number.isFinite(q) ? q : 1;
    if (best === undefined || specificity > best.specificity) best = { specificity, q: weight };
    else if (specificity === best.specificity) best = { specificity, q: Math.max(weight, best.q) };
  }
  return best !== undefined && best.q > 0;
}

/** A response before it is written. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Json;
}

const JSON_TYPE = 'application/json';
const ALLOW = 'GET, HEAD, OPTIONS';

/** RFC 9457 problem details; `about:blank` with the status phrase as title (§4.2.1). */
export function problem(status: number, detail: string, extra: JsonObject = {}): Reply {
  const title = STATUS_CODES[status] ?? 'Error';
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: { type: 'about:blank', title, status, detail, ...extra },
  };
}

function badRequest(errors: readonly ParameterError[]): Reply {
  const detail = errors.map((e) => `${e.parameter} ${e.message}`).join('; ');
  return problem(400, `Invalid parameters: ${detail}.`, { errors });
}

function unauthorized(tokenGiven: boolean): Reply {
  const realm = 'Bearer realm="stockmock"';
  const reply = tokenGiven
    ? problem(401, 'The bearer token is not known.')
    : problem(401, 'Send a token: Authorization: Bearer <token>.');
  const challenge = tokenGiven ? `${realm}, error="invalid_token"` : realm;
  return { ...reply, headers: { ...reply.headers, 'www-authenticate': challenge } };
}

function ok(body: Json): Reply {
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body };
}

type Route =
  | { readonly kind: 'health' | 'document' | 'list' }
  | { readonly kind: 'item'; readonly segment: string };

/** A trailing slash names the same resource as without it (README). */
function matchRoute(pathname: string): Route | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path === '/healthz') return { kind: 'health' };
  if (path === '/openapi.json') return { kind: 'document' };
  if (path === '/v1/warehouses') return { kind: 'list' };
  const segment = /^\/v1\/warehouses\/([^/]+)$/.exec(path)?.[1];
  return segment === undefined ? undefined : { kind: 'item', segment };
}

/** A path id: a positive safe integer in digits (WarehouseId), else undefined (a 400). */
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

// ---------------------------------------------------------------------------------------------
// The service

export interface ViewContext {
  readonly level: Level;
  readonly place: 'list' | 'item';
}

/** What paginating a list starts from. */
export interface PageContext {
  /** Every record, in list order, before any filter. */
  readonly records: readonly Warehouse[];
  /** Whether a record passes the request's filters. */
  readonly keep: (record: Warehouse) => boolean;
  readonly page: number;
  readonly size: number;
  /** The index of the page's first item in the filtered list. */
  readonly offset: number;
}

/** The reference: filter, then take the page's window of the filtered list. */
export function standardPage(context: PageContext): { items: Warehouse[]; total: number } {
  const filtered = context.records.filter(context.keep);
  return {
    items: filtered.slice(context.offset, context.offset + context.size),
    total: filtered.length,
  };
}

/**
 * What a variant changes. Each hook gets the reference's behaviour (or its inputs) and returns
 * its replacement; no hook: the reference.
 */
export interface WarehouseOptions {
  readonly records?: readonly Warehouse[];
  readonly tokens?: Tokens;
  readonly authenticate?: (authorization: string | undefined, tokens: Tokens) => AuthOutcome;
  /** Replaces how some filters test a record. */
  readonly matchers?: Partial<Matchers>;
  /** The order of list items (the reference: by id). */
  readonly order?: (a: Warehouse, b: Warehouse) => number;
  /** The number of items a valid limit actually gives per page. */
  readonly pageSize?: (limit: number) => number;
  /** The index of the first item of `page`. */
  readonly pageOffset?: (page: number, size: number) => number;
  /** The query each link keeps, from the reference's one, on the list's page `page`. */
  readonly linkQuery?: (standard: URLSearchParams, page: number) => URLSearchParams;
  /** The filters actually applied, from the request's ones (links keep the request's). */
  readonly filtersOf?: (filters: ListFilters) => ListFilters;
  /** A page's items and the total the links count pages of. */
  readonly paginate?: (context: PageContext) => { items: readonly Warehouse[]; total: number };
  /** Rewrites every reply just before it is sent. */
  readonly rewrite?: (reply: Reply, request: IncomingMessage) => Reply;
  /** Bodies sent with the chunked transfer coding rather than a Content-Length. */
  readonly chunked?: boolean;
  readonly view?: (record: Warehouse, context: ViewContext, standard: JsonObject) => JsonObject;
  /** Which record answers GET /v1/warehouses/{id}. */
  readonly findItem?: (records: readonly Warehouse[], id: number) => Warehouse | undefined;
  /** Extra headers for every reply. */
  readonly extraHeaders?: () => Readonly<Record<string, string>>;
  /** JSON indentation (the reference: none, one line). */
  readonly indent?: number;
}

class WarehouseService {
  private readonly records: readonly Warehouse[];
  private readonly tokens: Tokens;
  private readonly matchers: Matchers;
  private readonly spec: Json;
  private readonly options: WarehouseOptions;

  constructor(options: WarehouseOptions) {
    this.options = options;
    this.records = options.records ?? loadWarehouses();
    this.tokens = options.tokens ?? DEMO_TOKENS;
    this.matchers = { ...STANDARD_MATCHERS, ...options.matchers };
    this.spec = loadSpec();
  }

  get tokenSet(): Tokens {
    return this.tokens;
  }

  /** Answers one request; an unexpected error is a 500 problem, as in a real service. */
  answer(request: IncomingMessage, origin: string): Reply {
    let reply: Reply;
    try {
      reply = this.handle(request, origin);
    } catch (error) {
      reply = problem(500, `Unexpected error: ${String(error)}`);
    }
    reply = { ...reply, headers: { ...reply.headers, ...corsHeaders(request) } };
    const extra = this.options.extraHeaders?.();
    if (extra !== undefined) reply = { ...reply, headers: { ...reply.headers, ...extra } };
    const rewrite = this.options.rewrite;
    if (rewrite === undefined) return reply;
    try {
      return rewrite(reply, request);
    } catch (error) {
      return problem(500, `Unexpected error: ${String(error)}`);
    }
  }

  private handle(request: IncomingMessage, origin: string): Reply {
    const raw = request.url ?? '/';
    // Concatenate rather than resolve: a path such as //x must stay a path, not become a host.
    const url = new URL(
      raw.startsWith('/') ? `http://placeholder${raw}` : raw,
      'http://placeholder',
    );
    const route = matchRoute(url.pathname);
    if (route === undefined) return problem(404, `No resource has the path ${url.pathname}.`);
    const method = request.method ?? 'GET';
    // A CORS preflight or a plain OPTIONS is answered without a token (PRODUCT.md, Surface).
    if (method === 'OPTIONS') return { status: 204, headers: { allow: ALLOW } };
    if (method !== 'GET' && method !== 'HEAD') {
      const reply = problem(405, `${url.pathname} supports ${ALLOW}, not ${method}.`);
      return { ...reply, headers: { ...reply.headers, allow: ALLOW } };
    }
    let level: Level | undefined;
    // /healthz and /openapi.json have `security: []`.
    if (route.kind === 'list' || route.kind === 'item') {
      const authenticate = this.options.authenticate ?? authenticateBearer;
      const outcome = authenticate(request.headers.authorization, this.tokens);
      if (outcome.kind !== 'level') return unauthorized(outcome.kind === 'invalid');
      level = outcome.level;
    }
    if (!acceptsJson(request.headers.accept)) {
      return problem(406, 'This resource is served as application/json only; Accept excludes it.');
    }
    return this.serve(route, url, level ?? 'public', origin);
  }

  private serve(route: Route, url: URL, level: Level, origin: string): Reply {
    const errors: ParameterError[] = [];
    if (route.kind === 'list') {
      const query = readListQuery(url.searchParams, errors);
      return errors.length > 0 ? badRequest(errors) : this.list(query, level, origin);
    }
    // The other operations take no query parameter: any is unknown (PRODUCT.md).
    singleValues(url.searchParams, [], errors);
    if (route.kind === 'item') {
      const id = parsePathId(route.segment);
      if (id === undefined) {
        errors.push({ parameter: 'id', in: 'path', message: 'must be a positive integer' });
      }
      return errors.length > 0 || id === undefined ? badRequest(errors) : this.item(id, level);
    }
    if (errors.length > 0) return badRequest(errors);
    if (route.kind === 'health') return ok({ status: 'ok', warehouses: this.records.length });
    return ok(this.spec);
  }

  private list(query: ListQuery, level: Level, origin: string): Reply {
    const filters = this.options.filtersOf?.(query.filters) ?? query.filters;
    const records = [...this.records].sort(this.options.order ?? byId);
    const size = this.options.pageSize?.(query.limit) ?? query.limit;
    const offset = this.options.pageOffset?.(query.page, size) ?? (query.page - 1) * size;
    const context: PageContext = {
      records,
      keep: (record) => matchesAll(record, filters, this.matchers),
      page: query.page,
      size,
      offset,
    };
    const { items, total } = (this.options.paginate ?? standardPage)(context);
    const lastPage = Math.max(1, Math.ceil(total / size));
    const data = items.map((record) => this.view(record, { level, place: 'list' }));
    const standardQuery = standardLinkQuery(query);
    const keep = this.options.linkQuery?.(standardQuery, query.page) ?? standardQuery;
    const link = (page: number): string => {
      const parameters = new URLSearchParams(keep);
      parameters.set('page', String(page));
      return `${origin}/v1/warehouses?${parameters.toString()}`;
    };
    return ok({ data, links: { ...pageLinks(query.page, lastPage, link) } });
  }

  private item(id: number, level: Level): Reply {
    const find = this.options.findItem ?? findById;
    const record = find(this.records, id);
    if (record === undefined) return problem(404, `No warehouse has the id ${id}.`);
    return ok({ data: this.view(record, { level, place: 'item' }) });
  }

  private view(record: Warehouse, context: ViewContext): JsonObject {
    const standard = standardView(record, context.level);
    return this.options.view?.(record, context, standard) ?? standard;
  }
}

/** The request's own scheme and host: links are absolute (PRODUCT.md). */
function originOf(request: IncomingMessage): string {
  const address = request.socket.address() as AddressInfo;
  return `http://${request.headers.host ?? `${address.address}:${address.port}`}`;
}

/** Starts a warehouses server on 127.0.0.1, on a free port. */
export async function startWarehouseServer(
  options: WarehouseOptions = {},
): Promise<RunningWarehouseServer> {
  const service = new WarehouseService(options);
  const server = createServer((request, response) => {
    const reply = service.answer(request, originOf(request));
    const payload =
      reply.body === undefined ? undefined : JSON.stringify(reply.body, null, options.indent);
    const headers: Record<string, string> = { ...reply.headers };
    if (payload !== undefined && options.chunked !== true) {
      headers['content-length'] = String(Buffer.byteLength(payload));
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
    tokens: service.tokenSet,
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
  kind: WarehouseServer['kind'],
  level: WarehouseServer['level'],
  rule: string,
  options: WarehouseOptions = {},
): WarehouseServer {
  return { name, kind, rule, level, start: () => startWarehouseServer(options) };
}

export const WAREHOUSE_REFERENCE: WarehouseServer = server(
  'reference',
  'reference',
  'interface',
  'examples/warehouses/openapi.yaml with its x-stockmock declarations (README "Declare a ' +
    'resource") and the decisions of PRODUCT.md',
);

const FILTERS = 'listWarehouses x-stockmock.filters';
const VIEWS_RULE = 'x-stockmock.views of listWarehouses and getWarehouse';

/** Each breaks one declared rule of the spec (or HTTP), and nothing else. */
const BROKEN: readonly WarehouseServer[] = [
  server(
    'region filter ignored',
    'broken',
    'interface',
    `${FILTERS}.region { field: region, match: exact }: every item has the region asked for`,
    { matchers: { region: () => true } },
  ),
  server(
    'city filter matches a substring',
    'broken',
    'interface',
    `${FILTERS}.city { field: city, match: exact } ("Exactly this city."): not a substring`,
    { matchers: { city: (record, value) => record.city.includes(value) } },
  ),
  server(
    'min_capacity exclusive',
    'broken',
    'interface',
    `${FILTERS}.min_capacity { match: min } ("At least this many pallet places"): capacity ≥ ` +
      'the value, bound included',
    { matchers: { min_capacity: (record, value) => record.capacity > value } },
  ),
  server(
    'max_capacity ignored',
    'broken',
    'interface',
    `${FILTERS}.max_capacity { match: max } ("At most this many pallet places")`,
    { matchers: { max_capacity: () => true } },
  ),
  server(
    'name filter ignored',
    'broken',
    'interface',
    `${FILTERS}.name { field: name, match: contains }: every item's name contains the value`,
    { matchers: { name: () => true } },
  ),
  server(
    'public sees region',
    'broken',
    'interface',
    `${VIEWS_RULE}: public { fields: { id, name, city } } and no more (bearerAuth: ` +
      '"public-demo-token sees name and city")',
    {
      view: (record, context, standard) =>
        context.level === 'public' ? { ...standard, region: record.region } : standard,
    },
  ),
  server(
    'public sees capacity on the item endpoint only',
    'broken',
    'interface',
    'getWarehouse x-stockmock.views.public { fields: { id, name, city } }: the item shows ' +
      'what the level may see, as the list does',
    {
      view: (record, context, standard) =>
        context.level === 'public' && context.place === 'item'
          ? { ...standard, capacity: record.capacity }
          : standard,
    },
  ),
  server(
    'staff view drops capacity',
    'broken',
    'interface',
    `${VIEWS_RULE}: staff { ..., rest: true } shows every other field of the record ` +
      '(README, "Declare a resource"), capacity included',
    {
      view: (_record, context, standard) =>
        context.level === 'staff'
          ? pick(
              standard,
              Object.keys(standard).filter((name) => name !== 'capacity'),
            )
          : standard,
    },
  ),
  server(
    'walk repeats an item',
    'broken',
    'interface',
    'Page and Limit pagination (PRODUCT.md: links walk the whole list exactly once; order ' +
      'stable across pages): page 2 on starts one item early, so the last item of page 1 ' +
      'appears twice (and the very last item is lost when the total is a multiple of limit)',
    { pageOffset: (page, size) => Math.max(0, (page - 1) * size - 1) },
  ),
  server(
    'next link drops the filter',
    'broken',
    'interface',
    'links keep every filter (README, "Declare a resource"; PRODUCT.md links: "the query of ' +
      'each link keeps every filter and the limit"): here every link keeps only limit and page',
    {
      linkQuery: (standard) =>
        new URLSearchParams([...standard].filter(([name]) => name === 'limit')),
    },
  ),
  server(
    'item endpoint answers another item',
    'broken',
    'interface',
    'getWarehouse x-stockmock { item: id }: the item is found by its key; it answers the ' +
      'next record with a greater id instead',
    {
      findItem: (records, id) => [...records].sort(byId).find((record) => record.id > id),
    },
  ),
  server(
    'missing token served as public',
    'broken',
    'interface',
    'security bearerAuth and the 401 Unauthorized response (RFC 6750 §3.1; PRODUCT.md: a ' +
      'missing token is a 401 with WWW-Authenticate)',
    {
      authenticate: (authorization, tokens) => {
        const outcome = authenticateBearer(authorization, tokens);
        return outcome.kind === 'missing' ? { kind: 'level', level: 'public' } : outcome;
      },
    },
  ),
  server(
    'limit ignored',
    'broken',
    'interface',
    'components.parameters.Limit (1–100, default 10): a page holds limit items, all but the ' +
      'last page full; here every page holds 10',
    { pageSize: () => DEFAULT_LIMIT },
  ),
];

/**
 * Correct services that decide a stand-in's open point otherwise. The spec's prose also states
 * the first two (info.description: "Lists are ordered by id"; the name parameter:
 * "Case-insensitive"), but they are PRODUCT.md decisions that no x-stockmock keyword declares.
 */
const DIFFERENT: readonly WarehouseServer[] = [
  server(
    'ordered by name',
    'different',
    'stand-in',
    'PRODUCT.md "order of list items: by id, ascending": ordered by name instead (code units, ' +
      'ties by id), still stable across pages',
    {
      order: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byId(a, b)),
    },
  ),
  server(
    'name match case-sensitive',
    'different',
    'stand-in',
    'PRODUCT.md "name filter: case-insensitive substring ... Unicode-aware case folding": ' +
      'a case-sensitive literal substring instead',
    { matchers: { name: (record, value) => record.name.includes(value) } },
  ),
  server(
    'extra response headers and pretty JSON',
    'different',
    'stand-in',
    'PRODUCT.md leaves headers and whitespace free: X-Request-Id, Cache-Control: no-store and ' +
      'X-Powered-By on every reply, JSON indented by two spaces',
    {
      extraHeaders: () => ({
        'x-request-id': randomUUID(),
        'cache-control': 'no-store',
        'x-powered-by': 'warehouses-fixture',
      }),
      indent: 2,
    },
  ),
];

export const WAREHOUSE_VARIANTS: readonly WarehouseServer[] = [...BROKEN, ...DIFFERENT];
