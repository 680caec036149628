/**
 * Hostile stock services for the tests of `stockmock record`: small node:http servers that serve
 * the stock interface's two lists (`/v1/stock`, `/v1/products`) and their items over a generated
 * catalogue, each with one deliberate fault (or none). They share no code with src/ on purpose,
 * so a mistake there cannot hide itself here.
 *
 * Catalogue (ids 1..N, default N = 12): name `Oak table ID`; category cycles tables, chairs,
 * shelves; quantity 0 with explicit status `incoming` when id % 10 === 5, else 0 when
 * id % 4 === 0, else null when id % 7 === 0, else (id * 7) % 23 + 1.
 */
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileService {
  readonly url: string;
  readonly tokens: { readonly status: string; readonly quantity: string };
  /** every request line received, in order: `GET /v1/stock?limit=100&page=1 status` (method, path+query, level or 'none') */
  readonly requests: readonly string[];
  /** request lines received by the off-origin server ('next-off-origin' only; empty otherwise) */
  readonly offOriginRequests: readonly string[];
  close(): Promise<void>;
}

export type Fault =
  | 'none' // correct
  | 'invalid-json-page' // page 2 of /v1/stock (any limit) answers 200 with a body that is not valid JSON
  | 'next-loops' // links.next of the LAST page of /v1/stock points back to page 1
  | 'duplicate-across-pages' // /v1/stock page 2 repeats one item of page 1 (and drops one item)
  | 'missing-key' // one item of /v1/stock lacks product_id (at both levels)
  | 'levels-disagree' // at level quantity one product's status differs from the status level's
  | 'level-lacks-item' // the status level's /v1/stock omits product 5, totals adjusted
  | 'unauthorized-quantity' // the quantity token gets 401 everywhere (the status token works)
  | 'forbidden' // every request with a valid token gets 403 problem
  | 'rate-limited-once' // the FIRST request ever answers 429 with `Retry-After: 1`
  | 'next-off-origin' // links.next of /v1/stock page 1 points to a second server on 127.0.0.2
  | 'products-changes'; // /v1/products shows a new name for product 3 on each request after the first

type Level = 'status' | 'quantity';
type Status = 'available' | 'incoming' | 'on_request' | 'out_of_stock';
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Product {
  readonly id: number;
  readonly name: string;
  readonly category: string;
  readonly quantity: number | null;
  /** Explicit status; wins over the one derived from the quantity. */
  readonly status: Status | null;
}

const TOKENS = { status: 'status-token', quantity: 'quantity-token' } as const;

/** The product each fault touches, named once so the report and the code agree. */
const MISSING_KEY_ID = 2;
const CHANGING_NAME_ID = 3;
const LACKING_ID = 5;
const DISAGREEING_ID = 1;

function makeProduct(id: number): Product {
  const category = id % 3 === 1 ? 'tables' : id % 3 === 2 ? 'chairs' : 'shelves';
  const base = { id, name: `Oak table ${id}`, category };
  if (id % 10 === 5) return { ...base, quantity: 0, status: 'incoming' };
  if (id % 4 === 0) return { ...base, quantity: 0, status: null };
  if (id % 7 === 0) return { ...base, quantity: null, status: null };
  return { ...base, quantity: ((id * 7) % 23) + 1, status: null };
}

function deriveStatus(product: Product): Status {
  if (product.status !== null) return product.status;
  if (product.quantity === null) return 'on_request';
  return product.quantity > 0 ? 'available' : 'out_of_stock';
}

/** What one server needs to answer: its fault, data, where its links point, and its log. */
interface Context {
  readonly fault: Fault;
  readonly products: readonly Product[];
  /** Origin used in links; the off-origin server links back to the main one. */
  linkOrigin: string;
  /** Origin of the off-origin server, for the 'next-off-origin' link. */
  offOrigin: string;
  readonly log: string[];
  /** Requests answered so far, and those to /v1/products: the stateful faults count them. */
  requestCount: number;
  productRequestCount: number;
}

function levelOf(req: IncomingMessage): Level | null {
  const match = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const token = match?.[1];
  if (token === TOKENS.status) return 'status';
  if (token === TOKENS.quantity) return 'quantity';
  return null;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: Json,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function sendProblem(
  res: ServerResponse,
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): void {
  const body = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail };
  res.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
  res.end(JSON.stringify(body));
}

/** A query integer: the default when absent, an error message when out of range. */
function intParam(
  params: URLSearchParams,
  name: string,
  fallback: number,
  max: number,
): number | string {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!/^[1-9]\d*$/.test(raw) || Number(raw) > max) {
    return `${name} must be an integer from 1 to ${max}`;
  }
  return Number(raw);
}

function stockItem(product: Product, level: Level, fault: Fault): Record<string, Json> {
  let status: Status = deriveStatus(product);
  if (fault === 'levels-disagree' && level === 'quantity' && product.id === DISAGREEING_ID) {
    status = status === 'incoming' ? 'available' : 'incoming';
  }
  const item: Record<string, Json> = {};
  if (!(fault === 'missing-key' && product.id === MISSING_KEY_ID)) item.product_id = product.id;
  if (level === 'quantity') item.quantity = product.quantity;
  item.status = status;
  return item;
}

function productRecord(product: Product, ctx: Context): Record<string, Json> {
  let name = product.name;
  // The counter already includes this request: from the second request on, a new name each time.
  if (
    ctx.fault === 'products-changes' &&
    product.id === CHANGING_NAME_ID &&
    ctx.productRequestCount > 1
  ) {
    name = `${product.name} (revision ${ctx.productRequestCount})`;
  }
  return { id: product.id, name, category: product.category };
}

/** The products a level sees in /v1/stock. */
function stockProducts(ctx: Context, level: Level): readonly Product[] {
  if (ctx.fault === 'level-lacks-item' && level === 'status') {
    return ctx.products.filter((product) => product.id !== LACKING_ID);
  }
  return ctx.products;
}

function sendList(
  res: ServerResponse,
  ctx: Context,
  collection: 'stock' | 'products',
  level: Level,
  params: URLSearchParams,
): void {
  const limit = intParam(params, 'limit', 10, 100);
  const page = intParam(params, 'page', 1, Number.MAX_SAFE_INTEGER);
  const errors = [limit, page].filter((value) => typeof value === 'string');
  if (typeof limit === 'string' || typeof page === 'string') {
    sendProblem(res, 400, errors.join('; '));
    return;
  }
  const isStock = collection === 'stock';
  if (isStock && ctx.fault === 'invalid-json-page' && page === 2) {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"data":[');
    return;
  }
  const all = isStock ? stockProducts(ctx, level) : ctx.products;
  const toJson = (product: Product): Json =>
    isStock ? stockItem(product, level, ctx.fault) : productRecord(product, ctx);
  const last = Math.max(1, Math.ceil(all.length / limit));
  let data = all.slice((page - 1) * limit, page * limit).map(toJson);
  const link = (target: number, origin = ctx.linkOrigin): string =>
    `${origin}/v1/${collection}?limit=${limit}&page=${target}`;
  let next = page < last ? link(page + 1) : null;

  if (isStock && ctx.fault === 'duplicate-across-pages' && page === 2 && data.length > 0) {
    const repeated = all[limit - 1];
    if (repeated !== undefined) data = [toJson(repeated), ...data.slice(1)];
  }
  if (isStock && ctx.fault === 'next-loops' && page === last) next = link(1);
  if (isStock && ctx.fault === 'next-off-origin' && page === 1 && next !== null) {
    next = link(2, ctx.offOrigin);
  }

  sendJson(res, 200, {
    data,
    links: {
      first: link(1),
      last: link(last),
      // Past the end, prev points at the last page.
      prev: page > 1 ? link(Math.min(page - 1, last)) : null,
      next,
    },
  });
}

function sendItem(
  res: ServerResponse,
  ctx: Context,
  collection: 'stock' | 'products',
  level: Level,
  rawId: string,
): void {
  if (!/^[1-9]\d*$/.test(rawId)) {
    sendProblem(res, 400, 'id must be a positive integer');
    return;
  }
  const id = Number(rawId);
  const pool = collection === 'stock' ? stockProducts(ctx, level) : ctx.products;
  const product = pool.find((candidate) => candidate.id === id);
  if (product === undefined) {
    sendProblem(res, 404, `no product with id ${id}`);
    return;
  }
  const data =
    collection === 'stock' ? stockItem(product, level, ctx.fault) : productRecord(product, ctx);
  sendJson(res, 200, { data });
}

function handle(req: IncomingMessage, res: ServerResponse, ctx: Context): void {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const level = levelOf(req);
  ctx.log.push(`${method} ${target} ${level ?? 'none'}`);
  ctx.requestCount += 1;

  if (ctx.fault === 'rate-limited-once' && ctx.requestCount === 1) {
    sendProblem(res, 429, 'too many requests; retry after 1 second', { 'retry-after': '1' });
    return;
  }
  if (level === null || (ctx.fault === 'unauthorized-quantity' && level === 'quantity')) {
    sendProblem(res, 401, 'a valid bearer token is required', {
      'www-authenticate': 'Bearer realm="hostile"',
    });
    return;
  }
  if (ctx.fault === 'forbidden') {
    sendProblem(res, 403, 'this token may not read stock');
    return;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    sendProblem(res, 405, `${method} is not allowed`, { allow: 'GET, HEAD' });
    return;
  }

  const url = new URL(target, 'http://placeholder');
  const match = /^\/v1\/(stock|products)(?:\/([^/]+))?$/.exec(url.pathname);
  const collection = match?.[1];
  if (collection !== 'stock' && collection !== 'products') {
    sendProblem(res, 404, `no resource at ${url.pathname}`);
    return;
  }
  if (collection === 'products') ctx.productRequestCount += 1;
  const rawId = match?.[2];
  if (rawId === undefined) sendList(res, ctx, collection, level, url.searchParams);
  else sendItem(res, ctx, collection, level, rawId);
}

function serve(ctx: Context): Server {
  return createServer((req, res) => {
    try {
      handle(req, res, ctx);
    } catch (error) {
      // A bug here must show as a 500 with its message, not as a hung request.
      if (!res.headersSent) sendProblem(res, 500, String(error));
      else res.destroy();
    }
  });
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
    // fetch keeps connections alive; without this, close waits for them to time out.
    server.closeAllConnections();
  });
}

export async function startHostile(
  fault: Fault,
  options: { products?: number } = {},
): Promise<HostileService> {
  const count = options.products ?? 12;
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`products must be a whole number >= 0, got ${count}`);
  }
  const products = Array.from({ length: count }, (_, index) => makeProduct(index + 1));
  const requests: string[] = [];
  const offOriginRequests: string[] = [];
  const mainCtx: Context = {
    fault,
    products,
    linkOrigin: '',
    offOrigin: '',
    log: requests,
    requestCount: 0,
    productRequestCount: 0,
  };
  const servers: Server[] = [];

  const main = serve(mainCtx);
  const port = await listen(main, '127.0.0.1');
  servers.push(main);
  mainCtx.linkOrigin = `http://127.0.0.1:${port}`;

  if (fault === 'next-off-origin') {
    // A correct copy on another origin: a walker that follows the link gets plausible data,
    // so only offOriginRequests tells that it went there.
    const offCtx: Context = { ...mainCtx, fault: 'none', log: offOriginRequests, requestCount: 0 };
    const off = serve(offCtx);
    try {
      const offPort = await listen(off, '127.0.0.2');
      servers.push(off);
      mainCtx.offOrigin = `http://127.0.0.2:${offPort}`;
    } catch (error) {
      await closeServer(main);
      throw error;
    }
  }

  let closing: Promise<void> | undefined;
  return {
    url: mainCtx.linkOrigin,
    tokens: { status: TOKENS.status, quantity: TOKENS.quantity },
    requests,
    offOriginRequests,
    close: () => {
      closing ??= Promise.all(servers.map(closeServer)).then(() => undefined);
      return closing;
    },
  };
}
