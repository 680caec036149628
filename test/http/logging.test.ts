/** Request lines and their ids at info; nothing per request above it; never a token. */
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
  it('at info, each request has its lines, bound to its own id, and no token', async () => {
    const lines = await logLines('info');
    const ids = new Set(lines.filter((line) => line['req'] !== undefined).map((l) => l['reqId']));
    expect(ids.size).toBe(2);
    for (const id of ids) {
      expect(
        lines.some((line) => line['reqId'] === id && line['msg'] === 'request completed'),
      ).toBe(true);
    }
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    expect(JSON.stringify(lines)).not.toContain('wrong-token');
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
});
