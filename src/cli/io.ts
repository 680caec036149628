/** @module What a command may touch of the outside world; tests pass their own. */

export interface CliIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  write(text: string): void;
  error(text: string): void;
  /** A transient status line; only present on a terminal. */
  readonly progress?: (text: string) => void;
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    write: (text) => process.stdout.write(text),
    error: (text) => process.stderr.write(text),
    ...(process.stderr.isTTY
      ? { progress: (text: string) => process.stderr.write(`\r\u001b[K${text}`) }
      : {}),
  };
}
