/**
 * @module The server's logger (pino, as Fastify's own), and whether Fastify should have it.
 *
 * Fastify given a logger does work on every request even when no request line is written: a
 * request id, a child logger, two response listeners and a "request completed" call that pino
 * then drops. That measured about 4 µs of a request that costs a bare Fastify server 40–60 µs.
 * So Fastify gets the logger only at the levels where it writes request lines; above them the
 * app logs what it has to say (errors, reloads) through this logger directly.
 */
import { pino, type DestinationStream, type Level, type Logger } from 'pino';

export type LogLevel = Level | 'silent';

export interface AppLoggerOptions {
  readonly level: LogLevel;
  /** Where lines go; standard output unless given (tests read them from a stream). */
  readonly stream?: DestinationStream;
}

/** Whatever the level or destination, an Authorization header never reaches a line. */
const REDACTED = ['req.headers.authorization', 'req.headers["proxy-authorization"]'];

export function createAppLogger(options: AppLoggerOptions): Logger {
  const settings = { level: options.level, redact: REDACTED };
  return options.stream === undefined ? pino(settings) : pino(settings, options.stream);
}

/** A logger that writes nothing, and opens no stream: the default of an app built without one. */
export const SILENT_LOGGER: Logger = pino({ level: 'silent' }, { write: () => undefined });

/** Levels at which Fastify writes lines per request ("incoming request", "request completed"). */
const REQUEST_LINE_LEVELS: ReadonlySet<string> = new Set(['info', 'debug', 'trace']);

export function logsRequestLines(logger: Logger): boolean {
  return REQUEST_LINE_LEVELS.has(logger.level);
}
