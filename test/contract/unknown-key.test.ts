/** The 404 probes' key: one that no record has, at any catalogue size, that the schema takes. */
import { describe, expect, it } from 'vitest';
import { unknownKey } from '../../src/contract/unknown-key.ts';

describe('unknownKey', () => {
  it('is one above the largest integer key, in any order; 1 for none', () => {
    expect(unknownKey([5, 2, 9, 1])).toBe(10);
    expect(unknownKey([])).toBe(1);
  });

  it('takes a million keys (as arguments they overflowed the stack at a million products)', () => {
    const keys = Array.from({ length: 1_000_000 }, (_, index) => 1_000_000 - index);
    expect(unknownKey(keys)).toBe(1_000_001);
  });

  it('changes a string key to one no record has that still fits the pattern', () => {
    const pattern = '^inv_[0-9a-z]{6}$';
    const keys = ['inv_aaaaa0', 'inv_aaaaa1', 'inv_aaaaa2'];
    const found = unknownKey(keys, pattern);
    expect(typeof found).toBe('string');
    expect(keys).not.toContain(found);
    expect(new RegExp(pattern).test(String(found))).toBe(true);
    const uuid = '0b7c6a8e-5f7e-4d3a-9a51-6a2f4f0d9c11';
    const other = String(unknownKey([uuid]));
    expect(other).not.toBe(uuid);
    expect(other).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('is none where no change of one character fits', () => {
    expect(unknownKey(['--'], '^--$')).toBeUndefined();
  });
});
