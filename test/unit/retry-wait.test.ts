/** How long the target client waits before asking a 429 or 503 again (record's --rate runs). */
import { describe, expect, it } from 'vitest';
import { retryWait, type Exchange } from '../../src/contract/target-client.ts';

const NOW = Date.parse('2026-11-27T08:00:00Z');

function answer(status: number, retryAfter?: string): Exchange {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:1/v1/stock',
    as: 'status',
    kind: 'response',
    bytes: 0,
    response: {
      status,
      headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
      body: undefined,
    },
  };
}

describe('retryWait', () => {
  it('waits the seconds or until the date Retry-After gives, on a 429 or 503 only', () => {
    expect(retryWait(answer(429, '1'), 0, NOW)).toBe(1000);
    expect(retryWait(answer(503, ' 0 '), 3, NOW)).toBe(0);
    expect(retryWait(answer(429, 'Fri, 27 Nov 2026 08:00:30 GMT'), 0, NOW)).toBe(30_000);
    // A date already past: at once.
    expect(retryWait(answer(429, 'Fri, 27 Nov 2026 07:00:00 GMT'), 0, NOW)).toBe(0);
    for (const status of [200, 404, 500, 502])
      expect(retryWait(answer(status, '1'), 0, NOW)).toBe(undefined);
  });

  it('backs off 1, 2, 4 s where Retry-After is absent or no number nor date', () => {
    expect([0, 1, 2].map((attempt) => retryWait(answer(429), attempt, NOW))).toEqual([
      1000, 2000, 4000,
    ]);
    for (const given of ['1.5', '-1', 'soon', '']) {
      expect(retryWait(answer(503, given), 0, NOW), given).toBe(1000);
    }
  });

  it('takes no wait past 60 s: the answer stands', () => {
    expect(retryWait(answer(429, '60'), 0, NOW)).toBe(60_000);
    expect(retryWait(answer(429, '61'), 0, NOW)).toBe(undefined);
    expect(retryWait(answer(429, 'Fri, 27 Nov 2026 09:00:00 GMT'), 0, NOW)).toBe(undefined);
    // The seventh backoff would be 64 s.
    expect(retryWait(answer(429), 6, NOW)).toBe(undefined);
  });
});
