import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDataset as parseCatalog } from '../helpers/datasets.ts';
import { PROBLEMS } from '../../src/problems/problem-types.ts';
import { createScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { buildApp } from '../../src/api/build-app.ts';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { injectChecked } from '../helpers/inject.ts';
import { bearer, shippedSpecOnce, STATUS_TOKEN } from '../helpers/test-app.ts';

let app: FastifyInstance;
const scenarios = createScenarioStore(
  new Map([
    [
      'default',
      parseCatalog(
        'd.yaml',
        'products: [{ id: 1, name: A, quantity: 1 }, { id: 2, name: B, quantity: 2 }]',
      ),
    ],
    ['empty', parseCatalog('e.yaml', 'products: []')],
  ]),
);
beforeAll(async () => {
  app = await buildApp({ config: DEFAULTS, spec: await shippedSpecOnce(), catalogs: scenarios });
});
afterAll(() => app.close());

const get = (url: string, prefer?: string) =>
  injectChecked(app, {
    url,
    headers: { ...bearer(STATUS_TOKEN), ...(prefer === undefined ? {} : { prefer }) },
  });

describe('scenarios per request: Prefer: scenario=NAME', () => {
  it('serves that scenario and says so in Preference-Applied', async () => {
    const response = await get('/v1/stock', 'scenario=empty');
    expect(response.json()['data']).toEqual([]);
    expect(response.headers['preference-applied']).toBe('scenario=empty');
    expect((await get('/v1/stock')).json()['data']).toHaveLength(2);
  });

  it('answers an unknown scenario with a 400 problem naming the header, not a silent fallback', async () => {
    const response = await get('/v1/stock/1', 'scenario=nope');
    expect(response.status).toBe(400);
    expect(response.json()['type']).toBe(PROBLEMS.INVALID_PARAMETERS.type);
    expect(response.json()['errors']).toEqual([
      { parameter: 'Prefer', in: 'header', message: 'scenario must be one of default, empty' },
    ]);
  });

  it('follows a global switch of the active scenario', async () => {
    scenarios.activate('empty');
    try {
      expect((await get('/healthz')).json()).toEqual({ status: 'ok', products: 0 });
      expect((await get('/v1/stock/1')).status).toBe(404);
      expect((await get('/v1/stock/1', 'scenario=default')).status).toBe(200);
    } finally {
      scenarios.activate('default');
    }
  });
});
