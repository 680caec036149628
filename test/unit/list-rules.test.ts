/**
 * The list rules against their definition: a label order (code units, lower-cased, or the root
 * collation), ties and unlabelled records in key order, and the case-sensitive `contains` rule,
 * written here from the compatibility settings' description, not from list-rules.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyListRules,
  labelOrderOf,
  labelOrdering,
  type LabelCollation,
} from '../../src/query/list-rules.ts';
import type { Column, Condition } from '../../src/query/query.ts';
import { slicesOf } from '../../src/query/selection.ts';
import { packStrings } from '../../src/util/packed-strings.ts';

/** A column of labels, position by position; undefined where a record has none. */
function labelColumn(labels: readonly (string | undefined)[]): Column {
  const texts: string[] = [];
  const of = Int32Array.from(labels, (label) => {
    if (label === undefined) return -1;
    const text = JSON.stringify(label);
    const known = texts.indexOf(text);
    return known >= 0 ? known : texts.push(text) - 1;
  });
  return { values: packStrings(texts), of };
}

const COMPARE: Record<LabelCollation, (a: string, b: string) => number> = {
  'code-units': (a, b) => (a === b ? 0 : a < b ? -1 : 1),
  lowercase: (a, b) => COMPARE['code-units'](a.toLowerCase(), b.toLowerCase()),
  locale: new Intl.Collator('en').compare,
};

/** The definition: labelled records by label, ties and then the unlabelled by position. */
function expectedOrder(
  labels: readonly (string | undefined)[],
  positions: readonly number[],
  collation: LabelCollation,
): number[] {
  return [...positions].sort((a, b) => {
    const [x, y] = [labels[a], labels[b]];
    if (x === undefined || y === undefined) {
      if (x !== y) return x === undefined ? 1 : -1;
      return a - b;
    }
    return COMPARE[collation](x, y) || a - b;
  });
}

const COLLATIONS: readonly LabelCollation[] = ['code-units', 'lowercase', 'locale'];

describe('labelOrderOf', () => {
  // Positions 0–4: "b", "A", "a", none, "B".
  const labels = ['b', 'A', 'a', undefined, 'B'];
  it.each<[LabelCollation, number[]]>([
    ['code-units', [1, 4, 2, 0, 3]],
    ['lowercase', [1, 2, 0, 4, 3]],
    ['locale', [2, 1, 0, 4, 3]],
  ])('%s: %j', (collation, order) => {
    expect([...labelOrderOf(labelColumn(labels), labels.length, collation)]).toEqual(order);
  });

  it('lower-cases before comparing: `_` sorts before letters, as in `a_` < `ab`', () => {
    const underscore = ['AB', 'a_'];
    expect([...labelOrderOf(labelColumn(underscore), 2, 'lowercase')]).toEqual([1, 0]);
    expect([...labelOrderOf(labelColumn(underscore), 2, 'code-units')]).toEqual([0, 1]);
  });
});

const labelText = fc.string({ unit: fc.constantFrom(...'aAbB_é É'.split('')), maxLength: 3 });
// `size: 'max'`: fast-check's default keeps arrays near ten items, and a selection under a
// sixteenth of the catalogue (sorted by rank, not read off the order) needs fifty or more.
const catalogue = fc.array(fc.option(labelText, { nil: undefined, freq: 5 }), {
  minLength: 1,
  maxLength: 120,
  size: 'max',
});

describe('applyListRules', () => {
  it('lists any selection in the label order of each collation', () => {
    fc.assert(
      fc.property(
        catalogue,
        fc.constantFrom(...COLLATIONS),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat(),
        (labels, collation, share, seed) => {
          const column = labelColumn(labels);
          const source = { size: labels.length, column: () => column };
          const order = labelOrdering(labelOrderOf(column, labels.length, collation));
          // Some selections are a few records, some most of them, some all.
          const chosen = labels
            .map((_label, position) => position)
            .filter((position) => share === 1 || ((position * 7919 + seed) % 1000) / 1000 < share);
          const listed = applyListRules(slicesOf(chosen), [], source, {
            order,
            caseSensitive: false,
          });
          expect(listed.slice(0, listed.total)).toEqual(expectedOrder(labels, chosen, collation));
        },
      ),
      { numRuns: 300, seed: 27 },
    );
  });

  it('case-sensitive: keeps only the labels holding the needle as written, in any order', () => {
    fc.assert(
      fc.property(
        catalogue,
        labelText,
        fc.boolean(),
        fc.boolean(),
        (labels, needle, ordered, all) => {
          const column = labelColumn(labels);
          const source = {
            size: labels.length,
            column: (field: string) => (field === 'label' ? column : undefined),
          };
          const conditions: Condition[] = [
            { field: 'label', match: 'contains', value: needle },
            // Only `contains` conditions are re-read; this one names no column of the source.
            { field: 'other', match: 'exact', value: 3 },
          ];
          // The engine's selection (every record whose label holds the needle in any case), or
          // every record: the rule keeps what holds the needle as written, whatever it is given.
          const given = labels
            .map((label, position) => ({ label, position }))
            .filter(({ label }) => all || label?.toLowerCase().includes(needle.toLowerCase()))
            .map(({ position }) => position);
          const kept = given.filter((position) => labels[position]?.includes(needle));
          const rules = {
            caseSensitive: true,
            ...(ordered && { order: labelOrdering(labelOrderOf(column, labels.length)) }),
          };
          const listed = applyListRules(slicesOf(given), conditions, source, rules);
          expect(listed.slice(0, listed.total)).toEqual(
            ordered ? expectedOrder(labels, kept, 'code-units') : kept,
          );
        },
      ),
      { numRuns: 300, seed: 28 },
    );
  });
});
