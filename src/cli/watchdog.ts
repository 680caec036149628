/**
 * @module `contract --deadline` holds even when the checker's thread is held (and so does the
 * deadline of the check `record --suggest-config` runs).
 *
 * The run's own deadline is a timer on the thread that judges the answers, and a hostile target
 * chooses what is judged: a spec that costs seconds a value, an answer that costs hours (an
 * `uniqueItems` array of half a million objects is compared pair by pair). So the installed
 * command runs `contract` in a child process and keeps the deadline here, in a process whose
 * thread only waits: once the child has said what its run may cost, a child still running
 * WATCHDOG_GRACE_MS past its deadline is killed, its JUnit report written with the reason, and
 * the exit status is 2, as for any run that reached a limit.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { renderUnusableJunit } from '../contract/reporters/junit.ts';
import { replaceFileWithText } from '../util/replace-file.ts';
import { WATCHED_ENV, type CliIo, type WatchPlan } from './io.ts';

/** How long past its deadline a run may take to end and write its own report. */
export const WATCHDOG_GRACE_MS = 5000;

/** Whether this command line is one the watchdog runs in a child. */
export function isWatched(argv: readonly string[], env: CliIo['env']): boolean {
  return (argv[0] === 'contract' || argv[0] === 'record') && env[WATCHED_ENV] !== '1';
}

/**
 * Runs the command line in a child of this script and returns its exit status, or 2 once the
 * child is killed for running past its deadline.
 */
export function runWatched(script: string, argv: readonly string[], io: CliIo): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, script, ...argv], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [WATCHED_ENV]: '1' },
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInterrupt = forward('SIGINT');
  const onTerminate = forward('SIGTERM');
  process.on('SIGINT', onInterrupt).on('SIGTERM', onTerminate);
  let timer: NodeJS.Timeout | undefined;
  let overrun: Promise<number> | undefined;
  child.on('message', (message: unknown) => {
    const plan = (message as { watch?: WatchPlan }).watch;
    if (plan === undefined || timer !== undefined) return;
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      overrun = stopped(plan, io);
    }, plan.deadlineMs + WATCHDOG_GRACE_MS);
  });
  return new Promise((done) => {
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      process.off('SIGINT', onInterrupt).off('SIGTERM', onTerminate);
      if (overrun !== undefined) done(overrun);
      else done(code ?? (signal === null ? 1 : 128 + signalNumber(signal)));
    });
  });
}

async function stopped(plan: WatchPlan, io: CliIo): Promise<number> {
  const reason = `the check did not end within its deadline of ${String(plan.deadlineMs)} ms (and ${String(WATCHDOG_GRACE_MS)} ms of grace): judging the target's answers held the checker, which was stopped`;
  io.error(`Cannot check ${plan.target}: ${reason}.\n`);
  if (plan.junit !== undefined) {
    await replaceFileWithText(
      resolve(io.cwd, plan.junit),
      renderUnusableJunit(plan.target, reason),
    );
  }
  return 2;
}

function signalNumber(signal: NodeJS.Signals): number {
  return { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal as string] ?? 1;
}
