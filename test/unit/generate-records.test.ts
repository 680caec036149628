/**
 * Data for any declared collection (issue 38, item 5): records valid by their schema (judged
 * here by ajv, apart from the generator's own check), keys unique, references to existing keys,
 * the same records for the same seed; and a field that cannot be generated named with its line.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../src/cli/main.ts';
import { generateCollections } from '../../src/generate/generate-collections.ts';
import { simplePattern } from '../../src/generate/simple-pattern.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { memoryIo } from '../helpers/memory-io.ts';

const billing = fileURLToPath(new URL('../../examples/billing/openapi.yaml', import.meta.url));

/**
 * A folder holding openapi.yaml that declares one collection keyed by `id`, its record schema
 * given by lines under `record:` after `type: object`, from line 8 of the file.
 */
async function specOfOneCollection(name: string, record: readonly string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-generate-'));
  await writeFile(
    join(dir, 'openapi.yaml'),
    [
      'openapi: 3.1.0',
      `info: { title: ${name}, version: '1' }`,
      'x-stockmock-collections:',
      `  ${name}:`,
      '    key: id',
      '    record:',
      '      type: object',
      ...record.map((line) => `      ${line}`),
      'paths: {}',
      '',
    ].join('\n'),
  );
  return dir;
}

describe('simplePattern', () => {
  it.each([
    '^inv_[0-9a-z]{6}$',
    '^[A-Z]{2}[0-9A-Z]{8,12}$',
    '^\\d{3}-\\d{2,4}$',
    '^[a-f0-9]+$',
    'ab?c*\\.\\w{2}',
    '^[-_a-z]{1,3}$',
  ])('reads %s, and text made from it matches it', (pattern) => {
    const atoms = simplePattern(pattern);
    expect(atoms).toBeDefined();
    const regex = new RegExp(pattern, 'u');
    for (let seed = 0; seed < 50; seed++) {
      const text = (atoms ?? [])
        .map((atom) =>
          (atom.characters[seed % atom.characters.length] ?? '').repeat(
            atom.min + (seed % (atom.max - atom.min + 1)),
          ),
        )
        .join('');
      expect(regex.test(text), `${pattern} ~ ${text}`).toBe(true);
    }
  });

  it.each(['^(a|b)$', '^[^a]$', '^\\s+$', '^a{2,1}$', '(?=x)'])('does not read %s', (pattern) => {
    expect(simplePattern(pattern)).toBeUndefined();
  });
});

describe('generated records', () => {
  it('are valid by their schemas, keyed uniquely, referring to existing keys, the same for a seed', async () => {
    const declarations = readDeclarations(await loadSpec(billing));
    const collections = [...declarations.collections.values()];
    const make = (seed: number) => {
      const result = generateCollections(collections, 400, seed);
      if (!('records' in result)) throw new Error(JSON.stringify(result.issues));
      return Object.fromEntries(collections.map((c) => [c.name, [...result.records(c.name)]]));
    };
    const data = make(3);
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    for (const collection of collections) {
      const validate = ajv.compile(collection.record);
      const records = data[collection.name] ?? [];
      expect(records).toHaveLength(400);
      for (const record of records)
        expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
      expect(new Set(records.map((record) => record[collection.key])).size).toBe(400);
    }
    const customers = new Set((data['customers'] ?? []).map((customer) => customer['id']));
    expect((data['invoices'] ?? []).every((invoice) => customers.has(invoice['customer_id']))).toBe(
      true,
    );
    expect(make(3)).toStrictEqual(data);
    expect(make(4)).not.toStrictEqual(data);
  });

  it('hold numbers that are multiples of their step, written with its decimals, and real dates', async () => {
    // Each step and its bound (written 1e-7, the smallest one's quotients stay small).
    const steps = [0.25, 0.05, 0.1, 1e-7, 3, 0.001];
    const decimals = [2, 2, 1, 7, 0, 3];
    const bound = (step: number) => (step < 1e-6 ? 0.001 : 50);
    const dir = await specOfOneCollection('readings', [
      `required: [id, on, at, amount, ${steps.map((_, n) => `s${String(n)}`).join(', ')}]`,
      'properties:',
      '  id: { type: integer }',
      '  on: { type: string, format: date }',
      '  at: { type: string, format: date-time }',
      '  amount: { type: number }',
      ...steps.map(
        (step, n) =>
          `  s${String(n)}: { type: number, minimum: -${String(bound(step))}, maximum: ${String(bound(step))}, multipleOf: ${String(step)} }`,
      ),
    ]);
    const declarations = readDeclarations(await loadSpec(join(dir, 'openapi.yaml')));
    const result = generateCollections([...declarations.collections.values()], 2000, 9);
    if (!('records' in result)) throw new Error(JSON.stringify(result.issues));
    const records = [...result.records('readings')];
    // Spread over their range, not stuck on one multiple.
    steps.forEach((_, n) => {
      expect(new Set(records.map((record) => record[`s${String(n)}`])).size).toBeGreaterThan(10);
    });
    for (const record of records) {
      steps.forEach((step, n) => {
        const value = record[`s${String(n)}`] as number;
        expect(Math.abs(value)).toBeLessThanOrEqual(bound(step));
        expect(
          Math.abs(value / step - Math.round(value / step)),
          `${String(value)} / ${String(step)}`,
        ).toBeLessThan(1e-9);
        // Written as the decimal it is: 0.3, never 0.30000000000000004.
        expect(value).toBe(Number(value.toFixed(decimals[n])));
      });
      // Amounts: a hundredth at most.
      const amount = record['amount'] as number;
      expect(amount).toBe(Number(amount.toFixed(2)));
      const on = record['on'] as string;
      expect(on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(new Date(`${on}T00:00:00Z`).toISOString().slice(0, 10)).toBe(on);
      const at = record['at'] as string;
      expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(new Date(at).toISOString().replace('.000Z', 'Z')).toBe(at);
    }
  });

  it('are refused, naming the field and its line, where a pattern is beyond the generator', async () => {
    const dir = await specOfOneCollection('parts', [
      'required: [id, code]',
      'properties:',
      '  id: { type: integer }',
      "  code: { type: string, pattern: '^(AB|CD)-\\d+$' }",
    ]);
    const io = memoryIo(dir);
    const code = await runMain(
      ['fixtures', 'generate', '--spec', 'openapi.yaml', '--count', '5'],
      io,
    );
    expect(code).not.toBe(0);
    expect(io.err).toMatch(
      /openapi\.yaml:11:\d+ x-stockmock-collections\.parts\.record\.properties\.code: .*pattern/,
    );
    expect(io.out).toBe('');
  });

  // Another team's spec may ask for values no generator should try to make: each is refused at
  // once, with its line, where it took gigabytes or crashed (`Invalid array length`).
  it.each([
    ["  huge: { type: string, pattern: '^[a-z]{1000000000}$' }", 'smallest value is over 1048576'],
    ['  huge: { type: string, minLength: 400000000 }', 'smallest value is over 1048576'],
    [
      '  huge: { type: array, minItems: 200000000, items: { type: integer } }',
      'smallest value is over',
    ],
    [
      '  huge: { type: array, minItems: 20000, items: { type: boolean } }',
      'minItems 20000 is more than the 10000',
    ],
    [
      '  huge: { type: array, minItems: 1000, items: { type: array, minItems: 1000, items: { type: array, minItems: 1000 } } }',
      'smallest value is over',
    ],
    ['  huge: { type: string, minLength: 70000 }', 'minLength 70000 is more than the 65536'],
  ])('are refused at once, with the field and its line, for %s', async (line, message) => {
    const dir = await specOfOneCollection('parts', [
      'required: [id, huge]',
      'properties:',
      '  id: { type: integer }',
      line,
    ]);
    const io = memoryIo(dir);
    const code = await runMain(
      ['fixtures', 'generate', '--spec', 'openapi.yaml', '--count', '1'],
      io,
    );
    expect(code).not.toBe(0);
    expect(io.err).toMatch(
      /openapi\.yaml:11:\d+ x-stockmock-collections\.parts\.record\.properties\.huge: /,
    );
    expect(io.err).toContain(message);
  });

  it('make the longest text and the largest array within the limits', async () => {
    const dir = await specOfOneCollection('parts', [
      'required: [id, text, list]',
      'properties:',
      '  id: { type: integer }',
      '  text: { type: string, minLength: 65536 }',
      "  list: { type: array, minItems: 10000, items: { type: string, pattern: '^[a-z]{1,1000000000}$' } }",
    ]);
    const io = memoryIo(dir);
    const code = await runMain(
      ['fixtures', 'generate', '--spec', 'openapi.yaml', '--count', '1'],
      io,
    );
    expect(io.err).toBe('');
    expect(code).toBe(0);
    const record = JSON.parse(/\{.*\}/.exec(io.out)?.[0] ?? '{}') as {
      text: string;
      list: string[];
    };
    expect(Array.from(record.text).length).toBeGreaterThanOrEqual(65536);
    expect(record.list).toHaveLength(10000);
    expect(record.list.every((text) => /^[a-z]+$/.test(text))).toBe(true);
  });
});
