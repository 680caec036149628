/**
 * Locating by lines (large files) gives what `yaml`'s document tree gives (small files), on
 * generated fixtures of every layout the readers know; and a bad line at the end of a large
 * file is found, and a syntax fault placed where it starts, without the tree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDataset as parseCatalogData } from '../helpers/datasets.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import { locateByLines } from '../../src/source/locate-by-lines.ts';
import { readYamlSource } from '../../src/source/read-yaml-source.ts';

interface Entry {
  readonly id: number;
  readonly name: string;
  readonly quantity: number | null | 'empty';
  readonly extra: boolean;
  /** A mapping before the entry's own fields that holds keys of the same names. */
  readonly nested: 'none' | 'inline' | 'block';
}

const entry: fc.Arbitrary<Entry> = fc.record({
  id: fc.integer({ min: 1, max: 10_000 }),
  name: fc.oneof(
    fc.string({ unit: fc.constantFrom(...'aZ 09-_.,:#{}[]é"\''.split('')), maxLength: 12 }),
    // Text that looks like the fields inside a quoted value.
    fc.constantFrom('x, quantity: 3', '{quantity: 1}', 'a", "quantity": 2'),
  ),
  quantity: fc.oneof(
    fc.integer({ min: -5, max: 50 }),
    fc.constant(null),
    fc.constant('empty' as const),
  ),
  extra: fc.boolean(),
  nested: fc.constantFrom('none' as const, 'inline' as const, 'block' as const),
});

type Layout = 'json' | 'flow' | 'block';

function render(entries: readonly Entry[], layout: Layout, indent: number, gaps: boolean): string {
  const pad = ' '.repeat(indent);
  const lines = ['# a fixture', 'products:'];
  for (const { id, name, quantity, extra, nested } of entries) {
    if (gaps) lines.push('', `${pad}# next`);
    const q = quantity === 'empty' ? (layout === 'block' ? '' : 'null') : String(quantity);
    if (layout === 'json') {
      const meta = nested === 'none' ? '' : ', "meta": {"quantity": 9, "name": "m"}';
      const extraText = extra ? ', "dims": {"w": 1}' : '';
      lines.push(
        `${pad}- {"id": ${String(id)}${meta}, "name": ${JSON.stringify(name)}, "quantity": ${q}${extraText}}`,
      );
    } else if (layout === 'flow') {
      const meta = nested === 'none' ? '' : ', meta: { quantity: 9, name: m }';
      const extraText = extra ? ', dims: { w: 1 }' : '';
      lines.push(
        `${pad}- { id: ${String(id)}${meta}, name: ${JSON.stringify(name)}, quantity: ${q}${extraText} }`,
      );
    } else {
      lines.push(`${pad}- id: ${String(id)}`);
      if (nested === 'inline') lines.push(`${pad}  meta: { quantity: 9, name: m }`);
      if (nested === 'block')
        lines.push(`${pad}  meta:`, `${pad}    quantity: 9`, `${pad}    name: m`);
      lines.push(`${pad}  name: ${JSON.stringify(name)}`);
      lines.push(q === '' ? `${pad}  quantity:` : `${pad}  quantity: ${q}`);
      if (extra) lines.push(`${pad}  dims:`, `${pad}    w: 1`);
    }
  }
  return `${lines.join('\n')}\n`;
}

describe('locateByLines', () => {
  it('places products, entries and fields where the document tree does', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 6 }),
        fc.constantFrom<Layout>('json', 'flow', 'block'),
        fc.constantFrom(0, 2, 4),
        fc.boolean(),
        (entries, layout, indent, gaps) => {
          const text = render(entries, layout, indent, gaps);
          const tree = readYamlSource('f.yaml', text);
          const lines = locateByLines(text);
          const paths: (string | number)[][] = [['products']];
          entries.forEach((item, i) => {
            paths.push(['products', i], ['products', i, 'id'], ['products', i, 'name']);
            paths.push(['products', i, 'quantity'], ['products', i, 'status']);
            if (item.extra) paths.push(['products', i, 'dims']);
            if (item.nested !== 'none') paths.push(['products', i, 'meta']);
          });
          for (const path of paths) {
            for (const part of ['value', 'key'] as const) {
              const quick = lines(path, part);
              expect(quick, `${JSON.stringify(path)} ${part}\n${text}`).toEqual(
                tree.locate(path, part),
              );
            }
          }
        },
      ),
      { numRuns: 300, seed: 15 },
    );
  });

  it('leaves what it cannot place to the tree: another shape, or a path below a field', () => {
    const lines = locateByLines('products: [{ id: 1, name: A }]\n');
    expect(lines(['products', 0, 'id'], 'value')).toBeUndefined();
    const block = locateByLines('products:\n  - id: 1\n    dims: { w: 1 }\n');
    expect(block(['products', 0, 'dims', 'w'], 'value')).toBeUndefined();
    expect(block(['other'], 'value')).toBeUndefined();
  });
});

describe('issues of a large file, found without the document tree', () => {
  const products = (count: number, line: (i: number) => string) =>
    `products:\n${Array.from({ length: count }, (_, i) => line(i + 1)).join('\n')}\n`;

  function refusal(text: string): SourceError {
    try {
      parseCatalogData('large.yaml', text);
    } catch (error) {
      if (error instanceof SourceError) return error;
      throw error;
    }
    throw new Error('not refused');
  }

  it('a bad value on the last line, at its line and column', () => {
    const text = products(20_000, (i) =>
      i === 20_000
        ? `  - {"id": ${String(i)}, "name": "P", "quantity": -1}`
        : `  - {"id": ${String(i)}, "name": "P", "quantity": 1}`,
    );
    expect(text.length).toBeGreaterThan(256 * 1024);
    expect(refusal(text).issues).toEqual([
      {
        file: 'large.yaml',
        at: { line: 20_001, column: 44 },
        field: 'products[19999].quantity',
        message: 'must be >= 0',
      },
    ]);
  });

  it('an unclosed quote, where it opens, as a YAML syntax error', () => {
    const text = products(
      20_000,
      (i) => `  - id: ${String(i)}\n    name: ${i === 12_345 ? '"Oak' : 'Oak'}\n    quantity: 3`,
    );
    expect(text.length).toBeGreaterThan(256 * 1024);
    const [issue] = refusal(text).issues;
    expect(issue).toMatchObject({
      file: 'large.yaml',
      at: { line: 1 + 3 * 12_344 + 2, column: 11 },
    });
    expect(issue?.message).toMatch(/^YAML syntax error: Missing closing "quote/);
  });
});
