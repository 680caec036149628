/** Simulation through app.inject: every simulated answer is judged against the spec too. */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { loadDataset as loadCatalog } from '../helpers/datasets.ts';
import { buildApp } from '../../src/api/build-app.ts';
import { PROBLEMS } from '../../src/problems/problem-types.ts';
import type { Simulation } from '../../src/config/simulation-schema.ts';
import { injectChecked } from '../helpers/inject.ts';
import { bearer, QUANTITY_TOKEN, shippedSpecOnce, STATUS_TOKEN } from '../helpers/test-app.ts';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function simulated(
  simulation: Simulation | undefined,
  delays: number[] = [],
): Promise<FastifyInstance> {
  app = await buildApp({
    config: { ...DEFAULTS, ...(simulation === undefined ? {} : { simulation }) },
    spec: await shippedSpecOnce(),
    catalogs: createScenarioStore(await loadCatalog(DEFAULTS.fixtures)),
    sleep: async (ms) => {
      delays.push(ms);
    },
  });
  return app;
}

const get = (
  target: FastifyInstance,
  url: string,
  headers: Record<string, string> = bearer(STATUS_TOKEN),
) => injectChecked(target, { url, headers });

describe('simulation is off by default', () => {
  it('adds no delay and no errors', async () => {
    const delays: number[] = [];
    const target = await simulated(undefined, delays);
    for (let i = 0; i < 50; i++) expect((await get(target, '/v1/stock/1')).status).toBe(200);
    expect(delays).toEqual([]);
  });
});

describe('Prefer: code=STATUS and delay=MS', () => {
  it.each([
    [404, PROBLEMS.NOT_FOUND.type],
    [503, PROBLEMS.SERVICE_UNAVAILABLE.type],
    [429, PROBLEMS.TOO_MANY_REQUESTS.type],
    [401, PROBLEMS.UNAUTHORIZED.type],
    [400, PROBLEMS.INVALID_PARAMETERS.type],
  ])('code=%i answers that declared status with its problem and headers', async (status, type) => {
    const target = await simulated(undefined);
    const response = await get(target, '/v1/stock/1', {
      ...bearer(STATUS_TOKEN),
      prefer: `code=${String(status)}`,
    });
    expect(response.status).toBe(status);
    expect(response.json()['type']).toBe(type);
    expect(response.headers['preference-applied']).toBe(`code=${String(status)}`);
  });

  it('code=404 on a list, which declares no 404, is a 400', async () => {
    const response = await get(await simulated(undefined), '/v1/stock', {
      ...bearer(STATUS_TOKEN),
      prefer: 'code=404',
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.json()['errors'])).toContain('400, 401, 405, 406, 429, 503');
  });

  it.each(['code=418', 'code=500', 'code=abc', 'delay=-1', 'delay=soon', 'delay=600000'])(
    '%s is a 400 naming the Prefer header',
    async (prefer) => {
      const response = await get(await simulated(undefined), '/v1/stock/1', {
        ...bearer(STATUS_TOKEN),
        prefer,
      });
      expect(response.status).toBe(400);
      expect(response.json()['errors']).toMatchObject([{ parameter: 'Prefer', in: 'header' }]);
    },
  );

  it('delay=MS waits that long and says so, combined with a scenario', async () => {
    const delays: number[] = [];
    const target = await simulated(undefined, delays);
    const response = await get(target, '/v1/stock/1', {
      ...bearer(STATUS_TOKEN),
      prefer: 'delay=250',
    });
    expect(response.status).toBe(200);
    expect(delays).toEqual([250]);
    expect(response.headers['preference-applied']).toBe('delay=250');
  });

  it('leaves the open endpoints alone', async () => {
    const delays: number[] = [];
    const target = await simulated({ latency: 100, errors: { rate: 1 } }, delays);
    expect((await get(target, '/healthz', {})).status).toBe(200);
    expect(delays).toEqual([]);
  });
});

describe('configured faults, with a fixed seed', () => {
  it('fails about the configured share of requests, each answer conforming to the spec', async () => {
    const target = await simulated({ seed: 42, errors: { rate: 0.25, status: 503 } });
    let failed = 0;
    for (let i = 0; i < 400; i++) {
      const response = await get(target, '/v1/stock?limit=1');
      if (response.status === 503) {
        failed += 1;
        expect(response.headers['retry-after']).toBe('1');
      } else expect(response.status).toBe(200);
    }
    expect(failed / 400).toBeGreaterThan(0.2);
    expect(failed / 400).toBeLessThan(0.3);
  });

  it('delays within the configured range, and per route overrides the global setting', async () => {
    const delays: number[] = [];
    const target = await simulated(
      { seed: 1, latency: { min: 20, max: 40 }, routes: { getStock: { latency: 5 } } },
      delays,
    );
    for (let i = 0; i < 50; i++) await get(target, '/v1/stock');
    expect(delays.every((ms) => ms >= 20 && ms <= 40)).toBe(true);
    expect(new Set(delays).size).toBeGreaterThan(5);
    delays.length = 0;
    await get(target, '/v1/stock/1');
    expect(delays).toEqual([5]);
  });

  it('refuses at start a status the spec does not declare, or an unknown operation', async () => {
    await expect(simulated({ errors: { rate: 0.1, status: 500 } })).rejects.toThrow(
      /500 is not declared by listStock/,
    );
    await expect(simulated({ routes: { listStok: { latency: 1 } } })).rejects.toThrow(
      /no operation of the spec has this operationId/,
    );
  });
});

describe('rate limiting per token', () => {
  it('answers 429 with Retry-After once a token used up its quota; another token is unaffected', async () => {
    const target = await simulated({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await get(target, '/v1/stock/1')).status).toBe(200);
    const limited = await get(target, '/v1/stock/1');
    expect(limited.status).toBe(429);
    expect(limited.json()['type']).toBe(PROBLEMS.TOO_MANY_REQUESTS.type);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(target, '/v1/stock/1', bearer(QUANTITY_TOKEN))).status).toBe(200);
  });

  it('does not count requests refused for their token', async () => {
    const target = await simulated({ rateLimit: { max: 1, timeWindowMs: 60_000 } });
    for (let i = 0; i < 3; i++)
      expect((await get(target, '/v1/stock', bearer('wrong'))).status).toBe(401);
    expect((await get(target, '/v1/stock')).status).toBe(200);
  });
});
