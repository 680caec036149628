/**
 * A list paged by parameters the checker does not walk yet (`pageSize`, an offset, none) is
 * reported skipped with how it pages, and stockmock serving it is failed by nothing: the checker
 * sends no `limit` that such a spec does not declare.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { checkAtStandIn, failedAt } from '../helpers/stand-in-check.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';

const SPEC = `openapi: 3.1.0
info: { title: events, version: '1' }
x-stockmock-collections:
  events:
    key: id
    record:
      type: object
      required: [id, city]
      properties:
        id: { type: integer, minimum: 1 }
        city: { type: string }
paths:
  /events:
    get:
      operationId: listEvents
      security: []
      x-stockmock: { collection: events, filters: { city: { field: city, match: exact } } }
      parameters:
        - { name: city, in: query, schema: { type: string } }
        - { name: page, in: query, schema: { type: integer, minimum: 1 } }
        - { name: pageSize, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
      responses:
        '200': { description: a page }
  /venues:
    get:
      operationId: listVenues
      security: []
      x-stockmock: { collection: events, envelope: none }
      responses:
        '200': { description: every venue, content: { application/json: { schema: { type: array } } } }
`;

describe('a list paged otherwise than by page and limit', () => {
  it('is skipped with how it pages, and fails nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-unwalked-'));
    await writeFile(join(dir, 'openapi.yaml'), SPEC);
    await writeFile(
      join(dir, 'events.yaml'),
      `events:\n${Array.from({ length: 30 }, (_, i) => `  - { id: ${String(i + 1)}, city: ${i % 2 === 0 ? 'Oslo' : 'Lyon'} }`).join('\n')}\n`,
    );
    const mock = await startStockmock({
      spec: join(dir, 'openapi.yaml'),
      fixtures: join(dir, 'events.yaml'),
    });
    try {
      const spec = await loadSpec(join(dir, 'openapi.yaml'));
      const report = await checkAtStandIn(mock.url, {}, spec, { seed: 49, runs: 10 });
      expect([failedAt(report, 'interface'), failedAt(report, 'stand-in')]).toEqual([[], []]);
      const skipped = Object.fromEntries(
        report.results.flatMap((result) =>
          result.id.startsWith('shape.') && result.outcome.kind === 'skipped'
            ? [[result.id, result.outcome.reason]]
            : [],
        ),
      );
      expect(skipped).toEqual({
        'shape./events': expect.stringContaining('pageSize (size) and page (page)') as unknown,
        'shape./venues': expect.stringContaining('no paging parameter') as unknown,
      });
    } finally {
      await mock.close();
    }
  });
});
