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
 * Node allocates on that heap for each `vm.Script`. Compiling a trivial one now and then keeps the
 * rate tiny and positive, so the reducer sees the process as calm when it is, and acts about ten
 * seconds after load ends. It changes no flag and forces no collection: V8 still decides. It
 * costs a few microseconds each time, off any request's path. Node.js 22 never needed it and is
 * unaffected.
 *
 * Measured with `npm run soak` (bench/README.md, "Soak"): without it, RSS after 30 s idle stayed
 * at 390 MB (first load: 200 MB); `--trace-memory-reducer` said "high alloc" on every tick.
 */
import { Script } from 'node:vm';

/**
 * Often enough that the C++ heap's rate never decays to exactly 0 between two of the reducer's
 * 8-second ticks; a 30-second interval was measured to be enough for a second burst after a
 * long quiet.
 */
const INTERVAL_MS = 20_000;

let started = false;

/** Starts the nudge once per process; it never keeps the process alive. */
export function letIdleMemoryReturn(): void {
  if (started) return;
  started = true;
  const nudge = (): void => {
    new Script('0');
  };
  nudge();
  setInterval(nudge, INTERVAL_MS).unref();
}
