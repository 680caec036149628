/** @module Listen, say where, and close gracefully on SIGINT and SIGTERM. */
import type { FastifyInstance } from 'fastify';

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts listening; port 0 picks a free port. The URL logged and returned is the real one. */
export async function startServer(
  app: FastifyInstance,
  options: { host: string; port: number },
): Promise<RunningServer> {
  await app.listen({
    host: options.host,
    port: options.port,
    listenTextResolver: (address) => `stockmock listening on ${address}`,
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${String(port)}`, close: () => app.close() };
}

/** Closes the server on the first SIGINT or SIGTERM: in-flight requests finish, new ones are refused. */
export function closeOnSignals(server: RunningServer, onClosed: () => void): void {
  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void server.close().then(onClosed);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
