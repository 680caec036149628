/**
 * How deep a JSON text nests, told without parsing it: the same answer as a walk of the parsed
 * value, for generated values (strings full of brackets, quotes and backslashes included).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan } from '../../src/util/json-depth.ts';

/** The oracle: the depth of a parsed value, by an explicit stack. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [member, depth] = next;
    if (typeof member !== 'object' || member === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const inner of Object.values(member)) pending.push([inner, depth + 1]);
  }
  return deepest;
}

const tricky = fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\"', 'a');
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: tricky }),
    fc.integer(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.string({ unit: tricky }), tie('node'), { maxKeys: 3 }),
  ),
})).node;

describe('jsonNestsDeeperThan', () => {
  it('agrees with the depth of the parsed value, at every limit', () => {
    fc.assert(
      fc.property(value, fc.nat(8), (generated, limit) => {
        const text = JSON.stringify(generated);
        expect(jsonNestsDeeperThan(text, limit)).toBe(depthOf(generated) > limit);
      }),
      { seed: 48, numRuns: 2000 },
    );
  });

  it('tells a 10 000-deep answer at once, and lets one at the limit through', () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(jsonNestsDeeperThan(nested(10_000), 1000)).toBe(true);
    expect(jsonNestsDeeperThan(nested(1000), 1000)).toBe(false);
    expect(jsonNestsDeeperThan(`"${'['.repeat(5000)}"`, 1000)).toBe(false);
  });
});
