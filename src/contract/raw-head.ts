/**
 * @module A request over a bare socket, with `Connection: close`. fetch drops whatever follows
 * the headers of a HEAD answer, so it cannot see a body sent where RFC 9110 §9.3.2 forbids one;
 * nor can a client library send one field in two lines, or tell whether the server closed the
 * connection it was asked to close. The bytes on the wire can.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Bytes that came after the header block: a HEAD answer must have none. */
  readonly trailing: number;
  /** Whether the server ended the connection (it was asked to: `Connection: close`). */
  readonly closed: boolean;
}

/** A header block larger than this is no answer the checker reads (Node's own limit is 16 KiB). */
const MAX_HEADER_BYTES = 64 * 1024;

/** How long a HEAD waits for bytes after the header block, where the server keeps the socket open. */
const SETTLE_MS = 300;

export function rawHead(
  url: string,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<RawAnswer | { readonly error: string }> {
  return rawRequest('HEAD', url, Object.entries(headers), timeoutMs, SETTLE_MS);
}

/** One request; `fields` in the order given, a name given twice sent as two field lines. */
export function rawRequest(
  method: string,
  url: string,
  fields: readonly (readonly [string, string])[],
  timeoutMs: number,
  /** How long to wait, after the last bytes, for the server to close the connection. */
  settleMs: number,
): Promise<RawAnswer | { readonly error: string }> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const port = Number(target.port || (secure ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket: Socket = secure
      ? connectTls({ host, port, servername: host })
      : connectTcp({ host, port });
    // The header block is kept; what follows it is only counted, however much a server sends.
    let head = Buffer.alloc(0);
    let headerEnd = -1;
    let trailing = 0;
    let settle: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      clearTimeout(settle);
      socket.destroy();
      resolve(
        headerEnd < 0
          ? { error: 'no complete header block came back' }
          : parse(head.subarray(0, headerEnd), trailing, closed),
      );
    };
    const timer = setTimeout(() => {
      finish(false);
    }, timeoutMs);
    socket.on('error', (error) => {
      clearTimeout(timer);
      resolve({ error: error.message });
    });
    socket.on('data', (chunk: Buffer) => {
      if (headerEnd < 0) {
        head = Buffer.concat([head, chunk]);
        headerEnd = head.indexOf('\r\n\r\n');
        if (headerEnd >= 0) trailing = head.length - headerEnd - 4;
        else if (head.length > MAX_HEADER_BYTES) finish(false);
      } else {
        trailing += chunk.length;
      }
      if (headerEnd >= 0) {
        clearTimeout(settle);
        settle = setTimeout(() => {
          finish(false);
        }, settleMs);
      }
    });
    socket.on('end', () => {
      finish(true);
    });
    const lines = [
      `${method} ${target.pathname}${target.search} HTTP/1.1`,
      `Host: ${target.host}`,
      'Connection: close',
      ...fields.map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

function parse(
  block: Buffer,
  trailing: number,
  closed: boolean,
): RawAnswer | { readonly error: string } {
  const [statusLine = '', ...fields] = block.toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return { error: `not an HTTP status line: ${statusLine}` };
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon > 0)
      headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  return { status, headers, trailing, closed };
}
