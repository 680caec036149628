/**
 * A generated file always serves with the spec it was made for (issue 49, item 4). For the
 * events example and for specs written here with the usual key patterns (slugs, prefixed codes,
 * versions, UUIDs), for several seeds: `fixtures generate --spec` writes a file whose every key
 * matches its pattern (judged by the JavaScript engine's RegExp from the pattern as the spec
 * writes it, not by the generator), whose keys are unique and whose references name records that
 * exist; then a stockmock started on it answers every list, nested lists too, with 200 and what
 * the file holds, as the spec describes.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { runMain } from '../../src/cli/main.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { recordResponse, validatorFor } from '../helpers/expect-spec.ts';
import { memoryIo } from '../helpers/memory-io.ts';

type Data = Record<string, Record<string, unknown>[]>;
type Schema = OpenAPIV3_1.SchemaObject;

const SEEDS = [1, 49, 2024];
const events = fileURLToPath(new URL('../../examples/events/', import.meta.url));

/** Generates data for a spec with `fixtures generate`, into a file of a folder of its own. */
async function generate(
  spec: string,
  args: readonly string[],
): Promise<{ out: string; data: Data }> {
  const out = join(await mkdtemp(join(tmpdir(), 'stockmock-generated-')), 'data.yaml');
  const io = memoryIo();
  const code = await runMain(['fixtures', 'generate', '--spec', spec, '--out', out, ...args], io);
  expect(code, io.err).toBe(0);
  return { out, data: parse(await readFile(out, 'utf8')) as Data };
}

/**
 * Holds the data to the spec's own declarations, read here from the loaded document: each
 * key unique and matching its pattern, each reference a key of the collection it names.
 */
function expectKeysAndReferences(spec: LoadedSpec, data: Data): void {
  const declared = (spec.document as Record<string, unknown>)['x-stockmock-collections'] as Record<
    string,
    { key: string; references?: Record<string, string>; record: Schema }
  >;
  for (const [name, { key, references = {}, record }] of Object.entries(declared)) {
    const records = data[name] ?? [];
    const keys = records.map((item) => item[key]);
    expect(new Set(keys).size, `${name}: unique keys`).toBe(records.length);
    const pattern = (record.properties?.[key] as Schema | undefined)?.pattern;
    if (pattern !== undefined) {
      const judge = new RegExp(pattern, 'u');
      expect(
        keys.filter((value) => !judge.test(String(value))),
        `${name}.${key} ~ ${pattern}`,
      ).toEqual([]);
    }
    for (const [field, target] of Object.entries(references)) {
      const targetKey = declared[target]?.key ?? '';
      const existing = new Set((data[target] ?? []).map((item) => item[targetKey]));
      const dangling = records.filter((item) => field in item && !existing.has(item[field]));
      expect(dangling, `${name}.${field} → ${target}`).toEqual([]);
    }
  }
}

/** GETs a path of a running stockmock, judges the answer by the spec, and returns its body. */
async function get(spec: LoadedSpec, url: string, path: string, token?: string): Promise<unknown> {
  const headers: Record<string, string> =
    token === undefined ? {} : { authorization: `Bearer ${token}` };
  const response = await recordResponse(await fetch(`${url}${path}`, { headers }));
  expect(response.status, `GET ${path}`).toBe(200);
  const findings = (await validatorFor(spec)).validate('GET', path.split('?')[0] ?? path, response);
  expect(findings, `GET ${path} as the spec describes`).toEqual([]);
  return response.body;
}

describe('data generated for examples/events', () => {
  it.each(SEEDS)('seed %i: fits the spec, and every list serves it', async (seed) => {
    const spec = await loadSpec(join(events, 'openapi.yaml'));
    const { out, data } = await generate(join(events, 'openapi.yaml'), [
      '--count',
      '30',
      '--count',
      'tickets=120',
      '--seed',
      String(seed),
    ]);
    expectKeysAndReferences(spec, data);
    const venues = data['venues'] ?? [];
    // Slugs of words: each venue's slug is its name's, written as a slug, a number after it.
    for (const venue of venues) {
      const name = String(venue['name']).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      const words = name.split(/[^a-z0-9]+/).filter((word) => word !== '');
      expect(String(venue['slug'])).toMatch(new RegExp(`^${words.join('-')}(-\\d+)?$`));
    }
    const mock = await startStockmock({
      config: join(events, 'stockmock.config.yaml'),
      fixtures: out,
    });
    try {
      const token = 'organizer-demo-token';
      expect(await get(spec, mock.url, '/v1/venues', token)).toHaveLength(venues.length);
      const page = (await get(spec, mock.url, '/v1/events?pageSize=100', token)) as {
        total: number;
      };
      expect(page.total).toBe(data['events']?.length);
      for (const event of (data['events'] ?? []).slice(0, 8)) {
        const id = String(event['id']);
        const tickets = (data['tickets'] ?? []).filter((ticket) => ticket['eventId'] === id);
        const list = (await get(spec, mock.url, `/v1/events/${id}/tickets?limit=50`, token)) as {
          data: unknown[];
        };
        expect(list.data).toHaveLength(tickets.length);
        await get(spec, mock.url, `/v1/events/${id}`, token);
        await get(spec, mock.url, `/v1/venues/${String(event['venueSlug'])}`, token);
      }
    } finally {
      await mock.close();
    }
  });
});

/** A list operation of a collection, optionally under a parent's path, answered as `{data}`. */
function list(path: string, collection: string, parent?: string): string[] {
  return [
    `  ${path}:`,
    '    get:',
    `      x-stockmock: { collection: ${collection} }`,
    '      parameters:',
    ...(parent === undefined
      ? []
      : [`        - { name: ${parent}, in: path, required: true, schema: { type: string } }`]),
    '        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 100 } }',
    '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
    '      responses:',
    "        '200':",
    '          description: a page',
    '          content:',
    '            application/json:',
    '              schema: { type: object, required: [data], properties: { data: { type: array } } }',
  ];
}

/** Keys of the usual patterns, and collections that refer to one another, nested lists too. */
const SPEC = [
  'openapi: 3.1.0',
  "info: { title: packages, version: '1' }",
  'security: []',
  'x-stockmock-collections:',
  '  packages:',
  '    key: name',
  '    record:',
  '      type: object',
  '      required: [name, homepage]',
  '      properties:',
  "        name: { type: string, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 40 }",
  '        homepage: { type: string, format: uri }',
  '  releases:',
  '    key: version',
  '    references: { package: packages }',
  '    record:',
  '      type: object',
  '      required: [version, package, published]',
  '      properties:',
  "        version: { type: string, pattern: '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[a-z]+\\.\\d+)?$' }",
  '        package: { type: string }',
  "        published: { type: string, pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$' }",
  '        channel: { type: string, enum: [stable, beta] }',
  '  customers:',
  '    key: id',
  '    label: name',
  '    record:',
  '      type: object',
  '      required: [id, name]',
  '      properties:',
  "        id: { type: string, pattern: '^cus_[A-Za-z0-9]{8}$' }",
  '        name: { type: string }',
  '  invoices:',
  '    key: id',
  '    references: { customer: customers }',
  '    record:',
  '      type: object',
  '      required: [id, customer, total]',
  '      properties:',
  "        id: { type: string, pattern: '^inv_[a-z0-9]{6}$' }",
  '        customer: { type: string }',
  '        total: { type: number, minimum: 0, maximum: 5000 }',
  '  stores:',
  '    key: code',
  '    label: name',
  '    record:',
  '      type: object',
  '      required: [code, name]',
  '      properties:',
  "        code: { type: string, pattern: '^[a-z0-9-]{3,40}$' }",
  '        name: { type: string, examples: [Riverside Books, Harbour Records] }',
  '  devices:',
  '    key: id',
  '    references: { store: stores }',
  '    record:',
  '      type: object',
  '      required: [id, store]',
  '      properties:',
  '        id: { type: string, format: uuid }',
  '        store: { type: string }',
  'paths:',
  ...list('/packages', 'packages'),
  ...list('/packages/{package}/releases', 'releases', 'package'),
  ...list('/customers', 'customers'),
  ...list('/invoices', 'invoices'),
  ...list('/stores', 'stores'),
  ...list('/stores/{store}/devices', 'devices', 'store'),
  '',
].join('\n');

describe('data generated for a spec of the usual key patterns', () => {
  it.each(SEEDS)('seed %i: fits the spec, and every list serves it', async (seed) => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-patterns-'));
    const file = join(dir, 'openapi.yaml');
    await writeFile(file, SPEC);
    const spec = await loadSpec(file);
    const { out, data } = await generate(file, ['--count', '40', '--seed', String(seed)]);
    expectKeysAndReferences(spec, data);
    // A UUID key is a version 4 UUID.
    for (const device of data['devices'] ?? []) {
      expect(device['id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    const mock = await startStockmock({ spec: file, fixtures: out });
    try {
      for (const name of ['packages', 'customers', 'invoices', 'stores']) {
        const body = (await get(spec, mock.url, `/${name}`)) as { data: unknown[] };
        expect(body.data, name).toHaveLength(40);
      }
      for (const [parents, key, children, field] of [
        ['packages', 'name', 'releases', 'package'],
        ['stores', 'code', 'devices', 'store'],
      ] as const) {
        for (const parent of (data[parents] ?? []).slice(0, 5)) {
          const id = String(parent[key]);
          const expected = (data[children] ?? []).filter((child) => child[field] === id);
          const body = (await get(spec, mock.url, `/${parents}/${id}/${children}`)) as {
            data: unknown[];
          };
          expect(body.data, `${parents}/${id}/${children}`).toHaveLength(expected.length);
        }
      }
    } finally {
      await mock.close();
    }
  });
});
