/** The query engine's parts, each against its plain definition. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNameIndex } from '../../src/query/name-index.ts';
import { sortPositions } from '../../src/query/name-pages.ts';
import { packStrings } from '../../src/util/packed-strings.ts';
import { seededRandom } from '../../src/util/seeded-random.ts';

describe('the trigram name index', () => {
  it('finds exactly the names that contain the needle', () => {
    // A small alphabet, so that trigrams are shared and needles of every length match.
    const text = (maxLength: number) =>
      fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'ß'), maxLength });
    fc.assert(
      fc.property(
        fc.uniqueArray(text(12), { maxLength: 60 }),
        fc.array(text(6), { minLength: 1, maxLength: 10 }),
        (names, needles) => {
          const index = createNameIndex(packStrings(names));
          for (const needle of needles) {
            const expected = names.flatMap((name, i) => (name.includes(needle) ? [i] : []));
            expect([...index.namesContaining(needle)]).toEqual(expected);
          }
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });
});

describe('sortPositions', () => {
  it('sorts like a comparison sort, below and above the radix threshold and limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer(),
        (limit, length, seed) => {
          const random = seededRandom(seed);
          const values = Int32Array.from({ length }, () => Math.floor(random() * limit));
          const expected = [...values].sort((a, b) => a - b);
          expect([...sortPositions(values, limit, new Int32Array(length))]).toEqual(expected);
        },
      ),
      { numRuns: 200, seed: 14 },
    );
  });
});
