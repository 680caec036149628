/** Request lines and their ids at info; nothing per request above it; never a token. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp } from '../helpers/test-app.ts';

const TOKEN = 'quantity-demo-token';

async function logLines(level: string): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const { app } = await buildTestApp({ logger: { level, stream } });
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
});
