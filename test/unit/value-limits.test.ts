/** YAML aliases: shared values are fine, a cycle or a bomb is refused with its place. */
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/problems/source-error.ts';
import { readYamlSource } from '../../src/source/read-yaml-source.ts';
import { utf8Text } from '../../src/source/read-source-text.ts';
import {
  ALIAS_ALLOWANCE,
  ALIAS_GROWTH,
  judgeValue,
  MAX_DEPTH,
} from '../../src/source/value-limits.ts';

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

  it('walks a deep value without recursion, and a shared one once', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(judgeValue(deep, { aliases: true })).toMatchObject({ kind: 'deep' });
    const shared = { a: 1 };
    expect(judgeValue({ x: shared, y: shared }, { aliases: true })).toEqual({ kind: 'fine' });
  });
});

describe('one depth rule for every reader', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  it.each([
    [
      'block YAML, 70 levels (js-yaml reads it)',
      `products:\n  - id: 1\n    extra: ${nested(70)}\n`,
      3,
    ],
    [
      'block YAML, 150 levels (past js-yaml own limit)',
      `products:\n  - id: 1\n    extra: ${nested(150)}\n`,
      3,
    ],
    [
      'block YAML, 200 000 levels (past the stack)',
      `products:\n  - id: 1\n    extra: ${nested(200_000)}\n`,
      3,
    ],
  ])('%s: refused at its line', (_case, text, line) => {
    const error = refusal(text);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({
      at: { line },
      message: `nests deeper than the ${String(MAX_DEPTH)} levels stockmock reads`,
    });
  });

  it('the one-object-per-line layout, by its fast reader, meets the same rule', () => {
    const text = `products:\n  - {"id": 1, "name": "D", "extra": ${nested(5000)}}\n`;
    const error = (() => {
      try {
        readYamlSource(
          'f.yaml',
          text,
          (raw) => JSON.parse(`{"products":[${raw.split('\n')[1]?.slice(4) ?? ''}]}`) as unknown,
        );
      } catch (thrown) {
        return thrown as SourceError;
      }
      throw new Error('accepted');
    })();
    expect(error.issues[0]).toMatchObject({
      at: { line: 2 },
      field: 'products[0].extra[0][0][0][0][0][0][0][0][0]…',
      message: `nests deeper than the ${String(MAX_DEPTH)} levels stockmock reads`,
    });
  });

  it(`takes ${String(MAX_DEPTH - 4)} levels under a record`, () => {
    expect(() =>
      readYamlSource('f.yaml', `products:\n  - id: 1\n    extra: ${nested(MAX_DEPTH - 4)}\n`),
    ).not.toThrow();
  });
});

describe('__proto__ and invalid UTF-8', () => {
  it('refuses a key __proto__ in block and JSON layouts alike, at each line; keeps constructor', () => {
    const block = refusal('products:\n  - id: 1\n    __proto__: x\n    constructor: y\n');
    expect(block.issues).toEqual([
      {
        file: 'f.yaml',
        at: { line: 3, column: 5 },
        field: '',
        message: 'a field named __proto__ is refused: JavaScript objects cannot hold it as data',
      },
    ]);
    expect(refusal('products:\n  - {"id": 1, "__proto__": {"a": 1}}\n').issues[0]?.at).toEqual({
      line: 2,
      column: 15,
    });
    const kept = readYamlSource('f.yaml', 'products:\n  - id: 1\n    constructor: y\n').value as {
      products: Record<string, unknown>[];
    };
    expect(kept.products[0]?.['constructor']).toBe('y');
  });

  it('finds __proto__ keys of a large file by its lines, at the places the small-file reader gives', () => {
    const records = Array.from(
      { length: 9000 },
      (_, i) => `  - {"id": ${String(i + 1)}, "name": "P & Co"}`,
    );
    const tail = ['  - {"id": 9001, "__proto__": {"a": 1}}', '  - id: 9002', '    __proto__: x'];
    const text = `products:\n${[...records, ...tail].join('\n')}\n`;
    expect(text.length).toBeGreaterThan(256 * 1024);
    expect(refusal(text).issues.map((issue) => issue.at)).toEqual([
      { line: 9002, column: 18 },
      { line: 9004, column: 5 },
    ]);
    expect(refusal('products:\n  - {"id": 9001, "__proto__": {"a": 1}}\n').issues[0]?.at).toEqual({
      line: 2,
      column: 18,
    });
  });

  it('refuses bytes that are not UTF-8 at their line and column, with nothing of the text', () => {
    const bytes = Buffer.concat([
      Buffer.from('products:\n  - id: 1\n    name: "Caf'),
      Buffer.from([0xc3]),
      Buffer.from('"\n'),
    ]);
    expect(() => utf8Text('f.yaml', bytes)).toThrow(SourceError);
    try {
      utf8Text('f.yaml', bytes);
    } catch (error) {
      expect((error as SourceError).issues).toEqual([
        {
          file: 'f.yaml',
          at: { line: 3, column: 15 },
          field: '',
          message: 'is not UTF-8 text: a byte here is no character',
        },
      ]);
    }
    for (const bad of [[0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0xff]]) {
      expect(() => utf8Text('f.yaml', Buffer.from([0x61, ...bad]))).toThrow(SourceError);
    }
    expect(utf8Text('f.yaml', Buffer.from('Café ✓ 𝄞'))).toBe('Café ✓ 𝄞');
  });
});
