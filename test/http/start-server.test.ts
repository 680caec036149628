/**
 * startServer's promise to a supervisor: what `onListening` sets up (the CLI's signal handlers) is
 * in place before the "listening on" line exists, since a reader of that line may signal at once.
 */
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/http/start-server.ts';

describe('startServer', () => {
  it('hands the server to onListening before it logs "listening on", with the URL it returns', async () => {
    const events: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const { msg } = JSON.parse(chunk.toString()) as { msg: string };
        events.push(`log: ${msg}`);
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    let handed = '';
    const server = await startServer(app, { host: '127.0.0.1', port: 0 }, (listening) => {
      handed = listening.url;
      events.push('onListening');
    });
    try {
      expect(events[0]).toBe('onListening');
      expect(events[1]).toMatch(/^log: stockmock listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(handed).toBe(server.url);
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    } finally {
      await server.close();
    }
  });
});
