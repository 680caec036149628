/**
 * The soak of `npm run soak`, short: load, a writer that rewrites the fixture, by rename or in
 * place with pauses midway (every fifth write invalid), admin reloads and SIGHUP, against the built
 * server on loopback. What must hold whatever the machine: no 5xx, no page mixing two
 * variants, nothing served from a half-written file, no time-out. Timings are the soak's to
 * report (bench/README.md), not this test's to assert.
 */
import { describe, expect, it } from 'vitest';
import { runSoak } from '../../bench/soak.ts';

describe('ten seconds of reload churn under load', () => {
  it('answers every request, never from a mix of two files or from half a file', async () => {
    const report = await runSoak({ seconds: 10, products: 20_000, connections: 8, idleSeconds: 1 });
    expect(report.requests).toBeGreaterThan(100);
    expect(report.writes).toBeGreaterThanOrEqual(5);
    // Half the writes rename a new file over the fixture, and the data switches under the load.
    expect(report.renames).toBeGreaterThanOrEqual(2);
    expect(report.switches).toBeGreaterThanOrEqual(2);
    // Reloads swapped the data under the load: answers came from both variants.
    expect(report.variantsServed).toEqual([5, 7]);
    expect(Object.keys(report.statuses)).toEqual(['200']);
    expect(report.timeouts).toBe(0);
    expect(report.errors).toBe(0);
    expect(report.mixed).toBe(0);
    expect(report.halfWritten).toBe(0);
  }, 60_000);
});
