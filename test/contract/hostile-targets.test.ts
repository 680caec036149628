/**
 * The checker as a guest: targets whose links, bodies and pace are hostile. Each target is a
 * real server on loopback, either a proxy that changes what a real stockmock answers or a small
 * server of its own; a bystander on another port counts whatever reaches it.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../../src/cli/main.ts';
import { listenLive, type LiveServer } from '../helpers/live-server.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { buildTestApp, QUANTITY_TOKEN, STATUS_TOKEN } from '../helpers/test-app.ts';

const FIXTURE = `products:
${Array.from({ length: 23 }, (_, index) => `  - { id: ${String(index + 1)}, name: Item ${String(index + 1)}, quantity: ${String(index % 3)} }`).join('\n')}
`;

type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

async function listen(handler: Handler): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${String(port)}`, server };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => {
    server.close(() => {
      resolve();
    });
  });
}

/** A server that answers every request 404 and remembers the credentials it was sent. */
function bystander() {
  const seen: string[] = [];
  return {
    seen,
    handler: ((request, response) => {
      seen.push(
        `${request.method ?? ''} ${request.url ?? ''} ${request.headers.authorization ?? '(no token)'}`,
      );
      response.writeHead(404).end();
    }) satisfies Handler,
  };
}

/**
 * A proxy in front of `upstream` whose JSON answers pass through `change` first: the target the
 * checker sees answers as stockmock does, but for what `change` alters.
 */
function proxy(upstream: string, change: (path: string, body: unknown) => unknown): Handler {
  return async (request, response) => {
    const path = request.url ?? '/';
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection')
        headers[name] = value;
    }
    const answer = await fetch(`${upstream}${path}`, { method: request.method ?? 'GET', headers });
    const text = await answer.text();
    const type = answer.headers.get('content-type') ?? '';
    const out: Record<string, string> = { 'content-type': type };
    for (const name of ['www-authenticate', 'allow', 'vary', 'cache-control']) {
      const value = answer.headers.get(name);
      if (value !== null) out[name] = value;
    }
    const body =
      type.includes('json') && text !== '' ? JSON.stringify(change(path, JSON.parse(text))) : text;
    response.writeHead(answer.status, out).end(request.method === 'HEAD' ? undefined : body);
  };
}

/** Every link of a list page pointed elsewhere, keeping its query. */
function pointLinksAt(origin: string, body: unknown): unknown {
  const page = body as { data?: unknown; links?: Record<string, string | null> };
  if (page.links === undefined) return body;
  const links = Object.fromEntries(
    Object.entries(page.links).map(([name, link]) => {
      if (link === null) return [name, link];
      const url = new URL(link);
      return [name, `${origin}${url.pathname}${url.search}`];
    }),
  );
  return { ...page, links };
}

/** A run with both tokens and a JUnit report, as a CI job makes it. */
async function checkWithJunit(origin: string) {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-hostile-'));
  const io = memoryIo();
  const code = await runMain(
    ['contract', origin, ...TOKENS, '--runs', '5', '--junit', join(dir, 'report.xml')],
    io,
  );
  return { code, io, xml: await readFile(join(dir, 'report.xml'), 'utf8') };
}

const TOKENS = ['--token', `status=${STATUS_TOKEN}`, '--token', `quantity=${QUANTITY_TOKEN}`];

let stockmock: LiveServer;
beforeAll(async () => {
  stockmock = await listenLive((await buildTestApp({ fixture: FIXTURE })).app);
});
afterAll(() => stockmock.close());

describe('links off the target', () => {
  it('never sends a request, so never a token, to another origin; the pagination checks name the link', async () => {
    const other = bystander();
    const elsewhere = await listen(other.handler);
    const target = await listen(
      proxy(stockmock.origin, (_, body) => pointLinksAt(elsewhere.origin, body)),
    );
    try {
      const io = memoryIo();
      const code = await runMain(['contract', target.origin, ...TOKENS, '--runs', '5'], io);
      expect(other.seen).toEqual([]);
      expect(code).toBe(1);
      expect(io.out).toContain(
        `links.next leads off the target's origin, so it was not followed: ${elsewhere.origin}/v1/stock?`,
      );
      expect(io.out).toContain(`links.first leads off the target's origin`);
      expect(io.out).toMatch(/\n\d+ passed, [1-9]\d* failed(, \d+ skipped)?\n$/);
    } finally {
      await close(target.server);
      await close(elsewhere.server);
    }
  });

  it('sends a link to an origin named by --trust-origin, as a gateway would need', async () => {
    const seen: string[] = [];
    // The gateway's links name the gateway, as a service configured with its public URL does.
    let gatewayOrigin = '';
    const passThrough = proxy(stockmock.origin, (_, body) => pointLinksAt(gatewayOrigin, body));
    const gateway = await listen(async (request, response) => {
      seen.push(request.headers.authorization ?? '');
      await passThrough(request, response);
    });
    gatewayOrigin = gateway.origin;
    const target = await listen(
      proxy(stockmock.origin, (_, body) => pointLinksAt(gateway.origin, body)),
    );
    try {
      const io = memoryIo();
      await runMain(
        ['contract', target.origin, ...TOKENS, '--runs', '5', '--trust-origin', gateway.origin],
        io,
      );
      expect(seen).toContain(`Bearer ${QUANTITY_TOKEN}`);
      expect(io.out).not.toContain(`leads off the target's origin`);
    } finally {
      await close(target.server);
      await close(gateway.server);
    }
  });

  it.each([
    ['file:///etc/passwd'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://[not a host/'],
    ['javascript:alert(1)'],
  ])('judges a next link of %s as data: the run ends with its report', async (link) => {
    const target = await listen(
      proxy(stockmock.origin, (_, body) => {
        const page = body as { links?: Record<string, string | null> };
        return page.links === undefined ? body : { ...page, links: { ...page.links, next: link } };
      }),
    );
    try {
      const { code, io, xml } = await checkWithJunit(target.origin);
      expect(code).toBe(1);
      expect(io.out).toMatch(/links\.next (leads off the target's origin|is not a URL)/);
      expect(io.out).toMatch(/\n\d+ passed, [1-9]\d* failed(, \d+ skipped)?\n$/);
      expect(xml).toContain('<testsuites');
    } finally {
      await close(target.server);
    }
  });
});

describe('answers that would exhaust the checker', () => {
  it('stops at a gzip bomb with one line and exit 2, and still writes the JUnit report', async () => {
    // 64 MiB of zeros compress to about 64 KB; decoded, they pass the 32 MiB cap.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    let bombs = 0;
    const upstream = proxy(stockmock.origin, (_, body) => body);
    const target = await listen(async (request, response) => {
      if (
        request.url?.startsWith('/v1/products') === true &&
        request.headers.authorization !== undefined
      ) {
        bombs += 1;
        response
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(bomb);
        return;
      }
      await upstream(request, response);
    });
    try {
      const { code, io, xml } = await checkWithJunit(target.origin);
      expect(bombs).toBeGreaterThan(0);
      expect(code).toBe(2);
      expect(io.err).toMatch(
        /^contract: stopped before the end: the answer of GET http:\/\/127\.0\.0\.1:\d+\/v1\/products\S* is larger than 33554432 bytes once decoded\n$/,
      );
      expect(xml).toContain('contract.finished');
      expect(xml).toContain('once decoded');
    } finally {
      await close(target.server);
    }
  });

  it('gives up on a target that stops answering after a few time-outs in a row', async () => {
    const upstream = proxy(stockmock.origin, (_, body) => body);
    let served = 0;
    let unanswered = 0;
    const target = await listen(async (request, response) => {
      // Enough to learn the data and pass the first checks; then it holds every request open.
      if (served < 40) {
        served += 1;
        await upstream(request, response);
      } else unanswered += 1;
    });
    try {
      const io = memoryIo();
      const code = await runMain(
        [
          'contract',
          target.origin,
          ...TOKENS,
          '--runs',
          '5',
          '--timeout',
          '300',
          '--concurrency',
          '2',
        ],
        io,
      );
      expect(code).toBe(2);
      expect(io.err).toMatch(
        /^contract: stopped before the end: 3 requests in a row got no answer in time, the last http:\/\/\S+\n$/,
      );
      // Three in a row, and at most the one other request already in flight.
      expect(unanswered).toBeLessThanOrEqual(4);
      expect(io.out).toContain('skipped: the run stopped');
    } finally {
      await close(target.server);
    }
  });

  it('stops an endless walk of unique next links at --max-requests and names where', async () => {
    const target = await listen((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      const page = Number(url.searchParams.get('page') ?? '1');
      const link = (n: number) =>
        `http://${request.headers.host ?? ''}/v1/stock?limit=1&page=${String(n)}`;
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: [{ product_id: page, status: 'available' }],
          links: {
            first: link(1),
            last: link(10 ** 9),
            prev: page > 1 ? link(page - 1) : null,
            next: link(page + 1),
          },
        }),
      );
    });
    try {
      const io = memoryIo();
      const code = await runMain(
        ['contract', target.origin, '--token', 'status=s', '--runs', '5', '--max-requests', '300'],
        io,
      );
      expect(code).toBe(2);
      expect(io.err).toMatch(
        /^contract: stopped before the end: 300 requests were made \(--max-requests\); the next was http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?limit=1&page=\d+\n$/,
      );
    } finally {
      await close(target.server);
    }
  });

  it('stops at --max-bytes received', async () => {
    const io = memoryIo();
    const code = await runMain(
      ['contract', stockmock.origin, ...TOKENS, '--runs', '5', '--max-bytes', '20000'],
      io,
    );
    expect(code).toBe(2);
    expect(io.err).toMatch(
      /^contract: stopped before the end: more than 20000 bytes were received \(--max-bytes\), the last from http:\/\/\S+\n$/,
    );
  });

  it('refuses a --trust-origin that is not an origin', async () => {
    const io = memoryIo();
    const code = await runMain(
      ['contract', stockmock.origin, ...TOKENS, '--trust-origin', 'file:///etc'],
      io,
    );
    expect(code).toBe(2);
    expect(io.err).toContain(
      '--trust-origin takes an origin such as https://api.example.com, not "file:///etc"',
    );
  });
});
