/** The JSON-line fast path reads what a YAML parser reads, or steps aside. */
import fc from 'fast-check';
import { CORE_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseDataset as parseCatalog } from '../helpers/datasets.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import { parseJsonLineFixture } from '../../src/source/json-line-fixture.ts';

const yaml = (text: string): unknown => load(text, { schema: CORE_SCHEMA });

/** Values a fixture's fields may hold, strings with quotes, backslashes, `#`, `: ` and non-ASCII. */
const jsonValue = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', '"', '\\', '#', ':', ' ', 'é', '😀', '\t', '{') }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);
const jsonObject = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), jsonValue, {
  maxKeys: 5,
});

describe('parseJsonLineFixture', () => {
  it('reads every JSON-line fixture as js-yaml does', () => {
    fc.assert(
      fc.property(
        fc.array(jsonObject, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom('', '# a comment\n'),
        (items, newline, preamble) => {
          const text =
            preamble +
            ['products:', ...items.map((item) => `  - ${JSON.stringify(item, null, 0)}`)]
              .map((line) => line + newline)
              .join('');
          const fast = parseJsonLineFixture(text);
          expect(fast).toBeDefined();
          expect(fast).toEqual(yaml(text));
        },
      ),
      { numRuns: 300, seed: 21 },
    );
  });

  it.each([
    ['a duplicate key, which YAML refuses', 'products:\n  - {"id": 1, "id": 2}\n'],
    ['a duplicate key spaced apart', 'products:\n  - {"id" : 1, "id":2}\n'],
    ['a duplicate key in a nested object', 'products:\n  - {"id": 1, "a": {"b": 1, "b": 2}}\n'],
    ['a duplicate key in an array', 'products:\n  - {"id": 1, "a": [{"b": 1, "b": 2}]}\n'],
    ['a carriage return inside a line', 'products:\n  - {"id": 1,\r"a": 2}\n'],
    ['a comment after an item', 'products:\n  - {"id": 1} # first\n'],
    ['another top-level key', 'version: 1\nproducts:\n  - {"id": 1}\n'],
    ['a YAML flow mapping that is not JSON', 'products:\n  - { id: 1 }\n'],
    ['a block mapping', 'products:\n  - id: 1\n    name: x\n'],
    ['an array item', 'products:\n  - [1, 2]\n'],
    ['an empty list', 'products: []\n'],
    ['a document marker', '---\nproducts:\n  - {"id": 1}\n'],
  ])('steps aside for %s', (_, text) => {
    expect(parseJsonLineFixture(text)).toBeUndefined();
  });

  it('steps aside for every line that writes a key twice, at any depth, however spaced', () => {
    fc.assert(
      fc.property(
        jsonObject,
        fc.string({ unit: fc.constantFrom('a', '"', '\\', ':', 'é') }),
        fc.constantFrom(':', ' :', ': ', '\t:'),
        fc.boolean(),
        (record, key, colon, nested) => {
          const pair = `${JSON.stringify(key)}${colon}1`;
          const twice = `{${pair},${pair}}`;
          const body = JSON.stringify(record).slice(1, -1);
          const line = nested
            ? `{${body}${body === '' ? '' : ','}"x":${twice}}`
            : `{${body}${body === '' ? '' : ','}${pair},${pair}}`;
          expect(parseJsonLineFixture(`products:\n  - ${line}\n`)).toBeUndefined();
        },
      ),
      { numRuns: 300, seed: 22 },
    );
  });

  it('a duplicate key in a JSON line is refused with its line, as in any fixture', () => {
    const text =
      'products:\n  - {"id": 1, "name": "A", "quantity": 1}\n  - {"id": 2, "name": "B", "id": 3}\n';
    expect(() => parseCatalog('dup.yaml', text)).toThrow(SourceError);
    try {
      parseCatalog('dup.yaml', text);
    } catch (error) {
      expect(String(error)).toMatch(/dup\.yaml:3/);
    }
  });

  it('a JSON line that breaks the fixture schema is refused with file, line and field', () => {
    const text =
      'products:\n  - {"id": 1, "name": "A"}\n  - {"id": 2, "name": "B", "quantity": -4}\n';
    expect(() => parseCatalog('bad.yaml', text)).toThrow(/bad\.yaml:3:\d+ products\[1\]\.quantity/);
  });
});

describe('the JSON-line layout of several collections', () => {
  it('reads each list, and an empty one written `key: []`', () => {
    const text =
      'customers:\n  - {"id": "a"}\ninvoices: []\nnotes:\n  - {"id": 1}\n  - {"id": 2}\n';
    expect(parseJsonLineFixture(text)).toStrictEqual({
      customers: [{ id: 'a' }],
      invoices: [],
      notes: [{ id: 1 }, { id: 2 }],
    });
  });

  it('leaves to the YAML parser a key twice, and a key with nothing under it (null in YAML)', () => {
    expect(parseJsonLineFixture('a:\n  - {"id": 1}\na:\n  - {"id": 2}\n')).toBeUndefined();
    expect(parseJsonLineFixture('a:\nb:\n  - {"id": 2}\n')).toBeUndefined();
    expect(parseJsonLineFixture('a:\n  - {"id": 2}\nb:\n')).toBeUndefined();
  });
});
