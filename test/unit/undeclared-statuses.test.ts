/**
 * `validate` tells of each answer a data operation can give that its responses do not declare
 * (issue 38, item 7), with file and line; the answer is given anyway, as problem+json.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../../src/cli/main.ts';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { memoryIo } from '../helpers/memory-io.ts';

function specWith(listResponses: string, itemResponses: string): string {
  return [
    'openapi: 3.1.0',
    "info: { title: statuses, version: '1' }",
    'security: [{ bearer: [] }]',
    'components: { securitySchemes: { bearer: { type: http, scheme: bearer } } }',
    'x-stockmock-collections:',
    '  trees: { key: id, record: { type: object, required: [id], properties: { id: { type: integer } } } }',
    'paths:',
    '  /trees:',
    '    get:',
    '      x-stockmock: { collection: trees }',
    '      parameters:',
    '        - { name: limit, in: query, schema: { type: integer, minimum: 1, default: 2 } }',
    '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
    `      responses: ${listResponses}`,
    '  /trees/{id}:',
    '    get:',
    '      x-stockmock: { collection: trees, item: id }',
    '      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]',
    `      responses: ${itemResponses}`,
    '',
  ].join('\n');
}

async function validate(spec: string): Promise<{ code: number; warnings: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-statuses-'));
  await writeFile(join(dir, 'openapi.yaml'), spec);
  await writeFile(join(dir, 'trees.yaml'), 'trees:\n  - { id: 1 }\n');
  const io = memoryIo(dir);
  const code = await runMain(
    ['validate', '--spec', 'openapi.yaml', '--fixtures', 'trees.yaml'],
    io,
  );
  return { code, warnings: io.err.split('\n').filter((line) => line.startsWith('warn ')) };
}

describe('answers a data operation does not declare', () => {
  it('are told, each with file, line and field, and validate still passes', async () => {
    const { code, warnings } = await validate(
      specWith("{ '200': { description: a page } }", "{ '200': { description: one } }"),
    );
    expect(code).toBe(0);
    const told = warnings.map((line) =>
      /openapi\.yaml:(\d+):\d+ (\S+): GET (\S+) answers (\d+)/.exec(line)?.slice(1),
    );
    expect(told).toStrictEqual([
      ['14', 'paths./trees.get.responses', '/trees', '400'],
      ['14', 'paths./trees.get.responses', '/trees', '401'],
      ['19', 'paths./trees/{id}.get.responses', '/trees/{id}', '400'],
      ['19', 'paths./trees/{id}.get.responses', '/trees/{id}', '401'],
      ['19', 'paths./trees/{id}.get.responses', '/trees/{id}', '404'],
    ]);
  });

  it('are not told where the spec declares them, a class of them, or a default', async () => {
    const { warnings } = await validate(
      specWith(
        "{ '200': { description: a page }, '400': { description: bad }, '401': { description: who } }",
        "{ '200': { description: one }, '4XX': { description: no }, default: { description: other } }",
      ),
    );
    expect(warnings).toStrictEqual([]);
  });

  it('are answered anyway, as problem+json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-statuses-'));
    await writeFile(
      join(dir, 'openapi.yaml'),
      specWith("{ '200': { description: a page } }", "{ '200': { description: one } }"),
    );
    await writeFile(join(dir, 'trees.yaml'), 'trees:\n  - { id: 1 }\n');
    const mock = await startStockmock({
      spec: join(dir, 'openapi.yaml'),
      fixtures: join(dir, 'trees.yaml'),
      tokens: [{ token: 'a-token-of-trees', level: 'reader' }],
    });
    try {
      const as = { authorization: 'Bearer a-token-of-trees' };
      for (const [path, headers, status] of [
        ['/trees?limit=0', as, 400],
        ['/trees', {}, 401],
        ['/trees/2', as, 404],
      ] as const) {
        const response = await fetch(`${mock.url}${path}`, { headers });
        expect(response.status, path).toBe(status);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      }
    } finally {
      await mock.close();
    }
  });
});
