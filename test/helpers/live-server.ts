/** @module A real stockmock on a free loopback port, and a fetch that checks every answer. */
import type { FastifyInstance } from 'fastify';
import type { RecordedResponse } from '../../src/spec/response-validator.ts';
import { expectMatchesSpec, recordResponse } from './expect-spec.ts';

export interface LiveServer {
  readonly origin: string;
  /** Real HTTP over loopback; the answer must match the spec, or the test fails. */
  fetch(path: string, init?: RequestInit): Promise<RecordedResponse>;
  close(): Promise<void>;
}

export async function listenLive(app: FastifyInstance): Promise<LiveServer> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening on TCP');
  const origin = `http://127.0.0.1:${String(address.port)}`;
  return {
    origin,
    async fetch(path, init) {
      const url = path.startsWith('http') ? path : `${origin}${path}`;
      const response = await recordResponse(await fetch(url, init));
      await expectMatchesSpec(init?.method ?? 'GET', url, response);
      return response;
    },
    close: () => app.close(),
  };
}
