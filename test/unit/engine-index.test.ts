/**
 * What the engine derives at load, against layouts built the obvious way: postings, the two
 * orders of a value index, the folded numbering of a text index, and the buffers that move.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildEngineIndexData,
  engineIndexBuffers,
  postingsOf,
} from '../../src/query/engine-index.ts';
import { packStrings } from '../../src/util/packed-strings.ts';
import { referenceFold } from '../helpers/reference-fold.ts';

/** A column: value numbers per position (-1 for none), and each value's JSON text. */
const columnOf = (texts: readonly string[], of: readonly number[]) => ({
  values: packStrings(texts),
  of: Int32Array.from(of),
});

/** Distinct JSON values, and positions that hold one of them or none. */
const columns = fc
  .uniqueArray(
    fc.oneof(
      fc.integer({ min: -20, max: 20 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      // Strings that fold alike, often enough to meet in one column.
      fc.constantFrom('a', 'A', 'ß', 'ss', 'SS', 'é', 'É'),
      fc.string({ unit: fc.constantFrom('a', 'B', 'é', 'É', 'ß', 's', ' ', '1'), maxLength: 3 }),
      fc.constantFrom(null, true, false),
      fc.constant({ k: 1 }),
    ),
    { selector: (value) => JSON.stringify(value), maxLength: 12 },
  )
  .chain((values) =>
    fc.record({
      texts: fc.constant(values.map((value) => JSON.stringify(value))),
      of: fc.array(fc.integer({ min: -1, max: values.length - 1 }), { maxLength: 40 }),
    }),
  );

describe('postingsOf', () => {
  it('lists the positions of each value, ascending, value after value, and nothing else', () => {
    fc.assert(
      fc.property(columns, ({ texts, of }) => {
        const postings = postingsOf(Int32Array.from(of), texts.length);
        const positionsOf = texts.map((_, value) =>
          of.flatMap((held, position) => (held === value ? [position] : [])),
        );
        const starts = [0];
        for (const list of positionsOf) starts.push((starts.at(-1) as number) + list.length);
        expect([...postings.positions]).toStrictEqual(positionsOf.flat());
        expect([...postings.starts]).toStrictEqual(starts);
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildEngineIndexData', () => {
  it('orders value numbers by JSON text (code units), and the numeric ones by value', () => {
    fc.assert(
      fc.property(columns, ({ texts, of }) => {
        const { exact } = buildEngineIndexData(
          { field: columnOf(texts, of) },
          { exact: ['field'], contains: [] },
        );
        const index = exact['field'];
        const numbers = texts.map((_, number) => number);
        const byCodeUnits = (a: number, b: number) =>
          (texts[a] as string) < (texts[b] as string) ? -1 : 1;
        expect([...(index?.byText ?? [])]).toStrictEqual(numbers.sort(byCodeUnits));
        const numeric = texts
          .map((text, number) => [JSON.parse(text) as unknown, number] as const)
          .filter((entry): entry is readonly [number, number] => typeof entry[0] === 'number')
          .sort((a, b) => a[0] - b[0]);
        expect([...(index?.byNumber ?? [])]).toStrictEqual(numeric.map(([, number]) => number));
        expect([...(index?.numbers ?? [])]).toStrictEqual(numeric.map(([value]) => value));
      }),
      { numRuns: 300 },
    );
  });

  it('numbers each folded string once, in first-seen order; -1 for no value or no string', () => {
    fc.assert(
      fc.property(columns, ({ texts, of }) => {
        const { contains } = buildEngineIndexData(
          { field: columnOf(texts, of) },
          { exact: [], contains: ['field'] },
        );
        const folded: string[] = [];
        const foldedOf = texts.map((text) => {
          const value = JSON.parse(text) as unknown;
          if (typeof value !== 'string') return -1;
          const fold = referenceFold(value);
          if (!folded.includes(fold)) folded.push(fold);
          return folded.indexOf(fold);
        });
        const index = contains['field'];
        expect([...(index?.of ?? [])]).toStrictEqual(
          of.map((value) => (value < 0 ? -1 : (foldedOf[value] as number))),
        );
        expect(index?.folded.text).toBe(folded.join(''));
        expect(index?.folded.ends.length).toBe(folded.length);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves out a planned field that the columns lack', () => {
    const data = buildEngineIndexData(
      {},
      {
        exact: ['a'],
        contains: ['b'],
        ranked: { c: 'number' },
        orders: [[{ field: 'c', descending: true }]],
      },
    );
    expect(data).toStrictEqual({ exact: {}, contains: {}, ranks: {}, orders: {} });
  });
});

describe('engineIndexBuffers', () => {
  it('are every buffer of the derived data, so a transfer moves them all', () => {
    const column = columnOf(['"Oak table"', '"Oak stool"', '3'], [0, 1, 2, -1, 0]);
    const data = buildEngineIndexData(
      { name: column, size: column },
      {
        exact: ['size'],
        contains: ['name'],
        ranked: { size: 'number' },
        orders: [[{ field: 'size', descending: true }], [{ field: 'size', descending: false }]],
      },
    );
    const arrays = [
      ...Object.values(data.ranks),
      ...Object.values(data.orders),
      ...Object.values(data.exact).flatMap((index) => [
        index.postings.positions,
        index.postings.starts,
        index.byText,
        index.byNumber,
        index.numbers,
      ]),
      ...Object.values(data.contains).flatMap((index) => [
        index.folded.ends,
        index.of,
        index.postings.positions,
        index.postings.starts,
      ]),
    ];
    expect(arrays.every((array) => array.byteLength > 0)).toBe(true);
    structuredClone(data, { transfer: engineIndexBuffers(data) });
    // A transferred buffer is detached where it came from: nothing was copied.
    expect(arrays.map((array) => array.byteLength)).toStrictEqual(arrays.map(() => 0));
  });
});
