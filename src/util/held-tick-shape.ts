/**
 * @module Keeps `process.nextTick` on V8's fast path for the life of the process.
 *
 * Node makes each tick object with an object literal whose first three keys are computed
 * (symbols). For each such key V8 records the one hidden class (map) it has seen, and holds it
 * weakly. A memory-reducing collection at a moment when no tick object is alive (the memory
 * reducer that idle-memory-return.ts lets run once the server is quiet, or one during a load)
 * frees those maps. The next tick object gets new ones, V8 reads the cleared record as a second
 * map, and the three sites turn megamorphic for good: from then on every `nextTick` calls into
 * the runtime three times, and an HTTP request makes several ticks.
 *
 * Measured with `perf` (bench/README.md, "A tick object held"): in six of nine starts at
 * 100 000 products, 10–13 % of a kept answer's CPU samples were those runtime calls, about 2 µs
 * a request. One tick object held for good keeps its map, and through each map's back pointer
 * every map before it, alive, so the records are never cleared: none in eleven starts since. It
 * costs one object.
 */
import { createHook } from 'node:async_hooks';

let held: object | undefined;

/**
 * Holds one tick object, once per process, and returns it (undefined if this Node makes no
 * `TickObject`, in which case there is nothing to keep).
 */
export function holdTickObjectShape(): object | undefined {
  if (held !== undefined) return held;
  // Node gives an init hook each tick object it makes; the hook is on for one call only.
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') held ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
  return held;
}
