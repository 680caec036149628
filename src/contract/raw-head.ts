/**
 * @module HEAD over a bare socket. fetch drops whatever follows the headers of a HEAD answer, so
 * it cannot see a body sent where RFC 9110 §9.3.2 forbids one; the bytes on the wire can.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Bytes that came after the header block: a HEAD answer must have none. */
  readonly trailing: number;
}

/** How long to wait for bytes after the header block, where the server keeps the socket open. */
const SETTLE_MS = 300;

export function rawHead(
  url: string,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<RawAnswer | { readonly error: string }> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const port = Number(target.port || (secure ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket: Socket = secure
      ? connectTls({ host, port, servername: host })
      : connectTcp({ host, port });
    const chunks: Buffer[] = [];
    let settle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(settle);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks)));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('error', (error) => {
      clearTimeout(timer);
      resolve({ error: error.message });
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (Buffer.concat(chunks).includes('\r\n\r\n')) {
        clearTimeout(settle);
        settle = setTimeout(finish, SETTLE_MS);
      }
    });
    socket.on('end', finish);
    const lines = [
      `HEAD ${target.pathname}${target.search} HTTP/1.1`,
      `Host: ${target.host}`,
      'Connection: close',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

function parse(bytes: Buffer): RawAnswer | { readonly error: string } {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return { error: 'no complete header block came back' };
  const [statusLine = '', ...fields] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return { error: `not an HTTP status line: ${statusLine}` };
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon > 0)
      headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  return { status, headers, trailing: bytes.length - end - 4 };
}
