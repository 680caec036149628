import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/util/bounded-cache.ts';

describe('BoundedCache', () => {
  it('drops the least recently used entries past its entry or item budget', () => {
    const cache = new BoundedCache<number[]>({ maxEntries: 2, maxItems: 5 });
    cache.set('a', [1]);
    cache.set('b', [2]);
    cache.get('a');
    cache.set('c', [3]);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([[1], undefined, [3]]);
    cache.set('big', [1, 2, 3, 4]);
    expect(cache.get('a')).toBeUndefined();
    cache.set('huge', [1, 2, 3, 4, 5, 6]);
    expect(cache.get('huge')).toBeUndefined();
  });
  it('keeps an entry used between sets, through any stream of new keys', () => {
    for (const maxEntries of [2, 3, 4, 7, 16]) {
      const cache = new BoundedCache<number[]>({ maxEntries });
      cache.set('hot', [0]);
      for (let n = 0; n < 200; n++) {
        cache.set(`cold ${String(n)}`, [n]);
        expect(cache.get('hot'), `${String(maxEntries)} entries, after ${String(n)}`).toEqual([0]);
      }
      expect(cache.size).toBe(maxEntries);
      // The oldest cold keys went; the newest stayed.
      expect(cache.get('cold 199')).toEqual([199]);
      expect(cache.get('cold 0')).toBeUndefined();
    }
  });
  it('with a doorkeeper, stores a key the second time it is set, not the first', () => {
    const cache = new BoundedCache<number[]>({ admitOnSecondSight: true });
    cache.set('once', [1]);
    expect(cache.get('once')).toBeUndefined();
    cache.set('once', [1]);
    expect(cache.get('once')).toEqual([1]);
    cache.set('once', [2]);
    expect(cache.get('once')).toEqual([2]);
    expect(cache.size).toBe(1);
  });
  it('counts a replaced entry once', () => {
    const cache = new BoundedCache<number[]>({ maxEntries: 10, maxItems: 5 });
    cache.set('a', [1, 2, 3]);
    cache.set('a', [1, 2, 3, 4]);
    cache.set('b', [1]);
    expect([cache.get('a'), cache.get('b')]).toEqual([[1, 2, 3, 4], [1]]);
  });
});
