/**
 * util/idle-memory-return.ts: after a burst of allocation, V8's memory reducer must find the
 * process calm, since that is what makes it give memory back. Asked of V8 itself, in a child
 * process: `--trace-memory-reducer` prints its verdict at each tick, and the first tick is
 * brought forward to one second after the burst's last full collection.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const moduleUrl = new URL('../../src/util/idle-memory-return.ts', import.meta.url).href;

/** A burst that grows the old generation (so the reducer starts waiting), then ten quiet seconds (the reducer ticks every 8 s). */
const child = `
import { letIdleMemoryReturn } from ${JSON.stringify(moduleUrl)};
letIdleMemoryReturn({ checkMs: 100, quietChecks: 2 });
let kept = [];
const end = Date.now() + 1500;
while (Date.now() < end) {
  kept.push(new Array(1000).fill({ kept: true }));
  if (kept.length > 3000) kept = [];
}
kept = null;
setTimeout(() => {}, 10_000);
`;

describe('letting memory return once idle', () => {
  it('the memory reducer sees a quiet process as quiet', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--trace-memory-reducer',
        '--gc-memory-reducer-start-delay-ms=1000',
        '--input-type=module',
        '--eval',
        child,
      ],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) },
    );
    expect(run.stderr).toBe('');
    const verdicts = run.stdout.match(/Memory reducer: (low|high) alloc/g) ?? [];
    expect(verdicts.length).toBeGreaterThan(0);
    // Calm at some tick: the reducer then starts its collection. Without the module every
    // verdict is "high alloc" until its 100-second watchdog.
    expect(verdicts).toContain('Memory reducer: low alloc');
    expect(run.stdout).toContain('Memory reducer: started GC #1');
  }, 30_000);
});
