/**
 * @module Listen, say where, swap the app that answers, and close gracefully on SIGINT and
 * SIGTERM.
 */
import type { FastifyInstance } from 'fastify';
import { letIdleMemoryReturn } from '../util/idle-memory-return.ts';

export interface RunningServer {
  readonly url: string;
  /**
   * Stops listening and closes once in-flight requests finish. With `drainMs`, every request
   * first gets 503 for that long (plugins/draining.ts), so that clients on kept-alive
   * connections are told, not reset.
   */
  close(options?: { readonly drainMs?: number; readonly reason?: string }): Promise<void>;
  /**
   * From the next request on, `next` (built, and ready) answers every request on this server,
   * whole: a request is routed by one app from its first hook to its last, and one already
   * begun ends on the app it began on. Fastify fixes its routes once ready, so a new spec is a
   * new app.
   */
  serveWith(next: FastifyInstance): void;
}

/**
 * How long a signal's shutdown answers 503 before it closes: enough for requests already on
 * their way over kept-alive connections, short enough for a Ctrl-C.
 */
export const SHUTDOWN_DRAIN_MS = 500;

/**
 * How long a close waits for requests in flight before it closes their connections: a request
 * still unanswered by then (a client that stopped sending its body) would hold it for ever.
 */
export const CLOSE_GRACE_MS = 1000;

/**
 * Starts listening; port 0 picks a free port. The URL logged and returned is the real one.
 * `onListening` gets the server before the "listening on" line is logged: whoever reads that line
 * may act on it at once (a supervisor sending SIGTERM), so what must be in place by then is.
 */
export async function startServer(
  app: FastifyInstance,
  options: { host: string; port: number },
  onListening?: (server: RunningServer) => void,
): Promise<RunningServer> {
  let running: RunningServer | undefined;
  // Node calls 'listening' listeners in order; Fastify adds the one that logs inside listen().
  app.server.once('listening', () => {
    running = runningServer(app, options);
    onListening?.(running);
  });
  await app.listen({
    host: options.host,
    port: options.port,
    listenTextResolver: (address) => `stockmock listening on ${address}`,
  });
  letIdleMemoryReturn();
  return running ?? runningServer(app, options);
}

function runningServer(
  app: FastifyInstance,
  options: { host: string; port: number },
): RunningServer {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  // The app that answers. Until the first swap, the listening app's own handler serves, with no
  // step in between; an app swapped out is left to the garbage collector, not closed: closing
  // it would answer 503 to a request that reached it just before the swap.
  let answering = app;
  let swapped = false;
  return {
    serveWith(next) {
      if (!swapped) {
        swapped = true;
        // The very function Fastify gave the server as its listener (a closure, no `this`).
        // eslint-disable-next-line @typescript-eslint/unbound-method
        app.server.off('request', app.routing);
        app.server.on('request', (request, response) => {
          answering.routing(request, response);
        });
      }
      answering = next;
    },
    url: `http://${host}:${String(port)}`,
    async close({ drainMs = 0, reason } = {}) {
      const started = performance.now();
      if (reason !== undefined) {
        app.log.info(
          `shutting down (${reason}): new requests get 503 for ${String(drainMs)} ms, requests in flight finish`,
        );
      }
      if (drainMs > 0) {
        answering.drain();
        await new Promise((resolve) => setTimeout(resolve, drainMs));
      }
      const force = setTimeout(() => {
        app.server.closeAllConnections();
      }, CLOSE_GRACE_MS);
      try {
        // The answering app first: from then on it drains, as the listening one closes.
        if (answering !== app) await answering.close();
        await app.close();
      } finally {
        clearTimeout(force);
      }
      if (reason !== undefined) {
        app.log.info(`stopped after ${String(Math.round(performance.now() - started))} ms`);
      }
    },
  };
}

/** Closes the server on the first SIGINT or SIGTERM: in-flight requests finish, new ones are refused. */
export function closeOnSignals(server: RunningServer, onClosed: () => void): void {
  const stop = (signal: NodeJS.Signals): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void server.close({ drainMs: SHUTDOWN_DRAIN_MS, reason: signal }).then(onClosed);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
