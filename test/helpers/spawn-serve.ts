/** @module `bin/stockmock.js serve` as a real child process, with its log and its URL. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote so far. */
  log(): string;
  /** Resolves when the log matches, rejects after `ms`. */
  waitForLog(pattern: RegExp, ms?: number): Promise<void>;
  /** Sends SIGTERM and resolves with the exit code, or the signal that ended the process. */
  stop(): Promise<number | NodeJS.Signals>;
}

export async function spawnServe(
  args: readonly string[],
  cwd = root,
  env: Readonly<Record<string, string>> = {},
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [`${root}bin/stockmock.js`, 'serve', '--port', '0', ...args],
    {
      cwd,
      env: { ...process.env, STOCKMOCK_LOG_LEVEL: 'info', ...env },
    },
  );
  let log = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    log += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const waitForLog = (pattern: RegExp, ms = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(log)) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`the log never matched ${String(pattern)}:\n${log}`));
      }, ms);
      listeners.add(check);
      check();
    });
  await waitForLog(/listening on http:\/\/\S+/);
  const url = /listening on (http:\/\/[^\s"]+)/.exec(log)?.[1] ?? '';
  return {
    url,
    child,
    log: () => log,
    waitForLog,
    stop() {
      const exit = new Promise<number | NodeJS.Signals>((resolve) => {
        child.on('exit', (code, signal) => {
          resolve(code ?? signal ?? -1);
        });
      });
      child.kill('SIGTERM');
      return exit;
    },
  };
}
