/**
 * A declared list is paged by the spec's own parameters (issue 49, item 1 and 2): a page number
 * and a size under any of the usual names, pages counted from 0 or 1, an offset, a size alone,
 * and none (the whole list). For each style a seeded generator picks collections, filters and
 * requests; the expected page is worked out here from the fixture, and walking `next` from the
 * first page must give every matching item once, in order.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import type { SourceIssue } from '../../src/problems/source-error.ts';
import { declarationIssues } from '../helpers/declaration-issues.ts';
import { seededRandom } from '../../src/util/seeded-random.ts';

interface Style {
  readonly name: string;
  /** Query parameter lines of the spec, beside the filter's. */
  readonly parameters: readonly string[];
  /** The `paging` declaration, if the names alone do not say. */
  readonly paging?: string;
  /** The query that asks for a page, by its index from 0 and its size. */
  readonly ask: ((index: number, size: number) => string) | undefined;
  /** The size a request that names none gets; undefined: the whole list. */
  readonly defaultSize: number | undefined;
  /** Whether a request can name its size. */
  readonly sized: boolean;
}

const integer = (name: string, schema: string) =>
  `        - { name: '${name}', in: query, schema: { type: integer${schema} } }`;

const STYLES: readonly Style[] = [
  {
    name: 'page and pageSize (Google)',
    parameters: [
      integer('page', ', minimum: 1'),
      integer('pageSize', ', minimum: 1, maximum: 50, default: 7'),
    ],
    ask: (index, size) => `page=${String(index + 1)}&pageSize=${String(size)}`,
    defaultSize: 7,
    sized: true,
  },
  {
    name: 'page from 0 and size (Spring)',
    parameters: [
      integer('page', ', minimum: 0, default: 0'),
      integer('size', ', minimum: 1, default: 5'),
    ],
    ask: (index, size) => `page=${String(index)}&size=${String(size)}`,
    defaultSize: 5,
    sized: true,
  },
  {
    name: 'page[number] and page[size] (JSON:API)',
    parameters: [
      integer('page[number]', ', minimum: 1'),
      integer('page[size]', ', minimum: 1, maximum: 30'),
    ],
    ask: (index, size) => `page%5Bnumber%5D=${String(index + 1)}&page%5Bsize%5D=${String(size)}`,
    // No default: 20, within the maximum.
    defaultSize: 20,
    sized: true,
  },
  {
    name: 'offset and limit',
    parameters: [integer('offset', ', minimum: 0'), integer('limit', ', minimum: 1, default: 6')],
    ask: (index, size) => `offset=${String(index * size)}&limit=${String(size)}`,
    defaultSize: 6,
    sized: true,
  },
  {
    name: 'p and count, named in paging',
    parameters: [integer('p', ', minimum: 1'), integer('count', ', minimum: 1, default: 4')],
    paging: '{ page: p, size: count }',
    ask: (index, size) => `p=${String(index + 1)}&count=${String(size)}`,
    defaultSize: 4,
    sized: true,
  },
  {
    name: 'no paging parameter: the whole list',
    parameters: [],
    ask: undefined,
    defaultSize: undefined,
    sized: false,
  },
];

interface Item {
  readonly id: number;
  readonly colour: string;
}

const COLOURS = ['red', 'green', 'blue'];

function specOf(style: Style): string {
  return [
    'openapi: 3.1.0',
    "info: { title: paging, version: '1' }",
    'x-stockmock-collections:',
    '  items:',
    '    key: id',
    '    record:',
    '      type: object',
    '      required: [id, colour]',
    '      properties:',
    '        id: { type: integer, minimum: 1 }',
    '        colour: { type: string }',
    'paths:',
    '  /items:',
    '    get:',
    '      operationId: listItems',
    '      security: []',
    '      x-stockmock:',
    '        collection: items',
    '        filters: { colour: { field: colour, match: exact } }',
    '        envelope: { items: data, total: meta.total, links: links }',
    ...(style.paging === undefined ? [] : [`        paging: ${style.paging}`]),
    '      parameters:',
    '        - { name: colour, in: query, schema: { type: string } }',
    ...style.parameters,
    '      responses:',
    "        '200': { description: a page }",
    '',
  ].join('\n');
}

interface Answer {
  readonly data: Item[];
  readonly meta: { readonly total: number };
  readonly links: {
    readonly next: string | null;
    readonly prev: string | null;
    readonly first: string;
  };
}

async function get(url: string): Promise<Answer> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return (await response.json()) as Answer;
}

for (const [styleIndex, style] of STYLES.entries()) {
  describe(style.name, () => {
    const random = seededRandom(4_900 + styleIndex);
    const items: Item[] = Array.from({ length: 1 + Math.floor(random() * 45) }, (_, i) => ({
      id: i * 3 + 1 + Math.floor(random() * 3),
      colour: COLOURS[Math.floor(random() * COLOURS.length)] as string,
    }));
    let url = '';
    let close: () => Promise<void> = () => Promise.resolve();
    beforeAll(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'stockmock-paging-'));
      await writeFile(
        join(dir, 'items.yaml'),
        `items:\n${items.map((item) => `  - { id: ${String(item.id)}, colour: ${item.colour} }`).join('\n')}\n`,
      );
      await writeFile(join(dir, 'openapi.yaml'), specOf(style));
      const mock = await startStockmock({
        spec: join(dir, 'openapi.yaml'),
        fixtures: join(dir, 'items.yaml'),
      });
      url = `${mock.url}/items`;
      close = () => mock.close();
    });
    afterAll(() => close());

    it('answers each generated request with the page worked out from the fixture', async () => {
      for (let request = 0; request < 12; request++) {
        const colour = random() < 0.5 ? undefined : (COLOURS[Math.floor(random() * 3)] as string);
        const kept = items.filter((item) => colour === undefined || item.colour === colour);
        const size = style.sized ? 1 + Math.floor(random() * 9) : undefined;
        const pages = size === undefined ? 1 : Math.max(1, Math.ceil(kept.length / size));
        const index = Math.floor(random() * (pages + 1));
        const query = [
          colour === undefined ? '' : `colour=${colour}`,
          style.ask === undefined || size === undefined ? '' : style.ask(index, size),
        ].filter((part) => part !== '');
        const answer = await get(`${url}?${query.join('&')}`);
        const expected = size === undefined ? kept : kept.slice(index * size, (index + 1) * size);
        expect(answer.data, query.join('&')).toEqual(expected);
        expect(answer.meta.total).toBe(kept.length);
        expect(answer.links.next === null, query.join('&')).toBe(
          size === undefined || (index + 1) * size >= kept.length,
        );
        expect(answer.links.prev === null, query.join('&')).toBe(size === undefined || index === 0);
      }
    });

    it('gives the default page without paging parameters, and its next links give every item once', async () => {
      const first = await get(url);
      const size = style.defaultSize ?? items.length;
      expect(first.data).toEqual(items.slice(0, size));
      const walked: Item[] = [];
      let next: string | null = first.links.first;
      for (let step = 0; next !== null && step <= items.length; step++) {
        const page: Answer = await get(next);
        walked.push(...page.data);
        next = page.links.next;
      }
      expect(walked).toEqual(items);
    });
  });
}

describe('a list past the answer bound', () => {
  it('is the problem list-too-long, with the total, not a list cut short', async () => {
    const style = STYLES.at(-1) as Style;
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-paging-'));
    const count = 10_001;
    await writeFile(
      join(dir, 'items.yaml'),
      `items:\n${Array.from({ length: count }, (_, i) => `  - { id: ${String(i + 1)}, colour: ${COLOURS[i % 3] as string} }`).join('\n')}\n`,
    );
    await writeFile(join(dir, 'openapi.yaml'), specOf(style));
    const mock = await startStockmock({
      spec: join(dir, 'openapi.yaml'),
      fixtures: join(dir, 'items.yaml'),
    });
    try {
      const response = await fetch(`${mock.url}/items`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await response.json()) as { type: string; total: number };
      expect(problem.type).toBe('urn:problem-type:stockmock:list-too-long');
      expect(problem.total).toBe(count);
      // A filter narrows it under the bound: 3 334 red items.
      const red = await get(`${mock.url}/items?colour=red`);
      expect(red.data).toHaveLength(Math.ceil(count / 3));
    } finally {
      await mock.close();
    }
  });
});

describe('a list whose paging cannot be read', () => {
  const issuesOf = async (style: Style): Promise<readonly SourceIssue[]> => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-paging-'));
    const file = join(dir, 'openapi.yaml');
    await writeFile(file, specOf(style));
    return declarationIssues(file);
  };
  const style = (parameters: readonly string[], paging?: string): Style => ({
    name: 'refused',
    parameters,
    ...(paging === undefined ? {} : { paging }),
    ask: undefined,
    defaultSize: undefined,
    sized: false,
  });

  it.each([
    [
      'two page sizes',
      style([integer('limit', ''), integer('pageSize', ''), integer('page', '')]),
      'query parameters limit and pageSize could each be the page size: declare `paging`',
    ],
    [
      'a page number and an offset',
      style([integer('page', ''), integer('offset', ''), integer('limit', '')]),
      'a page starts at a page number (page) or at an offset (offset): declare `paging` with one',
    ],
    [
      'a size that is not an integer',
      style(['        - { name: size, in: query, schema: { type: string, enum: [S, M, L] } }']),
      'the query parameter size reads as the page size, so it must be an integer',
    ],
    [
      'a declared name the operation lacks',
      style([integer('limit', '')], '{ page: nope, size: limit }'),
      'names no query parameter of GET /items that is not a filter or the sort',
    ],
  ])('%s: refused at start with file and line', async (_case, given, message) => {
    const issues = await issuesOf(given);
    expect(issues.map((issue) => issue.message)).toEqual([expect.stringContaining(message)]);
    expect(issues[0]?.at?.line).toBeGreaterThan(10);
  });
});
