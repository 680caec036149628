/** @module One message for anything a command may fail with. */

/** The message of an error; SourceErrors already read `file:line:column field: message`. */
export function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
