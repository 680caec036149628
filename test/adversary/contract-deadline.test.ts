/**
 * Finding 2: `contract --deadline` must hold although the target's own spec carries a pattern
 * with catastrophic backtracking and the target serves a value that triggers it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  killRunningClis,
  QUANTITY,
  runCli,
  shippedSpec,
  startTarget,
  STATUS,
  stockService,
  type Target,
} from './support.ts';

const targets: Target[] = [];
const dirs: string[] = [];
afterEach(async () => {
  killRunningClis();
  await Promise.all(targets.splice(0).map((target) => target.close()));
});
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

interface Schema {
  properties: Record<string, Record<string, unknown> | undefined>;
}

describe('contract: a ReDoS pattern in the target spec cannot defeat --deadline', () => {
  it('ends, exits 2 (or 1), and writes the JUnit report', { timeout: 40_000 }, async () => {
    const spec = await shippedSpec();
    const components = spec.components as { schemas: { Product: Schema } };
    const collections = spec['x-stockmock-collections'] as { products: { record: Schema } };
    for (const schema of [components.schemas.Product, collections.products.record]) {
      schema.properties.name = { ...schema.properties.name, pattern: '^(a+)+$' };
    }
    const target = await startTarget(
      stockService({ spec, products: [{ id: 1, name: `${'a'.repeat(40)}!`, quantity: 3 }] }),
    );
    targets.push(target);
    const dir = await mkdtemp(join(tmpdir(), 'adversary-deadline-'));
    dirs.push(dir);
    const junit = join(dir, 'report.xml');
    const result = await runCli([
      'contract',
      target.url,
      '--spec',
      `${target.url}/openapi.json`,
      '--deadline',
      '5000',
      '--junit',
      junit,
      '--token',
      `status=${STATUS}`,
      '--token',
      `quantity=${QUANTITY}`,
      '--seed',
      '1',
    ]);
    // The target did serve the hostile product to the checker.
    expect(target.hits.some((hit) => hit.startsWith('GET /v1/products'))).toBe(true);
    expect([1, 2]).toContain(result.code);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('<testsuites');
  });
});
