/**
 * `contract --deadline` holds while the checker's thread is held: the target's own spec makes
 * an answer cost minutes to judge (`uniqueItems` over tens of thousands of objects, compared
 * pair by pair), and the run still ends soon after its deadline, with its JUnit report and
 * exit 2. The installed command is run, as CI runs it.
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
} from '../adversary/support.ts';

const targets: Target[] = [];
const dirs: string[] = [];
afterEach(async () => {
  killRunningClis();
  await Promise.all(targets.splice(0).map((target) => target.close()));
});
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('contract under its watchdog', () => {
  it(
    'ends a run whose judging holds its thread past the deadline',
    { timeout: 60_000 },
    async () => {
      const spec = await shippedSpec();
      const schemas = (
        spec.components as {
          schemas: Record<string, { properties: Record<string, Record<string, unknown>> }>;
        }
      ).schemas;
      for (const list of ['StockList', 'ProductList']) {
        const data = schemas[list]?.properties['data'];
        if (data === undefined) throw new Error(`the shipped spec has no ${list}.data`);
        data['uniqueItems'] = true;
        delete data['maxItems'];
      }
      // A minute and more of pairwise comparisons for any judge that recurses into each pair.
      const items = Array.from({ length: 40_000 }, (_, index) => ({
        product_id: index + 1,
        status: 'available',
      }));
      const body = JSON.stringify({
        data: items,
        links: { self: '/', first: '/', last: '/', prev: null, next: null },
      });
      const target = await startTarget(stockService({ spec, rawStock: body, rawProducts: body }));
      targets.push(target);
      const dir = await mkdtemp(join(tmpdir(), 'watchdog-'));
      dirs.push(dir);
      const junit = join(dir, 'report.xml');
      const result = await runCli([
        'contract',
        target.url,
        '--spec',
        `${target.url}/openapi.json`,
        '--deadline',
        '2000',
        '--junit',
        junit,
        '--token',
        `status=${STATUS}`,
        '--token',
        `quantity=${QUANTITY}`,
      ]);
      expect(result.stderr).toContain('did not end within its deadline of 2000 ms');
      expect(result.code).toBe(2);
      const xml = await readFile(junit, 'utf8');
      expect(xml).toContain('errors="1"');
      expect(xml).toContain('did not end within its deadline');
    },
  );
});
