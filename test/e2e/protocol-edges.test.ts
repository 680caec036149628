/**
 * Answers that HTTP itself forces, over raw sockets on a real port: what Node's parser refuses
 * (headers or a URL past the limit, a garbage request line), a request without Host, and a
 * request that arrives while the server shuts down. Each is problem+json, says
 * `Connection: close` where the connection cannot go on, carries no body on HEAD, and ends the
 * connection cleanly (the answer arrives whole, then the end; never a reset).
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_DEADLINE_MS } from '../../src/api/build-app.ts';
import { startServer, type RunningServer } from '../../src/http/start-server.ts';
import { PROBLEMS, PROTOCOL_PROBLEMS } from '../../src/problems/problem-types.ts';
import { spawnServe } from '../helpers/spawn-serve.ts';
import { buildTestApp, STATUS_TOKEN } from '../helpers/test-app.ts';

interface RawAnswer {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
  /** The server closed the connection after the answer (FIN), rather than resetting it. */
  readonly closed: boolean;
}

/** Writes bytes on a fresh connection; reads until the server ends it (or a second passes). */
function exchange(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      finish(false);
    }, 1000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      clearTimeout(timer);
      finish(true);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // Large requests go in pieces, as a client's writes would, past the parser's limit.
    socket.write(bytes);
    function finish(closed: boolean): void {
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString('utf8'), closed));
    }
  });
}

function parseAnswer(text: string, closed: boolean): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers = new Map(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: text.slice(split + 4),
    closed,
  };
}

const PROBLEM_TYPE = /^application\/problem\+json(; charset=utf-8)?$/;

function expectProblem(answer: RawAnswer, type: string, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(PROBLEM_TYPE);
  const body = JSON.parse(answer.body) as { type: string; status: number; detail: string };
  expect(body).toMatchObject({ type, status });
  expect(body.detail.length).toBeGreaterThan(0);
  expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.body));
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ADMIN_TOKEN = 'admin-token-for-protocol-edges-0123456789';

async function listen(): Promise<number> {
  const { app } = await buildTestApp({ config: { admin: { token: ADMIN_TOKEN, journalSize: 5 } } });
  server = await startServer(app, { host: '127.0.0.1', port: 0 });
  return Number(new URL(server.url).port);
}

const auth = `Authorization: Bearer ${STATUS_TOKEN}\r\n`;
const bigHeader = `X-Padding: ${'a'.repeat(20_000)}\r\n`;

describe('what the HTTP parser refuses is a problem, and the connection ends cleanly', () => {
  it('headers over 16 KiB: 431', async () => {
    const port = await listen();
    const answer = await exchange(
      port,
      `GET /v1/stock HTTP/1.1\r\nHost: x\r\n${auth}${bigHeader}\r\n`,
    );
    expectProblem(answer, PROTOCOL_PROBLEMS.HEADERS_TOO_LARGE.type, 431);
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('a HEAD with headers over 16 KiB: 431 without a body', async () => {
    const port = await listen();
    const answer = await exchange(
      port,
      `HEAD /v1/stock HTTP/1.1\r\nHost: x\r\n${auth}${bigHeader}\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(answer.headers.get('content-type')).toMatch(PROBLEM_TYPE);
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.body).toBe('');
    expect(answer.closed).toBe(true);
  });

  it('a URL over 16 KiB: 414', async () => {
    const port = await listen();
    const answer = await exchange(
      port,
      `GET /v1/stock?name=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
    );
    expectProblem(answer, PROTOCOL_PROBLEMS.URI_TOO_LONG.type, 414);
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it.each([
    ['a garbage request line', 'GARBAGE\r\n\r\n'],
    [
      'a Content-Length that is not a number',
      'GET /v1/stock HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ],
    ['a header line without a colon', 'GET /v1/stock HTTP/1.1\r\nHost: x\r\nbroken\r\n\r\n'],
  ])('%s: 400', async (_title, bytes) => {
    const port = await listen();
    const answer = await exchange(port, bytes);
    expectProblem(answer, PROTOCOL_PROBLEMS.BAD_REQUEST.type, 400);
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('an HTTP/1.1 request without Host: 400, connection closed', async () => {
    const port = await listen();
    const answer = await exchange(port, `GET /v1/stock HTTP/1.1\r\n${auth}\r\n`);
    expectProblem(answer, PROTOCOL_PROBLEMS.BAD_REQUEST.type, 400);
    expect((JSON.parse(answer.body) as { detail: string }).detail).toContain('Host');
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('an HTTP/1.0 request needs no Host', async () => {
    const port = await listen();
    const answer = await exchange(port, `GET /v1/stock?limit=1 HTTP/1.0\r\n${auth}\r\n`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ data: [expect.anything()] });
  });

  it('the connection before a refused request keeps its answers', async () => {
    const port = await listen();
    const answer = await exchange(
      port,
      `GET /v1/stock?limit=1 HTTP/1.1\r\nHost: x\r\n${auth}\r\nGARBAGE\r\n\r\n`,
    );
    // The first request is answered in full; the second is refused and the connection ends.
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"data"');
    expect(answer.body).toContain(PROTOCOL_PROBLEMS.BAD_REQUEST.type);
    expect(answer.closed).toBe(true);
  });
});

describe('shutting down', () => {
  it('a request on a kept-alive connection while draining gets 503 with Connection: close and Retry-After', async () => {
    const port = await listen();
    const running = server as RunningServer;
    // A kept-alive connection, used once, then idle while the shutdown starts.
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const answers: string[] = [];
    socket.on('data', (chunk: Buffer) => answers.push(chunk.toString('utf8')));
    const ended = new Promise<boolean>((resolve) => {
      socket.once('end', () => {
        resolve(true);
      });
      socket.once('error', () => {
        resolve(false);
      });
    });
    const request = `GET /v1/stock?limit=1 HTTP/1.1\r\nHost: x\r\n${auth}\r\n`;
    socket.write(request);
    await expect.poll(() => answers.join('')).toContain('"data"');
    answers.length = 0;
    const closing = running.close({ drainMs: 300 });
    server = undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(request);
    expect(await ended).toBe(true);
    await closing;
    const answer = parseAnswer(answers.join(''), true);
    expectProblem(answer, PROBLEMS.SERVICE_UNAVAILABLE.type, 503);
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.headers.get('retry-after')).toBe('1');
  });

  it('a request that arrives while the server closes gets the same 503 problem', async () => {
    const port = await listen();
    const running = server as RunningServer;
    const socket = connect(port, '127.0.0.1');
    const answers: string[] = [];
    socket.on('data', (chunk: Buffer) => answers.push(chunk.toString('utf8')));
    const ended = new Promise((resolve) => socket.once('end', resolve));
    // A slow request holds the connection while closing starts; the next one is pipelined behind it.
    socket.write(`GET /v1/stock?limit=1 HTTP/1.1\r\nHost: x\r\n${auth}Prefer: delay=300\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = running.close();
    server = undefined;
    socket.write(`GET /v1/stock?limit=1 HTTP/1.1\r\nHost: x\r\n${auth}\r\n`);
    await ended;
    await closing;
    const text = answers.join('');
    const second = text.indexOf('HTTP/1.1 503');
    expect(text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(second).toBeGreaterThan(0);
    const answer = parseAnswer(text.slice(second), true);
    expectProblem(answer, PROBLEMS.SERVICE_UNAVAILABLE.type, 503);
    expect(answer.headers.get('connection')).toBe('close');
  });
});

/** An admin POST that promises 4000 bytes of body and sends one. */
const TRUNCATED_ADMIN_POST =
  'POST /__admin/reload HTTP/1.1\r\nHost: x\r\n' +
  `Authorization: Bearer ${ADMIN_TOKEN}\r\n` +
  'Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n{';

/** Opens a connection and writes `bytes`; gathers what comes back until the server ends it. */
async function opened(port: number, bytes: string) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const ended = new Promise<string>((resolve) => {
    socket.once('close', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
  socket.write(bytes);
  return { socket, ended };
}

describe('a shutdown, in the log', () => {
  it('says when it began, why, and when it ended; a 503 while draining is no error', async () => {
    const serve = await spawnServe([]);
    expect(await serve.stop()).toBe(0);
    const lines = serve
      .log()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        'shutting down (SIGTERM): new requests get 503 for 500 ms, requests in flight finish',
        expect.stringMatching(/^stopped after \d+ ms$/) as string,
      ]),
    );
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe('a request that never finishes', () => {
  it('a body the client stops sending and closes on is answered at once, and holds no close', async () => {
    const port = await listen();
    const { socket, ended } = await opened(port, TRUNCATED_ADMIN_POST);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.end();
    const answer = parseAnswer(await ended, true);
    expectProblem(answer, PROTOCOL_PROBLEMS.BAD_REQUEST.type, 400);
    const running = server as RunningServer;
    server = undefined;
    // Without the fix the refusal waited for the request's own answer, which never came.
    await running.close();
  });

  it(`a body still awaited after ${String(REQUEST_DEADLINE_MS / 1000)} s gets a 408 problem and the connection ends`, async () => {
    const port = await listen();
    const { ended } = await opened(port, TRUNCATED_ADMIN_POST);
    const answer = parseAnswer(await ended, true);
    expectProblem(answer, PROTOCOL_PROBLEMS.REQUEST_TIMEOUT.type, 408);
    expect(answer.headers.get('connection')).toBe('close');
  }, 30_000);

  it('SIGTERM ends the server while a client holds a half-sent body open', async () => {
    const serve = await spawnServe([], undefined, { STOCKMOCK_ADMIN_TOKEN: ADMIN_TOKEN });
    const { socket } = await opened(Number(new URL(serve.url).port), TRUNCATED_ADMIN_POST);
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      expect(await serve.stop()).toBe(0);
    } finally {
      socket.destroy();
    }
  });
});

describe('the request target in absolute form (RFC 9112 §3.2.2)', () => {
  it('is served as its path, and its host, not the Host header, starts the links', async () => {
    const port = await listen();
    const answer = await exchange(
      port,
      `GET http://stock.example:8080/v1/stock?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\n${auth}Connection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    const { links } = JSON.parse(answer.body) as { links: Record<string, string | null> };
    expect(links['first']).toBe('http://stock.example:8080/v1/stock?limit=1&page=1');
    expect(links['next']).toBe('http://stock.example:8080/v1/stock?limit=1&page=2');
    const single = await exchange(
      port,
      `GET HTTPS://127.0.0.1/v1/stock/1 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
    );
    expect(JSON.parse(single.body)).toEqual({ data: { product_id: 1, status: 'available' } });
  });
});

describe('framing that HTTP/1.1 refuses and Node lets through', () => {
  const get = (headers: string) =>
    `GET /v1/stock?limit=1 HTTP/1.1\r\nHost: x\r\n${headers}Connection: keep-alive\r\n\r\n`;

  it.each([
    ['two Authorization headers, the right one first', `${auth}Authorization: Bearer bogus\r\n`],
    ['two Authorization headers, the right one last', `Authorization: Bearer bogus\r\n${auth}`],
    ['two Host headers', `Host: y\r\n${auth}`],
    ['a Transfer-Encoding that does not end in chunked', `${auth}Transfer-Encoding: xchunked\r\n`],
  ])('%s: 400, and the connection ends', async (_case, headers) => {
    const answer = await exchange(await listen(), get(headers));
    expectProblem(answer, PROTOCOL_PROBLEMS.BAD_REQUEST.type, 400);
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.closed).toBe(true);
  });

  it('an Expect other than 100-continue: a 417 problem', async () => {
    const answer = await exchange(await listen(), get(`${auth}Expect: foo\r\n`));
    expectProblem(answer, PROTOCOL_PROBLEMS.EXPECTATION_FAILED.type, 417);
    expect(answer.closed).toBe(true);
  });

  it('CONNECT: a 405 problem naming the methods served, not a silent close', async () => {
    const port = await listen();
    const answer = await exchange(
      port,
      `CONNECT 127.0.0.1:${String(port)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expectProblem(answer, PROBLEMS.METHOD_NOT_ALLOWED.type, 405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(answer.closed).toBe(true);
  });

  it('one Authorization, and a body framed by chunked, are served as before', async () => {
    const port = await listen();
    const one = await exchange(
      port,
      `GET /v1/stock/1 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
    );
    expect(one.status).toBe(200);
    const chunked = await exchange(
      port,
      `GET /v1/stock/1 HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
    );
    expect(chunked.status).toBe(200);
  });
});

describe('percent-encoding in the query', () => {
  it.each(['%zz', '%C3', '%ED%A0%80'])(
    'name=%s is a 400 naming the parameter, not a search',
    async (value) => {
      const answer = await exchange(
        await listen(),
        `GET /v1/stock?limit=2&name=${value} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
      );
      expectProblem(answer, PROBLEMS.INVALID_PARAMETERS.type, 400);
      expect((JSON.parse(answer.body) as { errors: unknown }).errors).toEqual([
        {
          parameter: 'name',
          in: 'query',
          message: 'is not valid percent-encoding of UTF-8 text (RFC 3986 §2.1)',
        },
      ]);
    },
  );
});
