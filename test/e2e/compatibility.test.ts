/** The compatibility settings: what is served, what the served spec says, and the checker agrees. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPATIBILITY,
  type Compatibility,
  type StockShape,
} from '../../src/compatibility/compatibility.ts';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { runContract } from '../../src/contract/run-contract.ts';
import { buildApp } from '../../src/api/build-app.ts';
import { createScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { loadDataset as loadCatalog } from '../helpers/datasets.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { createResponseValidator } from '../../src/spec/response-validator.ts';
import { recordResponse } from '../helpers/expect-spec.ts';
import { bearer, QUANTITY_TOKEN, shippedSpecOnce, STATUS_TOKEN } from '../helpers/test-app.ts';

describe.each([
  [
    { stockField: 'stock', productIdType: 'integer' },
    { product_id: 1, stock: 13, status: 'available' },
    1,
  ],
  [
    { stockField: 'quantity', productIdType: 'string' },
    { product_id: '1', quantity: 13, status: 'available' },
    '1',
  ],
  [
    { stockField: 'stock', productIdType: 'string' },
    { product_id: '1', stock: 13, status: 'available' },
    '1',
  ],
  // A type per member: strings in stock objects, integers in the product records.
  [
    { stockField: 'quantity', productIdType: { product_id: 'string', id: 'integer' } },
    { product_id: '1', quantity: 13, status: 'available' },
    1,
  ],
  [
    { stockField: 'quantity', productIdType: { id: 'string' } },
    { product_id: 1, quantity: 13, status: 'available' },
    '1',
  ],
] as const)('compatibility %j', (shape: StockShape, expected, recordId) => {
  const compatibility: Compatibility = { ...DEFAULT_COMPATIBILITY, ...shape };
  it('serves that shape, its /openapi.json describes it, and stockmock contract passes against it', async () => {
    const app = await buildApp({
      config: { ...DEFAULTS, compatibility },
      spec: await shippedSpecOnce(),
      catalogs: createScenarioStore(await loadCatalog(DEFAULTS.fixtures)),
    });
    // listenLive judges against the shipped spec, so this test reads with plain fetch.
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${String(typeof address === 'object' && address !== null ? address.port : 0)}`;
    try {
      const served = await loadSpec(`${origin}/openapi.json`);
      const validator = await createResponseValidator(served);
      const single = await recordResponse(
        await fetch(`${origin}/v1/stock/1`, { headers: bearer(QUANTITY_TOKEN) }),
      );
      expect(single.body).toEqual({ data: expected });
      expect(validator.validate('GET', '/v1/stock/1', single)).toEqual([]);
      const statusLevel = await recordResponse(
        await fetch(`${origin}/v1/stock?limit=3`, { headers: bearer(STATUS_TOKEN) }),
      );
      expect(validator.validate('GET', '/v1/stock', statusLevel)).toEqual([]);
      const record = await recordResponse(
        await fetch(`${origin}/v1/products/1`, { headers: bearer(STATUS_TOKEN) }),
      );
      expect((record.body as { data: { id: unknown } }).data.id).toBe(recordId);
      expect(validator.validate('GET', '/v1/products/1', record)).toEqual([]);

      // The shipped (default) spec does not describe this variant...
      const shipped = await createResponseValidator(await shippedSpecOnce());
      expect([
        ...shipped.validate('GET', '/v1/stock/1', single),
        ...shipped.validate('GET', '/v1/products/1', record),
      ]).not.toEqual([]);

      // ...and the checker, given the served spec, passes the variant as a whole.
      const report = await runContract({
        baseUrl: origin,
        tokens: { status: STATUS_TOKEN, quantity: QUANTITY_TOKEN },
        spec: served,
        seed: 5,
        runs: 30,
        timeoutMs: 5000,
        concurrency: 4,
      });
      expect(
        report.results
          .filter((result) => result.outcome.kind !== 'passed')
          .map((result) => result.id),
      ).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('default compatibility', () => {
  it('serves the shipped spec unchanged, but for its server: this one', async () => {
    const app = await buildApp({
      config: DEFAULTS,
      spec: await shippedSpecOnce(),
      catalogs: createScenarioStore(await loadCatalog(DEFAULTS.fixtures)),
    });
    const served = (await app.inject({ url: '/openapi.json' })).json<Record<string, unknown>>();
    const shipped = JSON.parse(JSON.stringify((await shippedSpecOnce()).document)) as object;
    expect(served).toEqual({
      ...shipped,
      servers: [{ url: 'http://localhost:80', description: 'This stockmock' }],
    });
    await app.close();
  });
});
