import { describe, expect, it } from 'vitest';
import { integerFlag, stringFlag } from '../../src/cli/flag-values.ts';
import { UsageError } from '../../src/cli/usage-error.ts';

const args = (flags: Record<string, string | boolean>) => ({ flags, positionals: [] });

describe('flag values', () => {
  it('reads a string flag, and nothing from a boolean', () => {
    expect(stringFlag(args({ out: 'a.yaml' }), 'out')).toBe('a.yaml');
    expect(stringFlag(args({ json: true }), 'json')).toBeUndefined();
  });
  it.each([
    [{ runs: '7' }, { min: 1 }, 7],
    [{}, { fallback: 100, min: 1 }, 100],
    [{ port: '0' }, { max: 65_535 }, 0],
    [{ port: '65535' }, { max: 65_535 }, 65_535],
  ])('%j with %j → %d', (flags, options, expected) => {
    const name = Object.keys(flags)[0] ?? 'runs';
    expect(integerFlag(args(flags), name, options)).toBe(expected);
  });
  it.each([
    [
      { runs: '0' },
      'runs',
      { min: 1, prefix: 'contract: ' },
      'contract: --runs must be a whole number ≥ 1, not "0"',
    ],
    [
      { port: '70000' },
      'port',
      { max: 65_535 },
      '--port must be a whole number from 0 to 65535, not "70000"',
    ],
    [{ seed: '-3' }, 'seed', {}, '--seed must be a whole number ≥ 0, not "-3"'],
    [{ seed: '1.5' }, 'seed', {}, '--seed must be a whole number ≥ 0, not "1.5"'],
    [
      {},
      'count',
      { prefix: 'fixtures generate: ' },
      'fixtures generate: --count must be a whole number ≥ 0',
    ],
  ])('%j is a usage error naming %s', (flags, name, options, message) => {
    expect(() => integerFlag(args(flags), name, options)).toThrow(UsageError);
    expect(() => integerFlag(args(flags), name, options)).toThrow(message);
  });
});
