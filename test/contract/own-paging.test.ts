/**
 * Lists paged by a spec's own parameters (`pageSize` and `page`, none at all) are walked as
 * their clients page them, and stockmock serving them is failed by nothing: the checker sends no
 * `limit` that such a spec does not declare. A nested list whose parents no declared list gives
 * is reported skipped, saying why.
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
  halls:
    key: id
    record: { type: object, required: [id], properties: { id: { type: string } } }
  events:
    key: id
    references: { city: halls }
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
  /halls/{hallId}/events:
    get:
      operationId: listHallEvents
      security: []
      x-stockmock: { collection: events, envelope: none, parents: { hallId: city } }
      parameters:
        - { name: hallId, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: a hall's events, content: { application/json: { schema: { type: array } } } }
`;

describe('a list paged otherwise than by page and limit', () => {
  it('is walked as its clients page it, and fails nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-unwalked-'));
    await writeFile(join(dir, 'openapi.yaml'), SPEC);
    await writeFile(
      join(dir, 'events.yaml'),
      `halls:\n  - { id: Oslo }\n  - { id: Lyon }\nevents:\n${Array.from({ length: 30 }, (_, i) => `  - { id: ${String(i + 1)}, city: ${i % 2 === 0 ? 'Oslo' : 'Lyon'} }`).join('\n')}\n`,
    );
    const mock = await startStockmock({
      spec: join(dir, 'openapi.yaml'),
      fixtures: join(dir, 'events.yaml'),
    });
    try {
      const spec = await loadSpec(join(dir, 'openapi.yaml'));
      const report = await checkAtStandIn(mock.url, {}, spec, { seed: 49, runs: 10 });
      // The spec declares no 405 or 406 and no media type: only the interface's rules apply.
      expect(failedAt(report, 'interface')).toEqual([]);
      const outcomes = Object.fromEntries(
        report.results.flatMap((result) =>
          /^(paging|shape)\./.test(result.id)
            ? [
                [
                  result.id,
                  result.outcome.kind === 'skipped' ? result.outcome.reason : result.outcome.kind,
                ],
              ]
            : [],
        ),
      );
      expect(outcomes).toEqual({
        'paging./events.walks': 'passed',
        'paging./events.size-refused': 'passed',
        'paging./venues.walks': 'passed',
        'shape./halls/{hallId}/events': expect.stringContaining(
          'no list of /halls is declared',
        ) as unknown,
      });
    } finally {
      await mock.close();
    }
  });
});
