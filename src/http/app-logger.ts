/**
 * @module The server's logger (pino, as Fastify's own). Fastify has it at every level: request
 * lines where the level writes them (`info` and below), errors and reloads always.
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
