/**
 * The list and item envelopes (issue 38, item 3): an answer takes the shape the declaration
 * places its parts in; a declaration that the operation's response schema contradicts is refused
 * at start with file, line and field. Expected answers are built here from the fixture.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/problems/source-error.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { serveList } from '../helpers/serve-list.ts';

const NAMES = ['ash', 'birch', 'cedar', 'elm', 'fir', 'oak'];
const FIXTURE = `trees:\n${NAMES.map((name, i) => `  - { id: ${String(i + 1)}, name: ${name} }`).join('\n')}\n`;

/** A spec whose list and item declare these envelopes and answer with these schemas. */
function specWith(
  list: { envelope?: string; schema: string },
  item?: { envelope?: string; schema: string },
) {
  const envelope = (text: string | undefined) => (text === undefined ? '' : `, envelope: ${text}`);
  return [
    'openapi: 3.1.0',
    "info: { title: envelopes, version: '1' }",
    'x-stockmock-collections:',
    '  trees:',
    '    key: id',
    '    record: { type: object, required: [id, name], properties: { id: { type: integer }, name: { type: string } } }',
    'paths:',
    '  /trees:',
    '    get:',
    '      security: []',
    `      x-stockmock: { collection: trees${envelope(list.envelope)} }`,
    '      parameters:',
    '        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 2 } }',
    '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
    '      responses:',
    "        '200':",
    '          description: a page',
    '          content:',
    '            application/json:',
    `              schema: ${list.schema}`,
    ...(item === undefined
      ? []
      : [
          '  /trees/{id}:',
          '    get:',
          '      security: []',
          `      x-stockmock: { collection: trees, item: id${envelope(item.envelope)} }`,
          '      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]',
          '      responses:',
          "        '200':",
          '          description: one',
          '          content:',
          '            application/json:',
          `              schema: ${item.schema}`,
        ]),
    '',
  ];
}

async function refusals(spec: readonly string[]): Promise<SourceError['issues']> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-envelope-'));
  await writeFile(join(dir, 'openapi.yaml'), spec.join('\n'));
  try {
    readDeclarations(await loadSpec(join(dir, 'openapi.yaml')));
    return [];
  } catch (error) {
    if (error instanceof SourceError) return error.issues;
    throw error;
  }
}

const PAGE_SCHEMA =
  '{ type: object, required: [items, meta], properties: { items: { type: array }, meta: { type: object, required: [total, page], properties: { total: { type: integer }, page: { type: integer }, pages: { type: integer } } }, links: { type: object } } }';

describe('a declared list envelope', () => {
  it('places each part where it says, in the order written', async () => {
    const mock = await serveList(
      'trees',
      FIXTURE,
      specWith(
        {
          envelope:
            '{ items: items, meta: x, total: meta.total, page: meta.page, pages: meta.pages, limit: size }',
          schema: '{ type: object }',
        },
        { envelope: '{ item: tree.record }', schema: '{ type: object }' },
      ),
    ).catch((error: unknown) => error);
    // `meta: x` is no part of an envelope: refused by the keyword's own schema.
    expect(mock).toBeInstanceOf(SourceError);

    const served = await serveList(
      'trees',
      FIXTURE,
      specWith(
        {
          envelope:
            '{ items: items, total: meta.total, page: meta.page, pages: meta.pages, limit: size }',
          schema: PAGE_SCHEMA,
        },
        { envelope: '{ item: tree.record }', schema: '{ type: object }' },
      ),
    );
    try {
      const text = await (await fetch(`${served.url}/trees?page=2`)).text();
      const expected = {
        items: NAMES.slice(2, 4).map((name, i) => ({ id: i + 3, name })),
        meta: { total: NAMES.length, page: 2, pages: Math.ceil(NAMES.length / 2) },
        size: 2,
      };
      expect(text).toBe(JSON.stringify(expected));
      const item = await (await fetch(`${served.url}/trees/4`)).json();
      expect(item).toStrictEqual({ tree: { record: { id: 4, name: NAMES[3] } } });
    } finally {
      await served.close();
    }
  });

  it('`none`: a bare array, the links in an RFC 8288 Link header, the item itself', async () => {
    const served = await serveList(
      'trees',
      FIXTURE,
      specWith(
        { envelope: 'none', schema: '{ type: array }' },
        { envelope: 'none', schema: '{ type: object }' },
      ),
    );
    try {
      const pages = Math.ceil(NAMES.length / 2);
      const at = (page: number) => `${served.url}/trees?limit=2&page=${String(page)}`;
      for (let page = 1; page <= pages; page++) {
        const response = await fetch(at(page));
        expect(await response.json()).toStrictEqual(
          NAMES.slice((page - 1) * 2, page * 2).map((name, i) => ({
            id: (page - 1) * 2 + i + 1,
            name,
          })),
        );
        const links = new Map(
          (response.headers.get('link') ?? '').split(', ').map((link) => {
            const [, url, rel] = /^<([^>]*)>; rel="(\w+)"$/.exec(link) ?? [];
            return [rel, url];
          }),
        );
        expect(Object.fromEntries(links)).toStrictEqual({
          first: at(1),
          last: at(pages),
          ...(page > 1 ? { prev: at(page - 1) } : {}),
          ...(page < pages ? { next: at(page + 1) } : {}),
        });
      }
      expect(await (await fetch(`${served.url}/trees/6`)).json()).toStrictEqual({
        id: 6,
        name: 'oak',
      });
    } finally {
      await served.close();
    }
  });
});

describe('an envelope the response schema contradicts is refused at start', () => {
  const LIST = 'paths./trees.get.x-stockmock.envelope';
  const ITEM = 'paths./trees/{id}.get.x-stockmock.envelope';
  it.each([
    [
      'items where the schema has an object',
      {
        envelope: '{ items: items }',
        schema: '{ type: object, properties: { items: { type: object } } }',
      },
      `${LIST}.items`,
      "the response schema's items is not an array",
    ],
    [
      'a member the schema requires, unfilled',
      { envelope: '{ items: items }', schema: '{ type: object, required: [items, links] }' },
      LIST,
      'requires links, which the envelope does not fill',
    ],
    [
      'a nested required member, unfilled',
      { envelope: '{ items: items, total: meta.total }', schema: PAGE_SCHEMA },
      LIST,
      'requires meta.page',
    ],
    [
      'a member a closed schema does not have',
      {
        envelope: '{ items: items, total: count }',
        schema:
          '{ type: object, additionalProperties: false, properties: { items: { type: array } } }',
      },
      `${LIST}.total`,
      'has no member count',
    ],
    [
      'a total where the schema has text',
      {
        envelope: '{ items: items, total: total }',
        schema: '{ type: object, properties: { total: { type: string } } }',
      },
      `${LIST}.total`,
      'is not a number',
    ],
    [
      'links the schema requires more of',
      {
        envelope: '{ items: items, links: links }',
        schema: '{ type: object, properties: { links: { type: object, required: [self, next] } } }',
      },
      `${LIST}.links`,
      'requires self',
    ],
    [
      'none, where the schema is an object',
      { envelope: 'none', schema: '{ type: object }' },
      LIST,
      'not an array',
    ],
    [
      'the default {data, links}, where the schema says otherwise',
      { schema: '{ type: object, required: [items, total] }' },
      LIST,
      'declare `envelope`',
    ],
    [
      'a member path with an empty member',
      { envelope: '{ items: a..b }', schema: '{ type: object }' },
      `${LIST}.items`,
      'not a member path',
    ],
    [
      'two parts in one place',
      { envelope: '{ items: meta, total: meta.total }', schema: '{ type: object }' },
      `${LIST}.total`,
      'overlaps',
    ],
    [
      'a list envelope without items',
      { envelope: '{ total: total }', schema: '{ type: object }' },
      LIST,
      'needs `items`',
    ],
  ])('%s', async (_title, list, field, message) => {
    const issues = await refusals(specWith(list));
    const issue = issues.find((candidate) => candidate.field === field);
    expect(issue?.message, JSON.stringify(issues)).toContain(message);
    expect(issue?.at?.line).toBeGreaterThan(1);
  });

  it.each([
    [
      'none, where the item schema is an array',
      { envelope: 'none', schema: '{ type: array }' },
      'not an object',
    ],
    [
      'an item placed where the schema has an array',
      {
        envelope: '{ item: data }',
        schema: '{ type: object, properties: { data: { type: array } } }',
      },
      'is not an object',
    ],
    [
      'a list part in an item envelope',
      { envelope: '{ item: data, total: total }', schema: '{ type: object }' },
      'places `item` only',
    ],
  ])('%s', async (_title, item, message) => {
    const issues = await refusals(specWith({ schema: '{ type: object }' }, item));
    expect(
      issues.some((issue) => issue.field.startsWith(ITEM) && issue.message.includes(message)),
      JSON.stringify(issues),
    ).toBe(true);
  });
});
