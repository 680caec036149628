/**
 * Writes are for the levels whose view may read the collection: a level with no view of it is
 * refused with a 403 that changes nothing, while a level that sees it writes.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStockmock, type Stockmock } from '../../src/api/start-stockmock.ts';

const SPEC = `openapi: 3.1.0
info: { title: Notes, version: 1.0.0 }
security: [{ bearer: [] }]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
x-stockmock-collections:
  notes:
    key: id
    record:
      type: object
      required: [id, text]
      properties: { id: { type: integer, minimum: 1 }, text: { type: string } }
  topics:
    key: id
    record:
      type: object
      required: [id]
      properties: { id: { type: integer } }
paths:
  /notes:
    get:
      x-stockmock: { collection: notes, paging: none, envelope: none, views: { staff: { rest: true } } }
      responses:
        '200': { description: Notes., content: { application/json: { schema: { type: array } } } }
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [text], properties: { text: { type: string } } }
      responses:
        '201': { description: Created., content: { application/json: { schema: { type: object } } } }
        '403': { description: Not for this level. }
  /topics:
    get:
      x-stockmock:
        collection: topics
        paging: none
        envelope: none
        views: { staff: { rest: true }, public: { rest: true } }
      responses:
        '200': { description: Topics., content: { application/json: { schema: { type: array } } } }
`;

let mock: Stockmock;
beforeAll(async () => {
  const folder = await mkdtemp(join(tmpdir(), 'stockmock-levels-'));
  const spec = join(folder, 'openapi.yaml');
  await writeFile(spec, SPEC);
  mock = await startStockmock({
    spec,
    data: { notes: [{ id: 1, text: 'first' }], topics: [{ id: 1 }] },
    tokens: [
      { token: 'staff-token-1', level: 'staff' },
      { token: 'public-token-1', level: 'public' },
    ],
  });
});
afterAll(async () => {
  await mock.close();
});

const post = (token: string) =>
  fetch(`${mock.url}/notes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'second' }),
  });

describe('writes by access level', () => {
  it('refuses a level with no view of the collection, and lets one that sees it write', async () => {
    const refused = await post('public-token-1');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { type: string }).type).toBe(
      'urn:problem-type:stockmock:forbidden',
    );
    const notes = async () =>
      (await (
        await fetch(`${mock.url}/notes`, { headers: { authorization: 'Bearer staff-token-1' } })
      ).json()) as unknown[];
    expect(await notes()).toEqual([{ id: 1, text: 'first' }]);
    const written = await post('staff-token-1');
    expect(written.status).toBe(201);
    expect(await notes()).toEqual([
      { id: 1, text: 'first' },
      { id: 2, text: 'second' },
    ]);
  });
});
