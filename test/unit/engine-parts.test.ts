/** The query engine's parts, each against its plain definition. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNameIndexData, createNameIndex } from '../../src/query/name-index.ts';
import { postingsOf } from '../../src/query/engine-index.ts';
import {
  collectPositions,
  createScratch,
  scanPositions,
  sortPositions,
} from '../../src/query/name-pages.ts';
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

describe('the trigram name index over hundreds of names', () => {
  it('lists a name once for a trigram it holds twice, where the trigram is rare', () => {
    const names = [...Array.from({ length: 200 }, (_, i) => `name ${String(i)}`), 'zzzzz'];
    const data = buildNameIndexData(names);
    const index = createNameIndex(packStrings(names), data);
    expect([...index.namesContaining('zzz')]).toStrictEqual([200]);
    expect([...index.namesContaining('zzzz')]).toStrictEqual([200]);
  });

  it('finds the names of rare trigrams (listed) and of common ones (bitmaps), ids past 32 too', () => {
    fc.assert(
      fc.property(fc.integer({ min: 40, max: 700 }), fc.integer(), (count, seed) => {
        const random = seededRandom(seed);
        // Common letters make trigrams held by many names (bitmaps); rare ones, by few (lists).
        const letter = () =>
          random() < 0.7
            ? 'ab '[Math.floor(random() * 3)]
            : 'cdefghijklmnopqrstuvwxyzé'[Math.floor(random() * 25)];
        const names = [
          ...new Set(
            Array.from({ length: count }, () =>
              Array.from({ length: 3 + Math.floor(random() * 10) }, letter).join(''),
            ),
          ),
        ];
        const data = buildNameIndexData(names);
        expect(data?.bitmap).toContain(0);
        expect(data?.bitmap).toContain(1);
        const index = createNameIndex(packStrings(names), data);
        for (let i = 0; i < 40; i++) {
          const name = names[Math.floor(random() * names.length)] ?? '';
          const start = Math.floor(random() * name.length);
          const needle =
            i % 4 === 3
              ? `${name.slice(start, start + 3)}q`
              : name.slice(start, start + 1 + Math.floor(random() * 7));
          const expected = names.flatMap((one, at) => (one.includes(needle) ? [at] : []));
          expect([...index.namesContaining(needle)], needle).toEqual(expected);
        }
      }),
      { numRuns: 60, seed: 15 },
    );
  });
});

const DISTINCT = 6;

/** A column's value numbers (-1 for none), and a set of accepted values. */
const columnAndNames = fc.record({
  of: fc.array(fc.integer({ min: -1, max: DISTINCT - 1 }), { maxLength: 700, size: 'max' }),
  names: fc.uniqueArray(fc.integer({ min: 0, max: DISTINCT - 1 }), { maxLength: DISTINCT }),
});

/** The positions whose value is accepted, ascending: the definition. */
const plainMatches = (of: readonly number[], names: readonly number[]) =>
  of.flatMap((value, position) => (names.includes(value) ? [position] : []));

describe('scanPositions', () => {
  it('gives the first `count` matches (all when fewer), and leaves the flags clear', () => {
    fc.assert(
      fc.property(columnAndNames, fc.nat(800), ({ of, names }, asked) => {
        const scratch = createScratch(DISTINCT, of.length);
        const all = plainMatches(of, names);
        // Asked for fewer, as many, and more than there are.
        for (const count of [Math.min(asked, all.length), all.length, all.length + 1 + asked]) {
          const found = scanPositions(Int32Array.from(of), names, count, scratch);
          expect([...found]).toStrictEqual(all.slice(0, count));
          expect(scratch.flags.every((flag) => flag === 0)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('collectPositions', () => {
  it('gives every match, ascending, kept where `keep` says', () => {
    fc.assert(
      fc.property(columnAndNames, fc.integer({ min: 1, max: 4 }), ({ of, names }, every) => {
        const column = Int32Array.from(of);
        const postings = postingsOf(column, DISTINCT);
        const total = names.reduce(
          (sum, name) =>
            sum + (postings.starts[name + 1] as number) - (postings.starts[name] as number),
          0,
        );
        const scratch = createScratch(DISTINCT, of.length);
        const all = plainMatches(of, names);
        expect([...collectPositions(postings, names, total, scratch)]).toStrictEqual(all);
        const keep = (position: number) => position % every === 0;
        expect([...collectPositions(postings, names, total, scratch, keep)]).toStrictEqual(
          all.filter(keep),
        );
      }),
      { numRuns: 200 },
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
