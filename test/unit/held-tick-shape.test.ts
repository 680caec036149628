/**
 * util/held-tick-shape.ts: after a memory-reducing collection at a quiet moment, a new tick
 * object must still have the hidden class V8 recorded for `nextTick`'s literal, which is what
 * keeps its sites monomorphic. Asked of V8 itself, in a child process: `%HaveSameMap` compares
 * the held tick object with one made after the collection. Without the hold, the collection
 * frees that class and the next tick object gets a new one (bench/README.md, "A tick object
 * held").
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const moduleUrl = new URL('../../src/util/held-tick-shape.ts', import.meta.url).href;

/** Warm `nextTick` up, let every tick object die, collect as the memory reducer does, then make one more. */
const child = `
import { createHook } from 'node:async_hooks';
import { holdTickObjectShape } from ${JSON.stringify(moduleUrl)};
// Only a weak reference here: whatever keeps the tick object alive is the module.
const first = new WeakRef(holdTickObjectShape());
const noop = () => {};
for (let round = 0; round < 50; round++) {
  for (let n = 0; n < 1000; n++) process.nextTick(noop);
  await new Promise((resolve) => setImmediate(resolve));
}
await new Promise((resolve) => setTimeout(resolve, 20));
globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
const held = first.deref();
let fresh;
let seen = 0;
const hook = createHook({
  init(_id, type, _trigger, resource) {
    if (type === 'TickObject') fresh = resource;
    seen += 1;
  },
});
hook.enable();
process.nextTick(noop);
hook.disable();
process.stdout.write(JSON.stringify({
  held: typeof held,
  again: holdTickObjectShape() === held,
  callback: typeof held?.callback,
  fresh: fresh !== undefined && fresh !== held,
  sameMap: held !== undefined && %HaveSameMap(held, fresh),
  seen,
}));
`;

describe('holding a tick object', () => {
  it('keeps the hidden class of tick objects through full collections at a quiet moment', () => {
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--allow-natives-syntax', '--input-type=module', '--eval', child],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) },
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      // One tick object, held once for the process, with Node's own fields.
      held: 'object',
      again: true,
      callback: 'function',
      // A tick object made after the collections is another object of the same class.
      fresh: true,
      sameMap: true,
      // The hook of holdTickObjectShape is off: only the child's own hook saw that tick.
      seen: 1,
    });
  }, 30_000);
});
