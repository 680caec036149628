/**
 * `record --redact`: the named fields are replaced by values the generator makes for their
 * schema, the same for the same value within a recording (and across recordings only under the
 * same --redact-key), and the stand-in serves what was written.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { runMain } from '../../src/cli/main.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { redactorOf, RedactionRefused } from '../../src/record/redact.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { shippedSpecOnce } from '../helpers/shipped-spec.ts';

const BILLING = fileURLToPath(new URL('../../examples/billing/', import.meta.url));

async function productsCollection() {
  const declarations = readDeclarations(await shippedSpecOnce());
  const [collection] = declarations.collections.values();
  if (collection === undefined) throw new Error('the shipped spec declares no collection');
  return collection;
}

describe('redactorOf', () => {
  it('gives the same value the same replacement, and another key another one', async () => {
    const collection = await productsCollection();
    const redact = redactorOf(collection, ['name', 'quantity'], 'key one');
    const again = redactorOf(collection, ['name'], 'key one');
    const other = redactorOf(collection, ['name'], 'key two');
    if (redact === undefined || again === undefined || other === undefined) {
      throw new Error('a redactor was expected for fields the collection has');
    }
    const record = new Map<string, unknown>([
      ['id', 7],
      ['name', 'Oak table'],
      ['quantity', 12],
      ['category', 'tables'],
    ]);
    const first = redact(record);
    expect(first.get('id')).toBe(7);
    expect(first.get('category')).toBe('tables');
    expect(first.get('name')).not.toBe('Oak table');
    expect(typeof first.get('name')).toBe('string');
    expect(Number.isInteger(first.get('quantity'))).toBe(true);
    expect(first.get('quantity')).toBeGreaterThanOrEqual(0);
    expect(again(new Map([['name', 'Oak table']])).get('name')).toBe(first.get('name'));
    expect(redact(new Map([['name', 'Pine desk']])).get('name')).not.toBe(first.get('name'));
    // Under another key the same value maps elsewhere: a guess cannot be confirmed.
    const names = ['Oak table', 'Pine desk', 'Ash chair'];
    expect(names.map((name) => other(new Map([['name', name]])).get('name'))).not.toEqual(
      names.map((name) => again(new Map([['name', name]])).get('name')),
    );
  });

  it('keeps null and absent values, and shapes an undeclared value as it was', async () => {
    const collection = await productsCollection();
    const redact = redactorOf(collection, ['quantity', 'dimensions_cm', 'tags'], 'k');
    if (redact === undefined) throw new Error('a redactor was expected');
    const shown = redact(
      new Map<string, unknown>([
        ['quantity', null],
        ['dimensions_cm', { width: 120, depth: 80, note: 'x' }],
        ['tags', ['a', 'b', 'c']],
      ]),
    );
    expect(shown.get('quantity')).toBeNull();
    expect(shown.has('name')).toBe(false);
    const dimensions = shown.get('dimensions_cm') as Record<string, unknown>;
    expect(Object.keys(dimensions)).toEqual(['width', 'depth', 'note']);
    expect(Number.isInteger(dimensions['width'])).toBe(true);
    expect(typeof dimensions['note']).toBe('string');
    expect(shown.get('tags')).toHaveLength(3);
  });

  it('refuses the key, and names nothing for a collection the name is not of', async () => {
    const collection = await productsCollection();
    expect(() => redactorOf(collection, ['id'], 'k')).toThrow(RedactionRefused);
    expect(() => redactorOf(collection, ['products.id'], 'k')).toThrow(/key of products/);
    expect(redactorOf(collection, ['customers.name'], 'k')).toBeUndefined();
  });
});

describe('record --redact', () => {
  it('writes values the spec accepts, and the stand-in serves them', async () => {
    const original = await startStockmock({ config: join(BILLING, 'stockmock.config.yaml') });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'redact-'));
      const io = memoryIo(dir);
      const status = await runMain(
        [
          'record',
          original.url,
          '--spec',
          join(BILLING, 'openapi.yaml'),
          '--token',
          'support=support-demo-token',
          '--token',
          'partner=partner-demo-token',
          '--rate',
          '0',
          '--redact',
          'customers.name',
          '--redact',
          'email',
          '--out',
          'redacted.yaml',
        ],
        io,
      );
      expect(io.err).toMatch(/69 records/);
      expect(status).toBe(0);
      const text = await readFile(join(dir, 'redacted.yaml'), 'utf8');
      const source = await readFile(join(BILLING, 'billing.yaml'), 'utf8');
      const before = parse(source) as { customers: { name: string; email: string }[] };
      const after = parse(text) as { customers: { id: string; name: string; email: string }[] };
      expect(after.customers).toHaveLength(before.customers.length);
      for (const customer of before.customers) {
        expect(text).not.toContain(customer.email);
        expect(text).not.toContain(JSON.stringify(customer.name));
      }
      // Each redacted value still fits its field's schema in the spec.
      const spec = await loadSpec(join(BILLING, 'openapi.yaml'));
      const { customers } = (spec.dereferenced as unknown as Record<string, unknown>)[
        'x-stockmock-collections'
      ] as { customers: { record: object } };
      const ajv = new Ajv2020({ strict: false });
      addFormats.default(ajv);
      const valid = ajv.compile(customers.record);
      for (const customer of after.customers) expect(valid(customer), customer.id).toBe(true);
      // The stand-in serves the redacted records.
      const copy = await startStockmock({
        spec: join(BILLING, 'openapi.yaml'),
        fixtures: join(dir, 'redacted.yaml'),
        tokens: [{ token: 'support-demo-token', level: 'support' }],
      });
      try {
        const response = await fetch(`${copy.url}/v1/customers?limit=50`, {
          headers: { authorization: 'Bearer support-demo-token' },
        });
        const served = (await response.json()) as { email: string }[];
        expect(served.map((one) => one.email).sort()).toEqual(
          after.customers.map((one) => one.email).sort(),
        );
      } finally {
        await copy.close();
      }
    } finally {
      await original.close();
    }
  }, 60_000);

  it('refuses a name no record holds (a typo would share what it meant to hide)', async () => {
    const original = await startStockmock();
    try {
      const dir = await mkdtemp(join(tmpdir(), 'redact-'));
      const io = memoryIo(dir);
      const args = ['record', original.url, '--token', 'status=status-demo-token', '--rate', '0'];
      // `sku` is no declared field, but records hold it: it is redacted.
      expect(await runMain([...args, '--redact', 'sku', '--out', 'a.yaml'], io)).toBe(0);
      expect(await readFile(join(dir, 'a.yaml'), 'utf8')).not.toContain('SM-00003');
      const typo = memoryIo(dir);
      expect(await runMain([...args, '--redact', 'skuu', '--out', 'b.yaml'], typo)).toBe(2);
      expect(typo.err).toMatch(/--redact skuu: no record holds it/);
      await expect(readFile(join(dir, 'b.yaml'), 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await original.close();
    }
  }, 60_000);
});
