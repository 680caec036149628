/** The bounds of sessions: each refuses a write with a problem that names it, and keeps the rest. */
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../src/problems/problem-error.ts';
import { loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import { createSessionStore, SESSION_LIMITS } from '../../src/sessions/session-store.ts';
import { datasetOf, SHIPPED } from '../helpers/datasets.ts';

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

describe('the data a session reads', () => {
  const base = datasetOf('test', [
    { id: 1, name: 'Oak table', quantity: 3 },
    { id: 2, name: 'Beech stool', quantity: 0 },
  ]);

  it('is the loaded data until the session writes, then its writes layered over it, once per change', () => {
    const sessions = createSessionStore(plan);
    expect(sessions.view('a', 'default', base)).toBe(base);
    sessions.commit('a', 'default', 'products', 3, { id: 3, name: 'Ash bench', quantity: 1 });
    const written = sessions.view('a', 'default', base);
    expect(written).not.toBe(base);
    expect(written.sizes.get('products')).toBe(3);
    expect(sessions.view('a', 'default', base)).toBe(written);
    expect(sessions.view('b', 'default', base)).toBe(base);
    sessions.commit('a', 'default', 'products', 1, null);
    const deleted = sessions.view('a', 'default', base);
    expect(deleted).not.toBe(written);
    expect(deleted.sizes.get('products')).toBe(2);
    expect(deleted.collection('products').positionOf(1)).toBe(-1);
  });

  it('keeps the layers of the 32 sessions read last, and layers another anew when it is read again', () => {
    const sessions = createSessionStore(plan);
    const names = Array.from({ length: 33 }, (_, n) => `s${String(n)}`);
    for (const name of names) sessions.commit(name, 'default', 'products', 9, { id: 9, name: 'x' });
    const first = names.map((name) => sessions.view(name, 'default', base));
    // s0, read first, lost its layers to s32; s32's are still kept.
    expect(sessions.view('s32', 'default', base)).toBe(first[32]);
    const again = sessions.view('s0', 'default', base);
    expect(again).not.toBe(first[0]);
    expect(again.sizes.get('products')).toBe(3);
  });
});
