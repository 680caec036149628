/**
 * A view is optional (issue 38, item 6): without one every level sees the record as it is, and
 * `rest` alone is the same; a view that shows nothing is refused at start. The expected records
 * are the fixture's own, read here.
 */
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/problems/source-error.ts';
import { serveList } from '../helpers/serve-list.ts';

/** Declared fields in the record's order, then a field the record does not declare. */
const RECORDS = [
  { id: 1, name: 'Oak', size: 3, extra: { colour: 'red' } },
  { id: 2, name: 'Elm' },
];

function specWith(view: string): string[] {
  return [
    'openapi: 3.1.0',
    "info: { title: views, version: '1' }",
    'x-stockmock-collections:',
    '  trees:',
    '    key: id',
    '    record:',
    '      type: object',
    '      required: [id, name]',
    '      properties:',
    '        id: { type: integer }',
    '        name: { type: string }',
    '        size: { type: integer }',
    'paths:',
    '  /trees:',
    '    get:',
    '      security: []',
    `      x-stockmock: { collection: trees${view} }`,
    '      parameters:',
    '        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 10 } }',
    '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
    "      responses: { '200': { description: a page } }",
    '',
  ];
}

const FIXTURE = `trees:\n${RECORDS.map((record) => `  - ${JSON.stringify(record)}`).join('\n')}\n`;

async function served(view: string): Promise<unknown> {
  const mock = await serveList('trees', FIXTURE, specWith(view));
  try {
    const response = await fetch(`${mock.url}/trees`);
    return ((await response.json()) as { data: unknown }).data;
  } finally {
    await mock.close();
  }
}

describe('a list without a view', () => {
  it('shows each record as the fixture gives it', async () => {
    const body = await served('');
    expect(JSON.stringify(body)).toBe(JSON.stringify(RECORDS));
  });

  it('is what `rest: true` alone shows, and `omit` takes fields out', async () => {
    expect(JSON.stringify(await served(', view: { rest: true }'))).toBe(JSON.stringify(RECORDS));
    expect(await served(', view: { rest: true, omit: [size, name] }')).toStrictEqual(
      RECORDS.map((record) => ({
        id: record.id,
        ...('extra' in record ? { extra: record.extra } : {}),
      })),
    );
  });

  it('refuses a view that shows nothing, with its line and field', async () => {
    const refused = await serveList('trees', FIXTURE, specWith(', view: {}')).then(
      async (mock) => mock.close(),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SourceError);
    const issue = (refused as SourceError).issues[0];
    expect(issue?.field).toBe('paths./trees.get.x-stockmock.view');
    expect(issue?.at?.line).toBe(17);
    expect(issue?.message).toContain('shows nothing');
  });
});
