/** A request line each at info, as JSON or readable; nothing per request above it; never a token. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAppLogger, type LogLevel } from '../../src/http/app-logger.ts';
import { bearer, buildTestApp } from '../helpers/test-app.ts';

const TOKEN = 'quantity-demo-token';

type LogLine = Record<string, unknown>;

function lineCollector(): { lines: LogLine[]; stream: Writable } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, stream };
}

async function logLines(level: LogLevel): Promise<LogLine[]> {
  const { lines, stream } = lineCollector();
  const { app } = await buildTestApp({ log: createAppLogger({ level, stream }) });
  await app.inject({ url: '/v1/stock/1', headers: bearer(TOKEN) });
  await app.inject({ url: '/v1/stock/1', headers: bearer('wrong-token') });
  await app.close();
  return lines;
}

describe('request logging', () => {
  it('at info, each request has one line: method, URL, status, access level, ms; no token', async () => {
    const lines = await logLines('info');
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => line['request'])).toMatchObject([
      { method: 'GET', url: '/v1/stock/1', status: 200, access: 'quantity' },
      { method: 'GET', url: '/v1/stock/1', status: 401, access: 'none' },
    ]);
    expect(lines[0]?.['msg']).toMatch(/^GET \/v1\/stock\/1 200 quantity \d+(\.\d)? ms$/);
    expect(typeof (lines[0]?.['request'] as { ms: unknown }).ms).toBe('number');
    expect(new Set(lines.map((line) => line['reqId'])).size).toBe(2);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    expect(JSON.stringify(lines)).not.toContain('wrong-token');
  });
  it('in the readable format, each request is one line a person reads; no token', async () => {
    let text = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const log = createAppLogger({ level: 'info', format: 'pretty', stream });
    const { app } = await buildTestApp({ log });
    await app.inject({ url: '/v1/stock?limit=2', headers: bearer(TOKEN) });
    await app.inject({ url: '/v1/stock/1', headers: bearer('wrong-token') });
    await app.close();
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/stock\?limit=2 200 quantity \d+(\.\d)? ms$/,
    );
    expect(lines[1]).toMatch(/INFO: GET \/v1\/stock\/1 401 none [\d.]+ ms$/);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('wrong-token');
  });
  it('a token sent as access_token (RFC 6750 §2.3) is refused, and masked in the line', async () => {
    const { lines, stream } = lineCollector();
    const { app } = await buildTestApp({ log: createAppLogger({ level: 'info', stream }) });
    const encoded = await app.inject({ url: `/v1/stock?limit=1&access%5Ftoken=${TOKEN}` });
    const plain = await app.inject({ url: `/v1/stock?access_token=${TOKEN}&limit=2` });
    await app.close();
    expect([encoded.statusCode, plain.statusCode]).toEqual([401, 401]);
    expect(lines.map((line) => (line['request'] as { url: string }).url)).toEqual([
      '/v1/stock?limit=1&access%5Ftoken=[Redacted]',
      '/v1/stock?access_token=[Redacted]&limit=2',
    ]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });
  it('an answer meant, not a failure (a simulated 503), logs no error and no stack', async () => {
    const { lines, stream } = lineCollector();
    const { app } = await buildTestApp({ log: createAppLogger({ level: 'warn', stream }) });
    const simulated = await app.inject({
      url: '/v1/stock/1',
      headers: { ...bearer(TOKEN), prefer: 'code=503' },
    });
    await app.close();
    expect(simulated.statusCode).toBe(503);
    expect(lines).toEqual([]);
  });
  it('at warn, nothing is logged per request', async () => {
    expect(await logLines('warn')).toEqual([]);
  });
  it('at warn, a failure of the server is logged with its cause and request id, no token', async () => {
    const { lines, stream } = lineCollector();
    const { app } = await buildTestApp({ log: createAppLogger({ level: 'warn', stream }) });
    app.get('/failing', () => {
      throw new Error('disk on fire');
    });
    const response = await app.inject({ url: '/failing', headers: bearer(TOKEN) });
    await app.close();
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('disk on fire');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'unexpected error', err: { message: 'disk on fire' } });
    expect(lines[0]?.['reqId']).toEqual(expect.any(String));
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });
  it('at warn and at info, an answer that fails on its way out is logged with its request id', async () => {
    for (const level of ['warn', 'info'] as const) {
      const { lines, stream } = lineCollector();
      const { app } = await buildTestApp({ log: createAppLogger({ level, stream }) });
      app.get('/cut', (_request, reply) => {
        reply.raw.emit('error', new Error('connection cut'));
        reply.raw.end();
      });
      // The injected request fails with the answer's error, as a client's would.
      await expect(app.inject({ url: '/cut', headers: bearer(TOKEN) })).rejects.toThrow(
        'connection cut',
      );
      await app.close();
      const errored = lines.filter((line) => line['msg'] === 'request errored');
      expect(errored, level).toHaveLength(1);
      expect(errored[0], level).toMatchObject({ err: { message: 'connection cut' } });
      expect(errored[0]?.['reqId'], level).toMatch(/^req-/);
    }
  });
});

describe('where tokens come from', () => {
  it('a 401 without a token names the demo tokens while the server takes them', async () => {
    const { app } = await buildTestApp();
    const answer = await app.inject({ url: '/v1/stock' });
    await app.close();
    expect(answer.json<{ detail: string }>().detail).toBe(
      "Send a token: Authorization: Bearer <token>. Tokens are set in the server's config (tokens, or STOCKMOCK_TOKENS); this one takes the demo tokens status-demo-token and quantity-demo-token.",
    );
  });

  it('with tokens of its own, neither the 401 nor the served spec names a demo token or its own', async () => {
    const own = 'own-secret-token-0123456789';
    const { app } = await buildTestApp({
      config: { tokens: [{ token: own, level: 'quantity' }] },
    });
    const answer = await app.inject({ url: '/v1/stock' });
    const served = await app.inject({ url: '/openapi.json' });
    const yaml = await app.inject({ url: '/openapi.yaml' });
    await app.close();
    expect(answer.json<{ detail: string }>().detail).toBe(
      "Send a token: Authorization: Bearer <token>. Tokens are set in the server's config (tokens, or STOCKMOCK_TOKENS).",
    );
    for (const text of [served.body, yaml.body]) {
      expect(text).not.toContain('demo-token');
      expect(text).not.toContain(own);
      expect(text).toContain("This server's tokens are set in its configuration");
    }
  });
});
