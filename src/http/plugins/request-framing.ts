/**
 * @module What HTTP/1.1 requires of a request's framing that Node's parser lets through, each
 * refused with a 400 problem and `Connection: close` (the connection cannot be trusted on):
 *
 * - no `Host` in an HTTP/1.1 request, or more than one (RFC 9112 §3.2). Node refuses a missing
 *   one itself with an empty 400; stockmock turns that check off (`requireHostHeader`) and makes
 *   it here, so that the answer is a problem like every other. HTTP/1.0 needs no Host;
 * - more than one `Authorization`: it holds one credential, not a list (RFC 9110 §5.3, §11.6.2).
 *   Node keeps the first and drops the rest, so a client would be served by whichever it sent
 *   first;
 * - a `Transfer-Encoding` whose last coding is not `chunked`: the body's length cannot be known
 *   (RFC 9112 §6.3, rule 4).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROTOCOL_PROBLEMS } from '../../problems/problem-types.ts';

function refused(detail: string): ProblemError {
  return ProblemError.from(PROTOCOL_PROBLEMS.BAD_REQUEST, detail, {
    headers: { connection: 'close' },
  });
}

/**
 * Host or Authorization, where `rawHeaders` (name, value, name, …) repeats it. Per request, so
 * without allocating: a request carries a dozen headers, two of which count.
 */
function repeatedField(rawHeaders: readonly string[]): string | undefined {
  let host = 0;
  let authorization = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') host += 1;
    else if (name.length === 13 && name.toLowerCase() === 'authorization') authorization += 1;
  }
  if (host > 1) return 'Host';
  return authorization > 1 ? 'Authorization' : undefined;
}

/** Whether a Transfer-Encoding value ends with `chunked`, the one coding that frames a body. */
function endsChunked(value: string): boolean {
  return /(?:^|,)\s*chunked\s*$/i.test(value);
}

export default fp(
  (app: FastifyInstance) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const { headers, raw } = request;
      if (headers.host === undefined && raw.httpVersion !== '1.0') {
        throw refused('An HTTP/1.1 request must name its Host.');
      }
      const repeated = repeatedField(raw.rawHeaders);
      if (repeated !== undefined) {
        throw refused(`The request has more than one ${repeated} header; send one.`);
      }
      const coding = headers['transfer-encoding'];
      if (coding !== undefined && !endsChunked(coding)) {
        throw refused('The Transfer-Encoding does not end with chunked: the body has no length.');
      }
      done();
    });
  },
  { name: 'request-framing', fastify: '5.x', dependencies: ['problem-handler'] },
);
