/**
 * @module The server's logger (pino, as Fastify's own), as JSON lines or as readable lines.
 *
 * Readable lines come from pino-pretty, pino's own formatter, run in this thread (`sync`): a
 * transport would start a worker thread for what a person at a terminal reads.
 */
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config/config-schema.ts';

export type LogLevel = Level | 'silent';

export interface AppLoggerOptions {
  readonly level: LogLevel;
  /** `auto`: readable on a terminal, JSON lines otherwise (and always on a given `stream`). */
  readonly format?: Config['logFormat'];
  /** Where lines go; standard output unless given (tests read them from a stream). */
  readonly stream?: DestinationStream;
}

/** Whatever the level or destination, an Authorization header never reaches a line. */
const REDACTED = ['req.headers.authorization', 'req.headers["proxy-authorization"]'];

/**
 * The key under which a request line (request-log.ts) holds its fields: JSON lines keep
 * them for programs; readable lines show only the message, which says the same.
 */
export const REQUEST_KEY = 'request';

export function createAppLogger(options: AppLoggerOptions): Logger {
  const settings = { level: options.level, redact: REDACTED };
  const format = options.format ?? 'auto';
  const readable =
    format === 'pretty' || (format === 'auto' && options.stream === undefined && isTerminal());
  if (readable) return pino(settings, readableLines(options.stream));
  return options.stream === undefined ? pino(settings) : pino(settings, options.stream);
}

function readableLines(destination: DestinationStream | undefined): DestinationStream {
  return pretty({
    sync: true,
    colorize: destination === undefined && isTerminal(),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: `pid,hostname,reqId,${REQUEST_KEY}`,
    singleLine: true,
    ...(destination === undefined ? {} : { destination }),
  });
}

function isTerminal(): boolean {
  return process.stdout.isTTY;
}

/** A logger that writes nothing, and opens no stream: the default of an app built without one. */
export const SILENT_LOGGER: Logger = pino({ level: 'silent' }, { write: () => undefined });
