/** YAML aliases: shared values are fine, a cycle or a bomb is refused with its place. */
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/problems/source-error.ts';
import { readYamlSource } from '../../src/source/read-yaml-source.ts';
import { ALIAS_ALLOWANCE, ALIAS_GROWTH, judgeAliases } from '../../src/source/yaml-aliases.ts';

/** `levels` levels of `ways`-way aliases under one product's extra field. */
function bomb(levels: number, ways: number): string {
  const names = 'abcdefghijklmnop';
  const lines = ['products:', '  - id: 1', '    name: Bomb', '    extra:'];
  lines.push(`      a: &a [${Array.from({ length: ways }, () => 'x').join(', ')}]`);
  for (let level = 1; level < levels; level++) {
    const [name, before] = [names[level] ?? '', names[level - 1] ?? ''];
    lines.push(
      `      ${name}: &${name} [${Array.from({ length: ways }, () => `*${before}`).join(', ')}]`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function refusal(text: string): SourceError {
  try {
    readYamlSource('f.yaml', text);
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  throw new Error('the text was accepted');
}

describe('YAML aliases', () => {
  it('refuses nine nine-way levels (387 million values) at the first alias, with line and field', () => {
    const error = refusal(bomb(9, 9));
    expect(error.issues).toEqual([
      {
        file: 'f.yaml',
        at: { line: 6, column: 14 },
        field: 'products[0].extra.b[0]',
        message: `aliases expand the data past ${String(ALIAS_GROWTH)} times the 24 values written (plus ${String(ALIAS_ALLOWANCE)}): refused as an alias bomb`,
      },
    ]);
  });

  it('refuses six levels too (531 441 values from 283 bytes), and takes three (729)', () => {
    expect(refusal(bomb(6, 9)).issues[0]?.field).toBe('products[0].extra.b[0]');
    const three = readYamlSource('f.yaml', bomb(3, 9)).value as {
      products: { extra: { c: string[][] } }[];
    };
    expect(three.products[0]?.extra.c.flat()).toHaveLength(81);
  });

  it('refuses an alias inside the node it names', () => {
    expect(refusal('products:\n  - id: 1\n    extra: &x [1, *x]\n').issues).toMatchObject([
      {
        at: { line: 3 },
        field: 'products[0].extra[1]',
        message: expect.stringContaining('never end') as string,
      },
    ]);
    expect(refusal('a: &m\n  b: { c: *m }\n').issues[0]?.field).toBe('a.b.c');
  });

  it('takes a shared object named by every record of a large list', () => {
    const records = Array.from(
      { length: 5000 },
      (_, i) => `  - { id: ${String(i + 1)}, depot: *d }`,
    );
    const text = `depot: &d { city: Oslo, dock: 4, open: true, lanes: [1, 2, 3] }\nproducts:\n${records.join('\n')}\n`;
    const value = readYamlSource('f.yaml', text).value as { products: { depot: unknown }[] };
    expect(value.products[4999]?.depot).toEqual({
      city: 'Oslo',
      dock: 4,
      open: true,
      lanes: [1, 2, 3],
    });
  });

  it('counts written and expanded values apart, with no recursion on deep values', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(judgeAliases(deep)).toEqual({ kind: 'fine' });
    const shared = { a: 1 };
    expect(judgeAliases({ x: shared, y: shared })).toEqual({ kind: 'fine' });
  });
});
