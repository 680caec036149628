/**
 * @module Lets V8 give memory back once the serving process goes quiet, on Node.js 24 and later.
 *
 * What returns memory after a burst (of requests, or of reloads) is V8's memory reducer: some
 * seconds after allocation calms down, it runs a memory-reducing collection, which shrinks the
 * young generation and unmaps its pooled pages. After a minute of reload churn at 100 000
 * products those pages are about 150 MB of the process's 390 MB.
 *
 * Since V8 13.1 (Node.js 24) the reducer never finds a plain JavaScript process calm. It asks
 * three allocation rates, one of them the C++ heap's (cppgc), and a process that never allocates
 * there has a rate of exactly 0, which it reads as the highest rate of all. It then waits for its
 * 100-second watchdog, which every ordinary full collection starts afresh, so under occasional
 * reloads it may never run. (Reported upstream as nodejs/node#66564, crbug 570738027.)
 *
 * Node allocates on that heap for each `vm.Script`. One trivial script, compiled once, makes
 * the rate positive; V8 lets it decay, and it stays positive but tiny for about a minute and a
 * half, which the reducer reads as calm at its next tick. Compiled again and again, the rate
 * stays high instead (a script every 100 ms read as 117 bytes/ms, where calm is below 0.007):
 * hence one script when quiet begins, and one a minute while it lasts. It changes no flag and
 * forces no collection: V8 still decides. Node.js 22 never needed it and is unaffected.
 *
 * It nudges only once the serving thread has been quiet for a few seconds, judged by its event
 * loop's utilization (no cost per request). Nudged at every pause, the reducer shrank the young
 * generation in the gaps of a bursty load, and each burst then paid for growing it again:
 * `npm run bench` at `warn`, whose rounds leave 4 s gaps, lost a quarter of its throughput
 * (72–77 % of the build before, 96–99 % without the nudge).
 *
 * Measured with `npm run soak` (bench/README.md, "Soak"): without it, RSS after 30 s idle stayed
 * at 390 MB (first load: 200 MB); `--trace-memory-reducer` said "high alloc" on every tick.
 */
import { performance } from 'node:perf_hooks';
import { Script } from 'node:vm';

export interface IdleRule {
  /** How often the event loop's utilization is read. */
  readonly checkMs: number;
  /** How many readings in a row must be quiet before the reducer is nudged. */
  readonly quietChecks: number;
}

/** Quiet: the serving thread busy less than 2 % of a reading's time. */
const QUIET_UTILIZATION = 0.02;

/** Three quiet readings two seconds apart: longer than the gaps of a bursty load. */
const SERVING: IdleRule = { checkMs: 2_000, quietChecks: 3 };

/** While quiet lasts, a script a minute keeps the decayed rate from reaching exactly 0. */
const RENEW_MS = 60_000;

let started = false;

/** Starts watching for quiet once per process; it never keeps the process alive. */
export function letIdleMemoryReturn(rule: IdleRule = SERVING): void {
  if (started) return;
  started = true;
  let last = performance.eventLoopUtilization();
  let quiet = 0;
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    quiet = utilization < QUIET_UTILIZATION ? quiet + 1 : 0;
    const quietMs = (quiet - rule.quietChecks) * rule.checkMs;
    if (quietMs >= 0 && quietMs % RENEW_MS < rule.checkMs) new Script('0');
  }, rule.checkMs).unref();
}
