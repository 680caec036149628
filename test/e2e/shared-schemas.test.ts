/**
 * A spec whose components refer to each other many times over (as Google's discovery specs do:
 * googleapis.com/contentwarehouse, 3.3 MB, held its start for 238 s) starts, and answers its
 * operations from their examples. Each component here refers to the next twice, 24 deep: walked
 * as a tree, the components are 2^24 paths; Prism walked every one before it read an operation.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';

const DEPTH = 24;

function sharedSchemasSpec(): string {
  const schemas = Array.from(
    { length: DEPTH },
    (_, i) =>
      `    S${String(i)}:\n      type: object\n      properties:\n        a: { $ref: '#/components/schemas/S${String(i + 1)}' }\n        b: { $ref: '#/components/schemas/S${String(i + 1)}' }\n`,
  ).join('');
  return `openapi: 3.1.0
info: { title: shared schemas, version: '1' }
paths:
  /ping:
    get:
      operationId: ping
      security: []
      responses:
        '200':
          description: pong
          content:
            application/json:
              schema: { type: object, properties: { ok: { type: boolean } } }
              example: { ok: true }
components:
  schemas:
${schemas}    S${String(DEPTH)}: { type: string }
`;
}

describe('a spec whose components refer to each other many times over', () => {
  it('starts and answers its operation from its example', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-shared-schemas-'));
    await writeFile(join(dir, 'openapi.yaml'), sharedSchemasSpec());
    const mock = await startStockmock({ spec: join(dir, 'openapi.yaml') });
    try {
      const response = await fetch(`${mock.url}/ping`);
      expect(response.status).toBe(200);
      expect(await response.json()).toStrictEqual({ ok: true });
    } finally {
      await mock.close();
    }
  });
});
