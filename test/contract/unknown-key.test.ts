/** The 404 probes' key: one that no record has, at any catalogue size. */
import { describe, expect, it } from 'vitest';
import { keyAboveAll } from '../../src/contract/unknown-key.ts';

describe('keyAboveAll', () => {
  it('is one above the largest key, in any order; 1 for none', () => {
    expect(keyAboveAll([5, 2, 9, 1])).toBe(10);
    expect(keyAboveAll([])).toBe(1);
  });

  it('takes a million keys (as arguments they overflowed the stack at a million products)', () => {
    const keys = Array.from({ length: 1_000_000 }, (_, index) => 1_000_000 - index);
    expect(keyAboveAll(keys)).toBe(1_000_001);
  });
});
