/**
 * The scanner places every member where `yaml`'s document tree places it, on generated
 * documents written as YAML blocks, YAML flow, indented and minified JSON; it answers for every
 * path of those layouts (a scanner that gave up everywhere would pass a comparison alone), and
 * gives up, rather than guess, on what it does not read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument, stringify, type Node } from 'yaml';
import { scanLocation, type Path } from '../../src/source/scan-location.ts';

/** The oracle: `yaml`'s tree, keys compared as the JSON value's keys (their text). */
function treeOffset(text: string, path: Path, part: 'value' | 'key'): number {
  const doc = parsed.get(text) ?? parseDocument(text);
  parsed.set(text, doc);
  let node: unknown = doc.contents;
  let found = node as Node;
  for (const [index, segment] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined || typeof segment === 'number') break;
      node = index === path.length - 1 && part === 'key' ? pair.key : pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      if (node === undefined) break;
    } else break;
    found = node as Node;
  }
  return found.range?.[0] ?? 0;
}

const parsed = new Map<string, ReturnType<typeof parseDocument>>();

/** Every path of a value, and beside each an absent member under it. */
function pathsOf(value: unknown, path: Path = []): Path[] {
  const paths: Path[] = [path, [...path, 'absent-member'], [...path, 99]];
  if (Array.isArray(value)) {
    value.forEach((item, index) => paths.push(...pathsOf(item, [...path, index])));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...path, key]));
  }
  return paths;
}

const key = fc.constantFrom(
  'a',
  'name',
  '/v1/items/{id}',
  '200',
  '404',
  'x y',
  'get',
  'a:b',
  'say "hi"',
  "it's",
  'with # hash',
  '-dash',
  'true',
  'null',
  '1.5',
  '',
  'é',
  'tab\there',
  '[x]',
  '{y}',
  'a, b',
);

const scalar = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'aZ 09-_.,:#{}[]é"\'\n|>&*!%@'.split('')), maxLength: 14 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

const { value: document } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
}));
const root = fc.oneof(
  fc.dictionary(key, document, { minKeys: 1, maxKeys: 6 }),
  fc.array(document, { minLength: 1, maxLength: 5 }),
);

const layouts: Record<string, (value: unknown) => string> = {
  'YAML blocks': (value) => stringify(value, { aliasDuplicateObjects: false }),
  'YAML blocks, sequences not indented': (value) =>
    stringify(value, { aliasDuplicateObjects: false, indentSeq: false, indent: 4 }),
  'YAML flow': (value) =>
    stringify(value, { aliasDuplicateObjects: false, collectionStyle: 'flow' }),
  'indented JSON': (value) => JSON.stringify(value, null, 2),
  'minified JSON': (value) => JSON.stringify(value),
};

describe('scanLocation', () => {
  for (const [name, render] of Object.entries(layouts)) {
    it(`places every member as the tree does: ${name}`, () => {
      fc.assert(
        fc.property(root, fc.constantFrom('value' as const, 'key' as const), (value, part) => {
          const text = render(value);
          parsed.clear();
          for (const path of pathsOf(value)) {
            const scanned = scanLocation(text, path, part);
            expect(scanned, JSON.stringify({ text, path })).toBe(treeOffset(text, path, part));
          }
        }),
        { numRuns: 150, seed: 48_049 },
      );
    });
  }

  it('reads comments, blank lines, a document marker and CRLF lines', () => {
    const text = [
      '---',
      '# a spec',
      'openapi: 3.1.0',
      '',
      'paths:   # every path',
      '  /v1/items:',
      '',
      '    # the list',
      '    get:',
      '      parameters:',
      '      - name: q',
      '        schema: { type: string, pattern: "^(?=a)b$" }',
      '      -',
      '        name: r',
      'tags:',
      '- items',
    ].join('\r\n');
    for (const path of [
      ['paths', '/v1/items', 'get', 'parameters', 0, 'schema', 'pattern'],
      ['paths', '/v1/items', 'get', 'parameters', 1, 'name'],
      ['tags', 0],
      ['paths', '/v1/items', 'post'],
    ]) {
      expect(scanLocation(text, path, 'value')).toBe(treeOffset(text, path, 'value'));
    }
  });

  it('gives up on anchors, aliases, tags and keys YAML reads as other values', () => {
    expect(scanLocation('a: &x\n  b: 1\nc: *x\n', ['c', 'b'], 'value')).toBeUndefined();
    expect(scanLocation('a: !!map\n  b: 1\n', ['a', 'b'], 'value')).toBeUndefined();
    expect(scanLocation('0x10: 1\na: 2\n', ['a'], 'value')).toBeUndefined();
    expect(scanLocation('? complex\n: 1\n', ['complex'], 'value')).toBeUndefined();
    expect(scanLocation('a: 1\n---\nb: 2\n', ['b'], 'value')).toBeUndefined();
  });
});
