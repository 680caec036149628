/** @module A plain node:http server on 127.0.0.1 and a free port, for the servers tests write. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `handle` once each request's body is read; `close` drops kept-alive connections too. */
export async function listenOnLoopback(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Listening> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      handle(request, response);
    });
    request.on('error', () => {
      response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}
