/** @module What a command may touch of the outside world; tests pass their own. */

export interface CliIo {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  write(text: string): void;
  error(text: string): void;
  /** A transient status line; only present on a terminal. */
  readonly progress?: (text: string) => void;
  /** Tells the watchdog (watchdog.ts) what a run may cost; only present under one. */
  readonly watch?: (plan: WatchPlan) => void;
}

/** Set in the environment of a child of the watchdog, which reports its plan to it. */
export const WATCHED_ENV = 'STOCKMOCK_WATCHED';

/** What the watchdog holds a run to, and where its report goes. */
export interface WatchPlan {
  readonly target: string;
  readonly deadlineMs: number;
  /** As given, relative to cwd. */
  readonly junit?: string;
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
    // A child of the watchdog: the IPC channel it was started with.
    ...(process.send === undefined || process.env[WATCHED_ENV] !== '1'
      ? {}
      : {
          watch: (plan: WatchPlan) => {
            process.send?.({ watch: plan });
          },
        }),
  };
}
