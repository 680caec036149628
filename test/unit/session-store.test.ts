/** The bounds of sessions: each refuses a write with a problem that names it, and keeps the rest. */
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../src/problems/problem-error.ts';
import { loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import { createSessionStore, SESSION_LIMITS } from '../../src/sessions/session-store.ts';
import { SHIPPED } from '../helpers/datasets.ts';

const plan = loadPlanOf(SHIPPED, { order: 'id' });
const record = { id: 1, name: 'x' };

function refusal(write: () => void): string {
  try {
    write();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).status).toBe(507);
    return (error as ProblemError).detail;
  }
  throw new Error('the write was not refused');
}

describe('session bounds', () => {
  it('refuses a session past the count, until one ends or idles out', () => {
    let now = 0;
    const sessions = createSessionStore(
      plan,
      { ...SESSION_LIMITS, sessions: 2, idleSeconds: 60 },
      () => now,
    );
    sessions.commit('a', 'default', 'products', 1, record);
    sessions.commit('b', 'default', 'products', 1, record);
    expect(
      refusal(() => {
        sessions.commit('c', 'default', 'products', 1, record);
      }),
    ).toMatch(/2 sessions hold writes/);
    // A session that holds writes already is never refused for the count.
    sessions.commit('a', 'default', 'products', 2, record);
    expect(sessions.reset('b')).toBe(1);
    sessions.commit('c', 'default', 'products', 1, record);
    now = 61_000;
    sessions.commit('d', 'default', 'products', 1, record);
    expect(sessions.list().map((one) => one.name)).toEqual(['d']);
  });

  it('refuses a write past a session’s writes or bytes, and keeps what it held', () => {
    const sessions = createSessionStore(plan, { ...SESSION_LIMITS, writes: 2, bytes: 40 });
    sessions.commit('a', 'default', 'products', 1, record);
    sessions.commit('a', 'default', 'products', 2, null);
    expect(
      refusal(() => {
        sessions.commit('a', 'default', 'products', 3, record);
      }),
    ).toMatch(/2 writes/);
    expect(
      refusal(() => {
        sessions.commit('b', 'default', 'products', 3, { id: 3, name: 'y'.repeat(40) });
      }),
    ).toMatch(/40 bytes/);
    expect(sessions.list()).toEqual([
      { name: 'a', writes: 2, bytes: JSON.stringify(record).length, idleSeconds: 0 },
    ]);
  });
});
