/** @module A stockmock serving one list of a spec written by the test, on a real port. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';

/** A stockmock serving one list from a fixture, and the ids a query of it answers. */
export async function serveList(collection: string, fixture: string, spec: readonly string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-typed-'));
  await writeFile(join(dir, `${collection}.yaml`), fixture);
  await writeFile(join(dir, 'openapi.yaml'), spec.join('\n'));
  const mock = await startStockmock({
    spec: join(dir, 'openapi.yaml'),
    fixtures: join(dir, `${collection}.yaml`),
  });
  const ids = async (query: string) => {
    const response = await fetch(`${mock.url}/${collection}?${query}&limit=100`);
    expect(response.status, query).toBe(200);
    return ((await response.json()) as { data: { id: unknown }[] }).data.map((item) => item.id);
  };
  return { url: mock.url, ids, close: () => mock.close() };
}
