import { describe, expect, it } from 'vitest';
import { DEFAULT_ERROR_STATUS, planFaults } from '../../src/simulation/plan-faults.ts';
import { seededRandom } from '../../src/util/seeded-random.ts';

describe('planFaults', () => {
  it('does nothing without faults', () => {
    expect(planFaults({}, seededRandom(1))).toEqual({ delayMs: 0 });
  });

  it('gives a fixed latency as is, and draws a range within its bounds', () => {
    expect(planFaults({ latency: 40 }, seededRandom(1)).delayMs).toBe(40);
    const random = seededRandom(2);
    const delays = Array.from(
      { length: 500 },
      () => planFaults({ latency: { min: 10, max: 30 } }, random).delayMs,
    );
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...delays)).toBeLessThanOrEqual(30);
    expect(new Set(delays).size).toBeGreaterThan(10);
  });

  it.each([0, 0.1, 0.5, 1])('fails about %s of requests, with a fixed seed', (rate) => {
    const random = seededRandom(42);
    const failures = Array.from({ length: 4000 }, () =>
      planFaults({ errors: { rate } }, random),
    ).filter((plan) => plan.errorStatus !== undefined);
    expect(Math.abs(failures.length / 4000 - rate)).toBeLessThan(0.02);
    if (rate > 0) expect(failures[0]?.errorStatus).toBe(DEFAULT_ERROR_STATUS);
  });

  it('is reproducible for a seed', () => {
    const run = () => {
      const random = seededRandom(7);
      return Array.from({ length: 50 }, () =>
        planFaults({ latency: { min: 0, max: 100 }, errors: { rate: 0.3, status: 429 } }, random),
      );
    };
    expect(run()).toEqual(run());
  });
});
