/**
 * Data for any declared collection (issue 38, item 5): records valid by their schema (judged
 * here by ajv, apart from the generator's own check), keys unique, references to existing keys,
 * the same records for the same seed; and a field that cannot be generated named with its line.
 * Then values that look like their field (issue 49, item 4): the spec's examples first, keys of
 * words named as their records are, a `name` a person's only where it is one.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Faker, base, en } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../src/cli/main.ts';
import { generateCollections } from '../../src/generate/generate-collections.ts';
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
    // A backreference: the generator reads no pattern that repeats what it matched.
    const dir = await specOfOneCollection('parts', [
      'required: [id, code]',
      'properties:',
      '  id: { type: integer }',
      "  code: { type: string, pattern: '^(AB|CD)-\\1$' }",
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
    // The items' pattern is one RE2 runs: one past its repeat limit of 1000 runs on the bounded
    // engine, a millisecond an item, and the record check's 20 ms bound refuses good items on a
    // busy machine (the pattern's own test is below).
    const dir = await specOfOneCollection('parts', [
      'required: [id, text, list]',
      'properties:',
      '  id: { type: integer }',
      '  text: { type: string, minLength: 65536 }',
      "  list: { type: array, minItems: 10000, items: { type: string, pattern: '^[a-z]{1,1000}$' } }",
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

/** Records of every collection that lines under `x-stockmock-collections:` declare. */
async function generated(
  collections: readonly string[],
  count: number,
  seed = 1,
): Promise<Record<string, Record<string, unknown>[]>> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-generate-'));
  const file = join(dir, 'openapi.yaml');
  await writeFile(
    file,
    [
      'openapi: 3.1.0',
      "info: { title: things, version: '1' }",
      'x-stockmock-collections:',
      ...collections.map((line) => `  ${line}`),
      'paths: {}',
      '',
    ].join('\n'),
  );
  const declared = [...readDeclarations(await loadSpec(file)).collections.values()];
  const result = generateCollections(declared, count, seed);
  if (!('records' in result)) throw new Error(JSON.stringify(result.issues));
  return Object.fromEntries(declared.map((c) => [c.name, [...result.records(c.name)]]));
}

/** `Casa da Música` as `casa-da-musica`, written here apart from the generator. */
const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => part !== '')
    .join('-');

describe('generated values (issue 49)', () => {
  const VENUES = [
    'venues:',
    '  key: slug',
    '  label: name',
    '  record:',
    '    type: object',
    '    required: [slug, name, genre, capacity, opened]',
    '    properties:',
    "      slug: { type: string, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 40 }",
    '      name: { type: string, examples: [Riverside Hall, Casa da Música, The Old Mill, Blue Room] }',
    '      genre: { type: string, example: jazz }',
    '      capacity: { type: integer, minimum: 1, examples: [120, 800, 0, 2500] }',
    "      opened: { type: string, format: date-time, examples: ['2019-05-01T10:00:00Z', '2021-02-01T00:00:00Z'] }",
  ];

  it("come from the spec's examples first, an example the schema refuses left out", async () => {
    const { venues = [] } = await generated(VENUES, 60);
    expect(new Set(venues.map((venue) => venue['genre']))).toStrictEqual(new Set(['jazz']));
    // 0 is below the minimum: not a value to serve.
    expect(new Set(venues.map((venue) => venue['capacity']))).toStrictEqual(
      new Set([120, 800, 2500]),
    );
    // Instants spread over the years the examples name, not the examples' two days.
    const years = venues.map((venue) => new Date(venue['opened'] as string).getUTCFullYear());
    expect(Math.min(...years)).toBeGreaterThanOrEqual(2019);
    expect(Math.max(...years)).toBeLessThanOrEqual(2021);
    expect(new Set(venues.map((venue) => venue['opened'])).size).toBe(60);
  });

  it("make keys of the label's examples, unique, each record named by its key's example", async () => {
    const { venues = [] } = await generated(VENUES, 10);
    const names = ['Riverside Hall', 'Casa da Música', 'The Old Mill', 'Blue Room'];
    const expected = Array.from({ length: 10 }, (_, i) => {
      const name = names[i % 4] ?? '';
      const round = Math.floor(i / 4);
      return { slug: round === 0 ? slug(name) : `${slug(name)}-${String(round + 1)}`, name };
    });
    expect(venues.map(({ slug: key, name }) => ({ slug: key, name }))).toStrictEqual(expected);
  });

  it("hold a person's name in a `name` only where the record is a person's", async () => {
    const { definitions } = new Faker({ locale: [en, base] });
    const first = new Set(definitions.person.first_name.generic);
    const last = new Set(definitions.person.last_name.generic);
    const isPerson = (text: unknown) => {
      const [given, family] = String(text).split(' ');
      return first.has(given ?? '') && last.has(family ?? '');
    };
    const named = (collection: string) => [
      `${collection}:`,
      '  key: id',
      '  record:',
      '    type: object',
      '    required: [id, name]',
      '    properties: { id: { type: integer }, name: { type: string } }',
    ];
    const data = await generated([...named('customers'), ...named('products')], 100);
    const people = (name: string) => (data[name] ?? []).filter((r) => isPerson(r['name'])).length;
    expect(people('customers')).toBe(100);
    expect(people('products')).toBeLessThan(10);
  });

  it('fit a pattern with a lookahead, each value judged by its matcher', async () => {
    const { codes = [] } = await generated(
      [
        'codes:',
        '  key: id',
        '  record:',
        '    type: object',
        '    required: [id, code]',
        "    properties: { id: { type: integer }, code: { type: string, pattern: '^(?![aeiou])[a-z]{4}$' } }",
      ],
      // Few: a pattern RE2 cannot run costs about a millisecond a value.
      300,
    );
    const judge = /^(?![aeiou])[a-z]{4}$/u;
    expect(codes.filter((record) => !judge.test(record['code'] as string))).toStrictEqual([]);
  });
});

describe('fixtures generate --spec, for collections that refer to others', () => {
  const events = fileURLToPath(new URL('../../examples/events/openapi.yaml', import.meta.url));

  it('generates what a named collection references too, and says so in one line', async () => {
    const io = memoryIo();
    const argv = ['fixtures', 'generate', '--spec', events, '--collection', 'tickets'];
    expect(await runMain([...argv, '--count', '12'], io)).toBe(0);
    expect(io.err).toBe(
      'fixtures generate: also generating events, venues, which it references: the file then serves\n',
    );
    expect([...io.out.matchAll(/^(\w+):$/gm)].map((match) => match[1])).toStrictEqual([
      'tickets',
      'events',
      'venues',
    ]);
  });

  it('takes a count for each collection, and the plain one for the others', async () => {
    const io = memoryIo();
    const argv = ['fixtures', 'generate', '--spec', events, '--count', '3'];
    expect(await runMain([...argv, '--count', 'tickets=25'], io)).toBe(0);
    const lines = (name: string) =>
      io.out.split(/^\w+:$/m)[['venues', 'events', 'tickets'].indexOf(name) + 1]?.match(/^ {2}- /gm)
        ?.length;
    expect([lines('venues'), lines('events'), lines('tickets')]).toStrictEqual([3, 3, 25]);
  });

  it.each([
    [['--count', 'tickets=5'], 'fixtures generate: --count N is required (or --count venues=N'],
    [['--count', '5', '--count', 'seats=5'], '--count seats=… names no collection generated here'],
    [['--count', 'tickets=x'], '--count must be a whole number N or NAME=N, not "tickets=x"'],
  ])('refuses %j with exit 2', async (flags, message) => {
    const io = memoryIo();
    expect(await runMain(['fixtures', 'generate', '--spec', events, ...flags], io)).toBe(2);
    expect(io.err).toContain(message);
  });
});
