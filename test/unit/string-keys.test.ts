/**
 * Collections keyed by strings (issue 38, item 2): lists in code point order, items found by
 * their key, key filters as runs, and declarations that cannot be served refused with file,
 * line and field. Expected orders are worked out here, by code points, from the fixture.
 */
import fc from 'fast-check';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { byCodePoints } from '../helpers/code-points.ts';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import { packStrings } from '../../src/util/packed-strings.ts';
import { buildStringTable, indexInTable } from '../../src/util/string-table.ts';
import { compareCodePoints } from '../../src/util/code-point-order.ts';

describe('compareCodePoints', () => {
  it('orders as code points do, also beyond the BMP', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byCodePoints(a, b)));
      }),
      { numRuns: 500 },
    );
    // U+FF5E (fullwidth tilde) is below U+1F600 (an emoji) by code point, above it by code unit.
    expect(compareCodePoints('\uff5e', '\u{1f600}')).toBeLessThan(0);
    expect(['\u{1f600}', '\uff5e'].sort()).toStrictEqual(['\u{1f600}', '\uff5e']);
  });
});

describe('a string table', () => {
  it('finds every string it holds and none it does not', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 200 }), fc.string(), (keys, probe) => {
        const packed = packStrings(keys);
        const table = buildStringTable(packed);
        keys.forEach((key, index) => {
          expect(indexInTable(table, packed, key)).toBe(index);
        });
        expect(indexInTable(table, packed, probe)).toBe(keys.indexOf(probe));
      }),
      { numRuns: 200 },
    );
  });
});

const CODES = ['sku-b', 'SKU-a', 'sku-a', 'ſku', '\u{1f600}-smile', '\uff5e-tilde', 'sku-a0', 'é'];

function specOf(extra: { key?: string; item?: string; references?: string } = {}): string {
  return [
    'openapi: 3.1.0',
    "info: { title: codes, version: '1' }",
    'x-stockmock-collections:',
    '  parts:',
    `    key: ${extra.key ?? 'code'}`,
    ...(extra.references === undefined ? [] : [`    references: ${extra.references}`]),
    '    record:',
    '      type: object',
    '      required: [code, rank, shelf]',
    '      properties:',
    '        code: { type: string, minLength: 1 }',
    '        rank: { type: integer }',
    '        shelf: { type: boolean }',
    'paths:',
    '  /parts:',
    '    get:',
    '      security: []',
    '      x-stockmock:',
    '        collection: parts',
    '        filters:',
    '          code: { field: code, match: exact }',
    '          from: { field: code, match: min }',
    '        view: { fields: { code: code, rank: rank } }',
    '      parameters:',
    '        - name: code',
    '          in: query',
    '          schema: { type: array, items: { type: string } }',
    '        - { name: from, in: query, schema: { type: string } }',
    '        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 3 } }',
    '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
    "      responses: { '200': { description: a page } }",
    '  /parts/{code}:',
    '    get:',
    '      security: []',
    `      x-stockmock: { collection: parts, item: ${extra.item ?? 'code'}, view: { fields: { code: code } } }`,
    '      parameters:',
    '        - { name: code, in: path, required: true, schema: { type: string } }',
    '        - { name: number, in: path, required: true, schema: { type: integer } }',
    "      responses: { '200': { description: one } }",
    '',
  ]
    .join('\n')
    .replace(
      '        - { name: number, in: path, required: true, schema: { type: integer } }\n',
      extra.item === 'number'
        ? '        - { name: number, in: path, required: true, schema: { type: integer } }\n'
        : '',
    );
}

async function write(spec: string, fixture?: string): Promise<{ spec: string; fixture: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-keys-'));
  await writeFile(join(dir, 'openapi.yaml'), spec);
  const records = CODES.map((code, index) => ({ code, rank: index, shelf: index % 2 === 0 }));
  await writeFile(
    join(dir, 'parts.yaml'),
    fixture ?? `parts:\n${records.map((record) => `  - ${JSON.stringify(record)}`).join('\n')}\n`,
  );
  return { spec: join(dir, 'openapi.yaml'), fixture: join(dir, 'parts.yaml') };
}

describe('a collection keyed by strings', () => {
  it('lists in code point order, finds items by key, and filters keys as runs', async () => {
    const files = await write(specOf());
    const mock = await startStockmock({ spec: files.spec, fixtures: files.fixture });
    try {
      const sorted = [...CODES].sort(byCodePoints);
      const codes = async (query: string): Promise<string[]> => {
        const response = await fetch(`${mock.url}/parts?${query}`);
        expect(response.status, query).toBe(200);
        return ((await response.json()) as { data: { code: string }[] }).data.map((p) => p.code);
      };
      expect(await codes('limit=100')).toStrictEqual(sorted);
      expect(await codes('page=2')).toStrictEqual(sorted.slice(3, 6));
      expect(await codes('limit=100&from=sku-a')).toStrictEqual(
        sorted.filter((code) => byCodePoints(code, 'sku-a') >= 0),
      );
      expect(await codes('code=sku-a&code=%F0%9F%98%80-smile&code=nope')).toStrictEqual(
        sorted.filter((code) => code === 'sku-a' || code === '\u{1f600}-smile'),
      );

      for (const code of CODES) {
        const response = await fetch(`${mock.url}/parts/${encodeURIComponent(code)}`);
        expect(response.status, code).toBe(200);
        expect(await response.json()).toStrictEqual({ data: { code } });
      }
      // Keys are matched as written: no case folding, no trimming.
      for (const missing of ['SKU-B', 'sku-b ', 'sku']) {
        const response = await fetch(`${mock.url}/parts/${encodeURIComponent(missing)}`);
        expect(response.status, missing).toBe(404);
      }
    } finally {
      await mock.close();
    }
  });

  it('refuses a duplicate string key with its line, and without echoing it', async () => {
    const files = await write(
      specOf(),
      'parts:\n  - { code: secret-a, rank: 1, shelf: true }\n  - { code: secret-a, rank: 2, shelf: false }\n',
    );
    const refused = await startStockmock({ spec: files.spec, fixtures: files.fixture }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SourceError);
    const [issue] = (refused as SourceError).issues;
    expect(issue?.field).toBe('parts[1].code');
    expect(issue?.at?.line).toBe(3);
    expect(issue?.message).not.toContain('secret-a');
  });

  it.each([
    [{ key: 'shelf' }, 'x-stockmock-collections.parts.key', 'integer or string field'],
    [{ item: 'number' }, 'paths./parts/{code}.get.x-stockmock.item', 'must be of type string'],
    [
      { references: '{ code: bins }' },
      'x-stockmock-collections.parts.references.code',
      'names no declared collection (bins)',
    ],
    [
      { references: '{ rank: parts }' },
      'x-stockmock-collections.parts.references.rank',
      'must be of type string',
    ],
  ])('refuses %o at start, with file, line and field', async (extra, field, message) => {
    const files = await write(specOf(extra));
    const spec = await loadSpec(files.spec);
    let issues: SourceError['issues'] = [];
    try {
      readDeclarations(spec);
    } catch (error) {
      if (error instanceof SourceError) issues = error.issues;
    }
    const issue = issues.find((candidate) => candidate.field === field);
    expect(issue?.message).toContain(message);
    expect(issue?.at?.line).toBeGreaterThan(0);
  });
});
