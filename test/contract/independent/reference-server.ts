/**
 * A from-scratch implementation of the Stock Service Interface on node:http, deciding every open
 * point as PRODUCT.md does. It serves as the checker's correct reference and, through `decisions`
 * and `faults`, as the base of every variant: a variant changes one decision or plugs in one
 * fault, and everything else stays the reference.
 */
import { corsHeaders } from '../cors-headers.ts';
import { randomUUID } from 'node:crypto';
import {
  createServer,
  STATUS_CODES,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { makeCatalogue, type CatalogueName, type Product, type StockStatus } from './catalogue.ts';
import { acceptsGzip, acceptsJson, readCredentials } from './http-rules.ts';
import type { Json, JsonObject } from './json.ts';
import {
  caseInsensitiveSubstring,
  caseSensitiveSubstring,
  DEFAULT_LIMIT,
  lastPage,
  linkParameters,
  matchesAll,
  ordered,
  pageLink,
  pageSlice,
  parseIdFilter,
  parseLimit,
  parsePage,
  parsePathId,
  parseStatus,
  standardLinks,
  type Links,
  type ListQuery,
  type NameMatcher,
  type Order,
  type PageInfo,
  type Parsed,
} from './query.ts';
import type { RunningServer } from './servers.ts';

export type Level = 'status' | 'quantity';

export interface Tokens {
  readonly status: string;
  readonly quantity: string;
}

/** The open points of the interface; PRODUCT_DECISIONS holds PRODUCT.md's choices. */
export interface Decisions {
  readonly unknownParameters: 'reject' | 'ignore';
  /** A page past the end: 200 with empty data, or a 404 problem. */
  readonly pastTheEnd: 'empty' | 'not-found';
  /** Prefix of problem `type` URIs; null sends `about:blank` with status phrases as titles. */
  readonly problemTypeBase: string | null;
  /** The `type` URI of each problem by status, winning over `problemTypeBase`; null: none. */
  readonly problemTypes: Readonly<Record<number, string>> | null;
  readonly realm: string;
  /**
   * Auth-params of the 401 challenge: `plain` sends realm (and error for a token given);
   * `described` adds scope, and error_description for a token given (RFC 6750 §3).
   */
  readonly challenge: 'plain' | 'described';
  /** Whether a 400 names each bad parameter in an `errors` member. */
  readonly parameterErrors: boolean;
  readonly order: Order;
  /** Name of the absolute stock level in stock objects. */
  readonly quantityField: 'quantity' | 'stock';
  /**
   * JSON type of product ids (`product_id`, and `id` of product records); `string-in-stock`: a
   * string as `product_id` of stock objects, an integer as `id` of product records.
   */
  readonly productIdType: 'integer' | 'string' | 'string-in-stock';
  readonly nameMatch: 'case-insensitive' | 'case-sensitive';
  /** `negotiate` answers 406 to an Accept that excludes JSON; `ignore` always serves JSON. */
  readonly accept: 'negotiate' | 'ignore';
  /** `gzip` compresses a body when Accept-Encoding admits gzip (with Vary: Accept-Encoding). */
  readonly contentCoding: 'identity' | 'gzip';
  /** JSON bodies on one line, or indented by two spaces. */
  readonly jsonLayout: 'compact' | 'indented';
  /** Headers beyond the interface's: none, or a fresh X-Request-Id and Cache-Control: no-store. */
  readonly extraHeaders: 'none' | 'request-id-and-no-store';
  /** Message framing of bodies: a Content-Length, or the chunked transfer coding. */
  readonly framing: 'content-length' | 'chunked';
  /**
   * The open /healthz: PRODUCT.md's (up, and the catalogue's size), or a service's own that
   * says it is up and nothing more.
   */
  readonly health: 'counted' | 'up-only';
}

export const PRODUCT_DECISIONS: Decisions = {
  unknownParameters: 'reject',
  pastTheEnd: 'empty',
  problemTypeBase: 'urn:problem-type:stockmock:',
  problemTypes: null,
  realm: 'stockmock',
  challenge: 'plain',
  parameterErrors: true,
  order: 'id',
  quantityField: 'quantity',
  productIdType: 'integer',
  nameMatch: 'case-insensitive',
  accept: 'negotiate',
  contentCoding: 'identity',
  jsonLayout: 'compact',
  extraHeaders: 'none',
  framing: 'content-length',
  health: 'counted',
};

export type Resource = 'stock' | 'products';

export interface Route {
  readonly resource: Resource;
  /** The raw path segment after the resource; absent for the list. */
  readonly idSegment?: string;
}

export type AuthOutcome =
  | { readonly kind: 'level'; readonly level: Level }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid' };

/** A response before it is written. `raw` (sent as is) wins over `body` (serialized as JSON). */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Json;
  readonly raw?: string;
}

export type ProblemFactory = (status: number, detail: string, extra?: JsonObject) => Reply;

/** What a rewrite knows about the request a reply answers. */
export interface ReplyContext {
  readonly method: string;
  readonly url: URL;
  readonly requestHeaders: IncomingHttpHeaders;
  readonly route: Route | undefined;
  readonly level: Level | undefined;
  /** The page of a successful list reply. */
  readonly page: PageInfo | undefined;
  readonly problem: ProblemFactory;
}

export interface LinkContext {
  readonly info: PageInfo;
  /** The query every link keeps (filters and the request's limit), without `page`. */
  readonly parameters: URLSearchParams;
  /** Absolute base of the list: scheme, host and path. */
  readonly base: string;
  readonly path: string;
  /** An absolute link to `page`, keeping `parameters` (or the ones given). */
  readonly link: (page: number, parameters?: URLSearchParams) => string;
}

export interface SelectContext {
  readonly resource: Resource;
  readonly nameMatches: NameMatcher;
}

export interface ViewContext {
  readonly level: Level;
  readonly place: 'list' | 'single';
}

/**
 * Hooks and flags that break one thing each. Every hook gets what the reference would do (or
 * its inputs) and returns its replacement; a hook that throws turns into a 500, as an unhandled
 * error does in a real service.
 */
export interface Faults {
  /** Methods served like GET (the reference: GET and HEAD). */
  readonly servedMethods?: readonly string[];
  readonly authenticate?: (authorization: string | undefined, tokens: Tokens) => AuthOutcome;
  readonly acceptsJson?: (accept: string | undefined) => boolean;
  readonly nameMatches?: NameMatcher;
  readonly repeatedParameters?: 'reject' | 'last-wins';
  readonly parseLimit?: (raw: string) => Parsed<number>;
  readonly parsePage?: (raw: string) => Parsed<number>;
  readonly parseStatus?: (raw: string) => Parsed<StockStatus | undefined>;
  readonly parsePathId?: (segment: string) => number | undefined;
  readonly parseIdFilter?: (raw: string) => Parsed<number>;
  /** Reads the Authorization field of a request (the reference: Node's parsed headers). */
  readonly readAuthorization?: (request: IncomingMessage) => string | undefined;
  /** The Content-Length sent for a body (the reference: its length in bytes); the body is cut to it. */
  readonly contentLength?: (payload: string, bytes: Buffer) => number;
  /**
   * Reads the query (`url.search`, `?` included) into parameters; the reference reads it as the
   * WHATWG URL parser does, a `+` being a space.
   */
  readonly readQuery?: (search: string) => URLSearchParams;
  readonly defaultLimit?: number;
  /** The page size actually used for a valid limit; links still echo the request's limit. */
  readonly effectiveLimit?: (limit: number) => number;
  /** Replaces filtering: gets every product and the query, returns the matching ones. */
  readonly select?: (
    products: readonly Product[],
    query: ListQuery,
    context: SelectContext,
  ) => readonly Product[];
  /** Rearranges the ordered list before it is paginated. */
  readonly arrange?: (items: readonly Product[]) => readonly Product[];
  readonly slice?: (items: readonly Product[], page: number, limit: number) => readonly Product[];
  readonly links?: (context: LinkContext) => Links;
  readonly stockView?: (product: Product, view: ViewContext, standard: JsonObject) => JsonObject;
  readonly productView?: (
    product: Product,
    place: ViewContext['place'],
    standard: JsonObject,
  ) => JsonObject;
  /** A response cache keyed by URL only (not by token), on lists or on single items. */
  readonly cacheByUrl?: 'list' | 'single';
  /** HEAD answered with the GET body written after the headers. */
  readonly headWithBody?: boolean;
  /** Rewrites every reply just before it is sent. */
  readonly rewrite?: (reply: Reply, context: ReplyContext) => Reply;
  /**
   * Adjusts node's response just before its head is written, for a fault in how the connection
   * is handled (the reference: node's own handling, untouched).
   */
  readonly prepareResponse?: (request: IncomingMessage, response: ServerResponse) => void;
}

export interface ReferenceOptions {
  readonly decisions?: Partial<Decisions>;
  readonly faults?: Faults;
  readonly catalogue?: CatalogueName | readonly Product[];
  readonly tokens?: Tokens;
  /** Base of the links; else the request's own scheme and host. */
  readonly baseUrl?: string;
}

export const DEFAULT_TOKENS: Tokens = {
  status: 'independent-status-token',
  quantity: 'independent-quantity-token',
};

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json';
const ALLOW = 'GET, HEAD, OPTIONS';

/** Problem types and titles as the stand-in's published spec shows them. */
const PROBLEM_KINDS: Readonly<Record<number, { slug: string; title: string }>> = {
  400: { slug: 'invalid-parameters', title: 'Invalid parameters' },
  401: { slug: 'unauthorized', title: 'Unauthorized' },
  404: { slug: 'not-found', title: 'Not found' },
  405: { slug: 'method-not-allowed', title: 'Method not allowed' },
  406: { slug: 'not-acceptable', title: 'Not acceptable' },
  500: { slug: 'internal-error', title: 'Internal server error' },
};

function problemFactory(decisions: Decisions): ProblemFactory {
  return (status, detail, extra = {}) => {
    const phrase = STATUS_CODES[status] ?? 'Error';
    const kind = PROBLEM_KINDS[status] ?? {
      slug: phrase.toLowerCase().replaceAll(' ', '-'),
      title: phrase,
    };
    // With about:blank, RFC 9457 §4.2.1 wants the status phrase as the title.
    const base = decisions.problemTypeBase;
    const own = decisions.problemTypes?.[status];
    const type = own ?? (base === null ? 'about:blank' : `${base}${kind.slug}`);
    const title = own === undefined && base === null ? phrase : kind.title;
    return {
      status,
      headers: { 'content-type': PROBLEM_TYPE },
      body: { type, title, status, detail, ...extra },
    };
  };
}

function withHeaders(reply: Reply, headers: Record<string, string>): Reply {
  return { ...reply, headers: { ...reply.headers, ...headers } };
}

function matchRoute(pathname: string): Route | undefined {
  const match = /^\/v1\/(stock|products)(?:\/([^/]+))?$/.exec(pathname);
  const resource = match?.[1];
  if (resource !== 'stock' && resource !== 'products') return undefined;
  const segment = match?.[2];
  return segment === undefined ? { resource } : { resource, idSegment: segment };
}

/** A percent-decoded path segment; a malformed escape stays as it is (and is no id). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The standard authentication: a known bearer token gives its level. */
export function authenticateBearer(authorization: string | undefined, tokens: Tokens): AuthOutcome {
  const credentials = readCredentials(authorization);
  if (credentials.kind !== 'bearer') return { kind: 'missing' };
  if (credentials.token === tokens.status) return { kind: 'level', level: 'status' };
  if (credentials.token === tokens.quantity) return { kind: 'level', level: 'quantity' };
  return { kind: 'invalid' };
}

interface ParameterError extends JsonObject {
  readonly parameter: string;
  readonly in: 'query' | 'path';
  readonly message: string;
}

const LIST_PARAMETERS: Readonly<Record<Resource, readonly string[]>> = {
  stock: ['name', 'id', 'status', 'limit', 'page'],
  products: ['name', 'id', 'limit', 'page'],
};

/** The reference service, parametrized by decisions and faults. */
class StockService {
  private readonly products: readonly Product[];
  private readonly decisions: Decisions;
  private readonly faults: Faults;
  private readonly tokens: Tokens;
  private readonly problem: ProblemFactory;
  private readonly nameMatches: NameMatcher;
  private readonly cache = new Map<string, Reply>();
  private readonly baseUrl: string | undefined;

  constructor(options: ReferenceOptions) {
    this.baseUrl = options.baseUrl?.replace(/\/$/, '');
    const catalogue = options.catalogue ?? 'default';
    this.products = typeof catalogue === 'string' ? makeCatalogue(catalogue) : catalogue;
    this.decisions = { ...PRODUCT_DECISIONS, ...options.decisions };
    this.faults = options.faults ?? {};
    this.tokens = options.tokens ?? DEFAULT_TOKENS;
    this.problem = problemFactory(this.decisions);
    this.nameMatches =
      this.faults.nameMatches ??
      (this.decisions.nameMatch === 'case-sensitive'
        ? caseSensitiveSubstring
        : caseInsensitiveSubstring);
  }

  /** Answers one request: the reply, rewritten by the fault if any. */
  answer(request: IncomingMessage): Reply {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    const method = request.method ?? 'GET';
    const route = matchRoute(url.pathname);
    let level: Level | undefined;
    let page: PageInfo | undefined;
    let reply: Reply;
    try {
      const outcome = this.handle(request, method, url, route);
      level = outcome.level;
      page = outcome.page;
      reply = outcome.reply;
    } catch (error) {
      reply = this.problem(500, `Unexpected error: ${String(error)}`);
    }
    reply = withHeaders(reply, corsHeaders(request));
    if (this.decisions.extraHeaders === 'request-id-and-no-store') {
      reply = withHeaders(reply, { 'x-request-id': randomUUID(), 'cache-control': 'no-store' });
    }
    const rewrite = this.faults.rewrite;
    if (rewrite === undefined) return reply;
    try {
      const requestHeaders = request.headers;
      return rewrite(reply, {
        method,
        url,
        requestHeaders,
        route,
        level,
        page,
        problem: this.problem,
      });
    } catch (error) {
      return this.problem(500, `Unexpected error: ${String(error)}`);
    }
  }

  private handle(
    request: IncomingMessage,
    method: string,
    url: URL,
    route: Route | undefined,
  ): { reply: Reply; level?: Level; page?: PageInfo } {
    // PRODUCT.md's open /healthz: up, and the size of the catalogue.
    if (url.pathname === '/healthz' && (method === 'GET' || method === 'HEAD')) {
      const body =
        this.decisions.health === 'counted'
          ? { status: 'ok', products: this.products.length }
          : { status: 'ok' };
      return { reply: { status: 200, headers: { 'content-type': JSON_TYPE }, body } };
    }
    if (route === undefined) {
      return { reply: this.problem(404, `No resource has the path ${url.pathname}.`) };
    }
    if (method === 'OPTIONS') return { reply: { status: 204, headers: { allow: ALLOW } } };
    const served = this.faults.servedMethods ?? ['GET', 'HEAD'];
    if (!served.includes(method)) {
      const detail = `${url.pathname} supports ${ALLOW}, not ${method}.`;
      return { reply: withHeaders(this.problem(405, detail), { allow: ALLOW }) };
    }

    const read = this.faults.readAuthorization;
    const authorization = read === undefined ? request.headers.authorization : read(request);
    const auth = (this.faults.authenticate ?? authenticateBearer)(authorization, this.tokens);
    if (auth.kind !== 'level') return { reply: this.unauthorized(auth.kind === 'invalid') };
    const level = auth.level;

    const accepts = this.faults.acceptsJson ?? acceptsJson;
    if (this.decisions.accept === 'negotiate' && !accepts(request.headers.accept)) {
      const detail = 'This resource is served as application/json only; Accept excludes it.';
      return { reply: this.problem(406, detail), level };
    }

    const cacheKey = this.cacheKey(route, url);
    const cached = cacheKey === undefined ? undefined : this.cache.get(cacheKey);
    if (cached !== undefined) return { reply: cached, level };

    const result = this.serve(route, url, level, this.linkBase(request));
    if (cacheKey !== undefined && result.reply.status === 200)
      this.cache.set(cacheKey, result.reply);
    return { ...result, level };
  }

  private unauthorized(tokenGiven: boolean): Reply {
    const realm = `Bearer realm="${this.decisions.realm}"`;
    let challenge = tokenGiven ? `${realm}, error="invalid_token"` : realm;
    if (this.decisions.challenge === 'described') {
      // RFC 6750 §3.1: no error information when no token was given; scope is not one.
      const described = tokenGiven ? ', error_description="The access token is not known"' : '';
      challenge = `${challenge}${described}, scope="stock"`;
    }
    const detail = tokenGiven
      ? 'The bearer token is not known.'
      : 'Send a token: Authorization: Bearer <token>.';
    return withHeaders(this.problem(401, detail), { 'www-authenticate': challenge });
  }

  private cacheKey(route: Route, url: URL): string | undefined {
    const kind = route.idSegment === undefined ? 'list' : 'single';
    return this.faults.cacheByUrl === kind ? `${url.pathname}${url.search}` : undefined;
  }

  private linkBase(request: IncomingMessage): string {
    if (this.baseUrl !== undefined) return this.baseUrl;
    const address = request.socket.address() as AddressInfo;
    return `http://${request.headers.host ?? `${address.address}:${address.port}`}`;
  }

  private serve(
    route: Route,
    url: URL,
    level: Level,
    base: string,
  ): { reply: Reply; page?: PageInfo } {
    const allowed = route.idSegment === undefined ? LIST_PARAMETERS[route.resource] : [];
    const errors: ParameterError[] = [];
    const search = this.faults.readQuery?.(url.search) ?? url.searchParams;
    const values = this.readParameters(search, allowed, errors);
    let id: number | undefined;
    if (route.idSegment !== undefined) {
      id = (this.faults.parsePathId ?? parsePathId)(decodeSegment(route.idSegment));
      if (id === undefined) {
        errors.push({ parameter: 'id', in: 'path', message: 'must be a positive integer' });
      }
    }
    if (errors.length > 0) return { reply: this.badRequest(errors) };
    if (id !== undefined) return { reply: this.single(route.resource, id, level) };
    return this.list(route.resource, values, level, base);
  }

  /** Validates the query: unknown and repeated parameters, then each value. */
  private readParameters(
    search: URLSearchParams,
    allowed: readonly string[],
    errors: ParameterError[],
  ): ListQuery {
    const names = [...new Set(search.keys())];
    for (const name of names.filter((n) => !allowed.includes(n))) {
      if (this.decisions.unknownParameters === 'reject') {
        errors.push({
          parameter: name,
          in: 'query',
          message: 'is not a parameter of this operation',
        });
      }
    }
    const single = (name: string): string | undefined => {
      if (!allowed.includes(name)) return undefined;
      const all = search.getAll(name);
      if (all.length > 1 && this.faults.repeatedParameters !== 'last-wins') {
        errors.push({ parameter: name, in: 'query', message: 'must be given at most once' });
      }
      return all.at(-1);
    };
    const read = <T>(name: string, parse: (raw: string) => Parsed<T>): T | undefined => {
      const raw = single(name);
      if (raw === undefined) return undefined;
      const parsed = parse(raw);
      if (parsed.ok) return parsed.value;
      errors.push({ parameter: name, in: 'query', message: parsed.message });
      return undefined;
    };
    const name = single('name');
    const id = read('id', this.faults.parseIdFilter ?? parseIdFilter);
    const status = read('status', this.faults.parseStatus ?? parseStatus);
    const limit = read('limit', this.faults.parseLimit ?? parseLimit);
    const page = read('page', this.faults.parsePage ?? parsePage);
    return {
      ...(name === undefined ? {} : { name }),
      ...(id === undefined ? {} : { id }),
      ...(status === undefined ? {} : { status }),
      limit: limit ?? this.faults.defaultLimit ?? DEFAULT_LIMIT,
      limitGiven: limit !== undefined,
      page: page ?? 1,
    };
  }

  private badRequest(errors: readonly ParameterError[]): Reply {
    const count = errors.length;
    const detail = count === 1 ? '1 parameter is invalid.' : `${count} parameters are invalid.`;
    return this.problem(400, detail, this.decisions.parameterErrors ? { errors } : {});
  }

  private single(resource: Resource, id: number, level: Level): Reply {
    const product = this.products.find((p) => p.id === id);
    if (product === undefined) return this.problem(404, `No product has the id ${id}.`);
    const data =
      resource === 'stock'
        ? this.stockView(product, { level, place: 'single' })
        : this.productView(product, 'single');
    return this.ok({ data });
  }

  private list(
    resource: Resource,
    query: ListQuery,
    level: Level,
    base: string,
  ): { reply: Reply; page?: PageInfo } {
    const context = { resource, nameMatches: this.nameMatches };
    const selected =
      this.faults.select?.(this.products, query, context) ??
      this.products.filter((p) => matchesAll(p, query, this.nameMatches));
    const sorted = ordered(selected, this.decisions.order);
    const items = this.faults.arrange?.(sorted) ?? sorted;
    const limit = this.faults.effectiveLimit?.(query.limit) ?? query.limit;
    const info: PageInfo = {
      total: items.length,
      page: query.page,
      limit,
      last: lastPage(items.length, limit),
    };
    if (info.page > info.last && this.decisions.pastTheEnd === 'not-found') {
      const detail = `Page ${info.page} is past the last page, ${info.last}.`;
      return { reply: this.problem(404, detail) };
    }
    const slice = this.faults.slice ?? pageSlice;
    const data = slice(items, info.page, limit).map((product) =>
      resource === 'stock'
        ? this.stockView(product, { level, place: 'list' })
        : this.productView(product, 'list'),
    );
    const path = `/v1/${resource}`;
    const parameters = linkParameters(query);
    const linkContext: LinkContext = {
      info,
      parameters,
      base: `${base}${path}`,
      path,
      link: (target, keep = parameters) => pageLink(`${base}${path}`, keep, target),
    };
    const links =
      this.faults.links?.(linkContext) ?? standardLinks(info, (target) => linkContext.link(target));
    return { reply: this.ok({ data, links: { ...links } }), page: info };
  }

  private productId(product: Product, place: 'stock' | 'record'): Json {
    const type = this.decisions.productIdType;
    const string = type === 'string' || (type === 'string-in-stock' && place === 'stock');
    return string ? String(product.id) : product.id;
  }

  private stockView(product: Product, view: ViewContext): JsonObject {
    const standard: JsonObject =
      view.level === 'status'
        ? { product_id: this.productId(product, 'stock'), status: product.status }
        : {
            product_id: this.productId(product, 'stock'),
            [this.decisions.quantityField]: product.quantity,
            status: product.status,
          };
    return this.faults.stockView?.(product, view, standard) ?? standard;
  }

  private productView(product: Product, place: ViewContext['place']): JsonObject {
    const standard: JsonObject = {
      id: this.productId(product, 'record'),
      name: product.name,
      ...product.extra,
    };
    return this.faults.productView?.(product, place, standard) ?? standard;
  }

  private ok(body: JsonObject): Reply {
    return {
      status: 200,
      headers: { 'content-type': JSON_TYPE, vary: 'Accept, Authorization' },
      body,
    };
  }
}

function serialize(body: Json, layout: Decisions['jsonLayout']): string {
  return layout === 'indented' ? JSON.stringify(body, null, 2) : JSON.stringify(body);
}

/**
 * The bytes of a body as sent: gzip-compressed when the decision says so and the request's
 * Accept-Encoding admits gzip, Vary naming Accept-Encoding either way (RFC 9110 §12.5.5).
 */
function encode(
  request: IncomingMessage,
  bytes: Buffer,
  headers: Record<string, string>,
  coding: Decisions['contentCoding'],
): Buffer {
  if (coding === 'identity') return bytes;
  const vary = headers['vary'];
  headers['vary'] = vary === undefined ? 'Accept-Encoding' : `${vary}, Accept-Encoding`;
  if (!acceptsGzip(request.headers['accept-encoding'])) return bytes;
  headers['content-encoding'] = 'gzip';
  return gzipSync(bytes);
}

/** Writes a reply; HEAD gets the same status and headers as GET, without the body. */
function send(
  request: IncomingMessage,
  response: ServerResponse,
  reply: Reply,
  faults: Faults,
  decisions: Decisions,
) {
  const body = reply.body;
  const payload =
    reply.raw ?? (body === undefined ? undefined : serialize(body, decisions.jsonLayout));
  const headers: Record<string, string> = { ...reply.headers };
  const encoded =
    payload === undefined
      ? undefined
      : encode(request, Buffer.from(payload, 'utf8'), headers, decisions.contentCoding);
  const length =
    payload === undefined || encoded === undefined
      ? undefined
      : (faults.contentLength?.(payload, encoded) ?? encoded.length);
  const bytes = length === undefined ? encoded : encoded?.subarray(0, length);
  if (bytes !== undefined && decisions.framing === 'content-length') {
    headers['content-length'] = String(bytes.length);
  }
  if (request.method === 'HEAD' && faults.headWithBody === true && bytes !== undefined) {
    // node:http never writes a body for HEAD: write the response by hand, then close.
    const lines = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    lines.push('connection: close', '', '');
    request.socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), bytes]));
    return;
  }
  faults.prepareResponse?.(request, response);
  response.writeHead(reply.status, headers);
  if (request.method === 'HEAD' || bytes === undefined) response.end();
  else if (decisions.framing === 'chunked') {
    // No Content-Length: node:http sends the body in chunks (RFC 9112 §7.1), here two.
    const half = Math.floor(bytes.length / 2);
    response.write(bytes.subarray(0, half));
    response.end(bytes.subarray(half));
  } else response.end(bytes);
}

/** Starts a server on 127.0.0.1, on a free port. */
export async function startReferenceServer(options: ReferenceOptions = {}): Promise<RunningServer> {
  const service = new StockService(options);
  const faults = options.faults ?? {};
  const decisions: Decisions = { ...PRODUCT_DECISIONS, ...options.decisions };
  const server = createServer((request, response) => {
    send(request, response, service.answer(request), faults, decisions);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens: options.tokens ?? DEFAULT_TOKENS,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        // Idle keep-alive connections would hold close() open.
        server.closeAllConnections();
      }),
  };
}
