import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idsNotIn } from '../../src/contract/walk.ts';

describe('idsNotIn', () => {
  it('equals the nested search it replaces, order and undefined ids included', () => {
    const ids = fc.array(fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(ids, ids, (wanted, present) => {
        expect(idsNotIn(wanted, present)).toEqual(
          wanted.filter((id) => id === undefined || !present.includes(id)),
        );
      }),
      { numRuns: 300, seed: 21 },
    );
  });
});
