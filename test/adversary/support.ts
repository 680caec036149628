/**
 * @module Shared tools of the adversary tests: the CLI as a real child process, hostile
 * node:http targets on 127.0.0.1, and a minimal stock service that answers two tokens.
 * Written from the docs alone, without reading src/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const cliPath = `${root}bin/stockmock.js`;

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly onSpawn?: (child: ChildProcess) => void;
}

const running = new Set<ChildProcess>();

/** Runs `bin/stockmock.js ARGS` to its end. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  options.onSpawn?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Kills every CLI process still running (a test that timed out leaves its child behind). */
export function killRunningClis(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Stops a process, first with SIGTERM, then with SIGKILL (a frozen event loop ignores SIGTERM). */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export type Handler = (request: IncomingMessage, response: ServerResponse, origin: string) => void;

export interface Target {
  readonly url: string;
  readonly server: Server;
  /** Method and URL of every request received, in order. */
  readonly hits: string[];
  close(): Promise<void>;
}

/** A node:http server of the test's own on a free loopback port. */
export async function startTarget(handler: Handler): Promise<Target> {
  const hits: string[] = [];
  let origin = '';
  const server = createServer((request, response) => {
    hits.push(`${request.method ?? ''} ${request.url ?? ''}`);
    try {
      handler(request, response, origin);
    } catch (error) {
      response.statusCode = 500;
      response.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return {
    url: origin,
    server,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** The shipped spec as a JSON value, to be altered by a test. */
export async function shippedSpec(): Promise<Record<string, unknown>> {
  return parse(await readFile(`${root}spec/openapi.yaml`, 'utf8')) as Record<string, unknown>;
}

export const STATUS = 'x';
export const QUANTITY = 'y';

export interface StockServiceOptions {
  /** The document served at /openapi.json (a JSON value), or a handler of its own. */
  readonly spec?: unknown;
  readonly openapi?: Handler;
  readonly products?: readonly Record<string, unknown>[];
  /** Raw bodies served instead of a list, for GET /v1/stock or /v1/products. */
  readonly rawStock?: string;
  readonly rawProducts?: string;
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function problem(response: ServerResponse, status: number, title: string): void {
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="stock"';
  const body = JSON.stringify({ type: 'about:blank', title, status });
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/**
 * A small stock service that takes the tokens `x` (status) and `y` (quantity): one page of
 * products, lists with links, items by id, and whatever a test plants in it.
 */
export function stockService(options: StockServiceOptions = {}): Handler {
  const products = options.products ?? [{ id: 1, name: 'Oak table', quantity: 3 }];
  return (request, response, origin) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/openapi.json') {
      if (options.openapi) {
        options.openapi(request, response, origin);
        return;
      }
      send(response, 200, 'application/json', JSON.stringify(options.spec ?? {}));
      return;
    }
    if (url.pathname === '/healthz') {
      send(
        response,
        200,
        'application/json',
        JSON.stringify({ status: 'ok', products: products.length }),
      );
      return;
    }
    const auth = request.headers.authorization ?? '';
    const level =
      auth === `Bearer ${STATUS}`
        ? 'status'
        : auth === `Bearer ${QUANTITY}`
          ? 'quantity'
          : undefined;
    if (level === undefined) {
      problem(response, 401, 'Unauthorized');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      problem(response, 405, 'Method Not Allowed');
      return;
    }
    const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? '10') || 10));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
    const stock = (product: Record<string, unknown>): Record<string, unknown> => {
      const quantity = typeof product.quantity === 'number' ? product.quantity : 0;
      const status = quantity > 0 ? 'available' : 'out_of_stock';
      return level === 'quantity'
        ? { product_id: product.id, quantity, status }
        : { product_id: product.id, status };
    };
    const list = (path: string, items: readonly unknown[]): string => {
      const pages = Math.max(1, Math.ceil(items.length / limit));
      const link = (n: number): string =>
        `${origin}${path}?limit=${String(limit)}&page=${String(n)}`;
      return JSON.stringify({
        data: items.slice((page - 1) * limit, page * limit),
        links: {
          first: link(1),
          last: link(pages),
          prev: page > 1 ? link(Math.min(page - 1, pages)) : null,
          next: page < pages ? link(page + 1) : null,
        },
      });
    };
    const itemMatch = /^\/v1\/(stock|products)\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/v1/stock') {
      send(
        response,
        200,
        'application/json',
        options.rawStock ?? list('/v1/stock', products.map(stock)),
      );
    } else if (url.pathname === '/v1/products') {
      send(
        response,
        200,
        'application/json',
        options.rawProducts ??
          list(
            '/v1/products',
            products.map(({ id, name }) => ({ id, name })),
          ),
      );
    } else if (itemMatch) {
      const found = products.find((product) => String(product.id) === itemMatch[2]);
      if (!found) {
        problem(response, 404, 'Not Found');
        return;
      }
      const data = itemMatch[1] === 'stock' ? stock(found) : { id: found.id, name: found.name };
      send(response, 200, 'application/json', JSON.stringify({ data }));
    } else {
      problem(response, 404, 'Not Found');
    }
  };
}
