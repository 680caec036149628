/**
 * @module Requests that Node answers before Fastify sees them (a garbage request line, headers
 * or a URL past the size limit, a request that never finished, an `Expect` it cannot meet, a
 * CONNECT), answered as problem+json like every other answer, instead of Fastify's
 * `application/json`, Node's bare 417 or no answer at all.
 *
 * The parser has lost its place in the byte stream, so the connection cannot carry another
 * request: the answer says `Connection: close`, and the socket is closed once it is written.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS, PROTOCOL_PROBLEMS } from '../problems/problem-types.ts';
import { PROBLEM_CONTENT_TYPE } from './plugins/problem-handler.ts';

/** What Node hands a `clientError` listener: the parser's code and the bytes it choked on. */
interface ClientError {
  readonly code: string | undefined;
  readonly rawPacket: Buffer | undefined;
}

/** The whole answer a problem is on a connection that ends after it: head, then body. */
function rawAnswer(
  problem: ProblemError,
  headOnly: boolean,
  extra: readonly string[] = [],
): string {
  const body = JSON.stringify(problem);
  const head = [
    `HTTP/1.1 ${String(problem.status)} ${STATUS_CODES[problem.status] ?? ''}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${String(Buffer.byteLength(body))}`,
    ...extra,
    'Connection: close',
  ].join('\r\n');
  // A HEAD answer has no body (RFC 9110 §9.3.2), not even a problem.
  return `${head}\r\n\r\n${headOnly ? '' : body}`;
}

/**
 * Node's `checkExpectation`: an `Expect` other than `100-continue` (RFC 9110 §10.1.1). Node's
 * own answer is a bare 417; this one is a problem.
 */
export function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  const problem = ProblemError.from(
    PROTOCOL_PROBLEMS.EXPECTATION_FAILED,
    'The only expectation this server meets is Expect: 100-continue.',
  );
  response.socket?.end(rawAnswer(problem, request.method === 'HEAD'));
}

/**
 * Node's `connect`: a CONNECT asks for a tunnel (RFC 9110 §9.3.6), which no resource here makes.
 * Without a listener Node closes the connection with no answer at all.
 */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  const problem = ProblemError.from(
    PROBLEMS.METHOD_NOT_ALLOWED,
    'This server is no proxy: CONNECT opens no tunnel here.',
  );
  socket.end(rawAnswer(problem, false, ['Allow: GET, HEAD, OPTIONS']));
}

/** Fastify's `clientErrorHandler`. */
export function answerClientError(thrown: Error, socket: Socket): void {
  const { code, rawPacket } = thrown as Error & { code?: unknown; rawPacket?: unknown };
  const error: ClientError = {
    code: typeof code === 'string' ? code : undefined,
    rawPacket: Buffer.isBuffer(rawPacket) ? rawPacket : undefined,
  };
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = rawAnswer(problemOf(error), startsWith(error.rawPacket, 'HEAD '));
  const send = (): void => {
    if (socket.writable) socket.end(answer);
    else socket.destroy();
  };
  // An earlier request of the connection may still be answering (pipelining): the refusal goes
  // after it, never into it. Node's own clientError answer reads the same member to decide.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight === null || inFlight === undefined || inFlight.writableFinished) send();
  else if (inFlight.req.complete) inFlight.once('finish', send);
  // The request refused is the one in flight: its body never came, or not in time. No answer
  // would follow it, and waiting would hold the connection, and a shutdown, for ever; where
  // nothing of its answer was sent, the refusal is its answer.
  else if (inFlight.headersSent) socket.destroy();
  else send();
}

function problemOf(error: ClientError): ProblemError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      // The limit counts the request line too: a request line that takes half of it or more is
      // a URI too long (414), anything else too many header bytes (431).
      return requestLineOverflows(error.rawPacket)
        ? ProblemError.from(
            PROTOCOL_PROBLEMS.URI_TOO_LONG,
            'The request URI is longer than this server reads.',
          )
        : ProblemError.from(
            PROTOCOL_PROBLEMS.HEADERS_TOO_LARGE,
            'The request line and headers are longer than this server reads (16 KiB).',
          );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ProblemError.from(
        PROTOCOL_PROBLEMS.REQUEST_TIMEOUT,
        'The request was not complete in time.',
      );
    default:
      return ProblemError.from(
        PROTOCOL_PROBLEMS.BAD_REQUEST,
        'The request is not valid HTTP/1.1 and could not be read.',
      );
  }
}

/** Half of Node's default `maxHeaderSize` (16 KiB), which stockmock keeps. */
const LONGEST_REQUEST_LINE = 8 * 1024;

function requestLineOverflows(packet: Buffer | undefined): boolean {
  if (packet === undefined || !/^[A-Z]+ /.test(packet.toString('latin1', 0, 16))) return false;
  const end = packet.indexOf('\r\n');
  return (end < 0 ? packet.length : end) >= LONGEST_REQUEST_LINE;
}

function startsWith(packet: Buffer | undefined, text: string): boolean {
  return packet?.toString('latin1', 0, text.length) === text;
}
