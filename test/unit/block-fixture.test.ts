/** The block-mapping fast path reads what js-yaml reads, or steps aside. */
import fc from 'fast-check';
import { CORE_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseDataset as parseCatalog } from '../helpers/datasets.ts';
import { parseBlockFixture } from '../../src/source/block-fixture.ts';

const yaml = (text: string): unknown => load(text, { schema: CORE_SCHEMA });

/** Whatever js-yaml makes of the text, or the error it throws. */
function yamlOrError(text: string): unknown {
  try {
    return yaml(text);
  } catch (error) {
    return error;
  }
}

/** Characters that change what a scalar means: quotes, `#`, `: `, escapes, non-ASCII, a tab. */
const tricky = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    ' ',
    ':',
    '#',
    '"',
    "'",
    '\\',
    ',',
    '[',
    '-',
    'é',
    'ß',
    '😀',
    '\t',
    '0',
    '.',
    '~',
  ),
  maxLength: 8,
});

/** A field's value as it could stand in a hand-written file, meaningful or not. */
const valueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...['null', 'Null', 'NULL', '~', 'true', 'True', 'FALSE', 'false', 'yes', 'No', 'on'],
      ...['y', 'n', '007', '1_000', '0x1F', '0o17', '1e3', '.5', '1.', '+1', '-0', '.inf'],
      ...['-.Inf', '.NaN', '2026-11-22', 'Oak table', 'Oak table # comment', 'Oak: table'],
      ...["Jack's", 'a, b', '[1, 2]', '{ a: 1 }', '!!str 1', '&anchor x', '*alias', '|', '>'],
      ...['"unterminated', "'it''s'", '"tab\\there"', '"\\x41"', '"\\u00e9"', 'Élan'],
      ...['Straße 1', 'Oak  ', '- x', '@x', '`x'],
    ),
  },
  { weight: 1, arbitrary: tricky },
  { weight: 3, arbitrary: tricky.map((text) => `Oak ${text}`) },
  { weight: 3, arbitrary: tricky.map((text) => JSON.stringify(text)) },
  { weight: 2, arbitrary: tricky.map((text) => `'${text.replaceAll("'", "''")}'`) },
);

const key = fc.constantFrom('id', 'name', 'quantity', 'category', 'price_eur', 'x-y', 'null', 'A1');

/** Mostly distinct keys, as in a real file; sometimes a key twice, which YAML refuses. */
const item = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.uniqueArray(fc.tuple(key, valueText), {
      minLength: 1,
      maxLength: 4,
      selector: ([name]) => name,
    }),
  },
  { weight: 1, arbitrary: fc.array(fc.tuple(key, valueText), { minLength: 1, maxLength: 5 }) },
);

/** Block text for the items: the list at 0 or 2 spaces, LF or CRLF, blank and comment lines. */
const fixtureText = fc
  .record({
    items: fc.array(item, { minLength: 1, maxLength: 3 }),
    indent: fc.constantFrom('', '  '),
    newline: fc.constantFrom('\n', '\r\n'),
    preamble: fc.constantFrom('', '# products\n', '\n'),
    between: fc.constantFrom('', '\n', '  # note\n'),
  })
  .map(({ items, indent, newline, preamble, between }) => {
    const lines = items.flatMap((fields) =>
      fields.map(([name, value], index) =>
        index === 0 ? `${indent}- ${name}: ${value}` : `${indent}  ${name}: ${value}`,
      ),
    );
    return `${preamble}products:${newline}${lines.join(`${newline}${between}`)}${newline}`;
  });

describe('parseBlockFixture', () => {
  it('reads a block fixture as js-yaml does, or steps aside', () => {
    let read = 0;
    fc.assert(
      fc.property(fixtureText, (text) => {
        const fast = parseBlockFixture(text);
        if (fast === undefined) return;
        read++;
        expect(fast).toEqual(yamlOrError(text));
      }),
      { numRuns: 4000, seed: 8 },
    );
    // The comparison ran on a good share of the cases, not on a few.
    expect(read).toBeGreaterThan(400);
  });

  it('reads the usual values itself', () => {
    const text = [
      'products:',
      '  - id: 1',
      '    name: Oak table, large',
      '    quantity: 12',
      '    price_eur: 865.25',
      '    note: null',
      '    active: true',
      "    maker: 'Jack''s'",
      '    sku: "SM-0001"',
      '  - id: 2',
      '    name: Élan chair',
      '    quantity: ~',
      '',
    ].join('\n');
    const fast = parseBlockFixture(text);
    expect(fast).toEqual(yaml(text));
    expect(fast?.products).toHaveLength(2);
  });

  it.each([
    ['a duplicate key, which YAML refuses', 'products:\n  - id: 1\n    id: 2\n'],
    ['a trailing comment', 'products:\n  - id: 1 # first\n'],
    ['a nested value', 'products:\n  - id: 1\n    tags:\n      - a\n'],
    ['a flow mapping', 'products:\n  - { id: 1 }\n'],
    ['another top-level key', 'version: 1\nproducts:\n  - id: 1\n'],
    ['a field indented wrongly', 'products:\n  - id: 1\n     name: x\n'],
    ['an item indented unlike the first', 'products:\n  - id: 1\n    - id: 2\n'],
    ['a plain value that is a word of some schema', 'products:\n  - id: 1\n    ok: yes\n'],
    ['a number with an exponent', 'products:\n  - id: 1e3\n'],
    ['a YAML escape that JSON lacks', 'products:\n  - name: "\\x41"\n'],
    ['a `__proto__` key', 'products:\n  - __proto__: 1\n'],
    ['an empty list', 'products: []\n'],
    ['a document marker', '---\nproducts:\n  - id: 1\n'],
    ['the JSON-line layout', 'products:\n  - {"id": 1}\n'],
  ])('steps aside for %s', (_, text) => {
    expect(parseBlockFixture(text)).toBeUndefined();
  });

  it('a bad value in a block fixture is refused with file, line and field', () => {
    const text =
      'products:\n  - id: 1\n    name: A\n    quantity: 1\n  - id: 2\n    name: B\n    quantity: -4\n';
    expect(parseBlockFixture(text)).toBeDefined();
    expect(() => parseCatalog('bad.yaml', text)).toThrow(/bad\.yaml:7:\d+ products\[1\]\.quantity/);
  });
});
