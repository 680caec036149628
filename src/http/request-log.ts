/**
 * @module One line per answered request, at `info`: method, URL, status, the access level the
 * token gave, and milliseconds. Never the token.
 *
 * Fastify's own request logging writes two lines per request ("incoming request", "request
 * completed"), and neither says the status and the time together. Its `LogController` is the
 * documented place to change those lines; everything else it logs is left as it is.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { REQUEST_KEY } from './app-logger.ts';
import type { SecretQuery } from './secret-query.ts';

export class OneLinePerRequest extends LogController {
  /**
   * Whether the logger writes `info`, known once when the app is built. Above it (`warn`) no
   * line is made at all: pino would drop it, but the fields and the text would still be built
   * for every request.
   */
  private readonly writes: boolean;
  private readonly secret: SecretQuery;

  constructor(writesInfo: boolean, secret: SecretQuery) {
    super();
    this.writes = writesInfo;
    this.secret = secret;
  }

  override incomingRequest(): void {
    // The request's line is written when it is answered: one line, with the outcome.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error !== null && error !== undefined) {
      if (this.writes) {
        super.requestCompleted(error, request, reply);
        return;
      }
      // Above info a request has no logger of its own to carry its id (build-app.ts).
      const responseTime = reply.elapsedTime;
      reply.log.error(
        { reqId: request.id, res: reply, err: error, responseTime },
        'request errored',
      );
      return;
    }
    if (!this.writes) return;
    const { method } = request;
    const url = this.secret.mask(request.url);
    const status = reply.statusCode;
    const access = request.accessLevel ?? 'none';
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    reply.log.info(
      { [REQUEST_KEY]: { method, url, status, access, ms } },
      `${method} ${url} ${String(status)} ${access} ${String(ms)} ms`,
    );
  }
}

// Numbered for the process, not per app: a reload that builds a new app goes on counting, so
// that no two requests of one run share an id in the log.
let lastRequestId = 0;

/** `req-1`, `req-2`, … as Fastify names them, across every app of the process. */
export function nextRequestId(): string {
  lastRequestId = (lastRequestId + 1) & 0x7fffffff;
  return `req-${lastRequestId.toString(36)}`;
}
