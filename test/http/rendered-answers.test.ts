/**
 * Kept answers (src/http/rendered-answers.ts) against fresh ones: an app that keeps answers and
 * one that never does serve the same store, and every request goes to both.
 */
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/dataset/dataset.ts';
import { datasetOf } from '../helpers/datasets.ts';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { buildApp } from '../../src/api/build-app.ts';
import { createKeptAnswers } from '../../src/http/rendered-answers.ts';
import { createScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { arbitraryProducts } from '../helpers/arbitraries.ts';
import { generatedCatalog } from '../helpers/generated-catalog.ts';
import { QUANTITY_TOKEN, shippedSpecOnce, STATUS_TOKEN } from '../helpers/test-app.ts';

const catalogs = createScenarioStore(
  new Map([
    ['default', generatedCatalog(60, 1)],
    ['other', generatedCatalog(40, 2)],
  ]),
);
const keptAnswers = createKeptAnswers();
let keeping: FastifyInstance;
let fresh: FastifyInstance;
beforeAll(async () => {
  const spec = await shippedSpecOnce();
  keeping = await buildApp({ config: DEFAULTS, spec, catalogs, keptAnswers });
  fresh = await buildApp({ config: DEFAULTS, spec, catalogs, keptAnswers: null });
});
afterAll(async () => {
  await keeping.close();
  await fresh.close();
});

interface Request {
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** What a client can tell apart in an answer. */
function seen(response: LightMyRequestResponse) {
  return {
    status: response.statusCode,
    type: response.headers['content-type'],
    applied: response.headers['preference-applied'],
    body: response.body,
  };
}

async function both(request: Request) {
  const [kept, made] = await Promise.all([keeping.inject(request), fresh.inject(request)]);
  return { kept: seen(kept), made: seen(made) };
}

/** A small pool, so that requests repeat and their answers are kept. */
const arbitraryRequest: fc.Arbitrary<Request> = fc
  .record({
    path: fc.constantFrom('/v1/stock', '/v1/products', '/v1/stock/4', '/v1/products/7'),
    query: fc.constantFrom('', '?page=2', '?name=oak', '?status=available&limit=3', '?limit=0'),
    token: fc.constantFrom(STATUS_TOKEN, QUANTITY_TOKEN, 'not-a-token'),
    host: fc.constantFrom('a.test:1', 'b.test:2'),
    prefer: fc.constantFrom(undefined, 'scenario=other', 'scenario=missing'),
  })
  .map(({ path, query, token, host, prefer }) => ({
    url: `${path}${query}`,
    headers: {
      authorization: `Bearer ${token}`,
      host,
      ...(prefer === undefined ? {} : { prefer }),
    },
  }));

type Step = { readonly request: Request } | { readonly reload: Dataset };

const arbitraryStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 12, arbitrary: arbitraryRequest.map((request) => ({ request })) },
  {
    weight: 1,
    arbitrary: arbitraryProducts({ maxId: 12, maxNameLength: 4, maxLength: 12 }).map(
      (products) => ({ reload: datasetOf('reloaded.yaml', products) }),
    ),
  },
);

/** A GET with a token, on a fresh catalogue of `count` products made active first. */
function onFreshCatalog(count: number, seed: number, url: string, token: string) {
  const catalog = generatedCatalog(count, seed);
  catalogs.replace(catalog);
  return { catalog, request: { url, headers: { authorization: `Bearer ${token}` } } };
}

describe('kept answers', () => {
  it('equal fresh ones, for any levels, hosts, scenarios and bad requests, across reloads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryStep, { minLength: 20, maxLength: 60 }), async (steps) => {
        catalogs.replace(generatedCatalog(60, 1));
        for (const step of steps) {
          if ('reload' in step) {
            catalogs.replace(step.reload);
            continue;
          }
          const { kept, made } = await both(step.request);
          expect(kept).toEqual(made);
        }
      }),
      { numRuns: 40, seed: 5 },
    );
  });

  it('are kept from the second asking, per dataset: a reload keys them anew', async () => {
    const { request } = onFreshCatalog(30, 3, '/v1/stock?limit=5&page=2', QUANTITY_TOKEN);
    const before = keptAnswers.size;
    expect((await both(request)).kept.status).toBe(200);
    expect(keptAnswers.size).toBe(before);
    await both(request);
    expect(keptAnswers.size).toBe(before + 1);
    const third = await both(request);
    expect(third.kept).toEqual(third.made);
    expect(keptAnswers.size).toBe(before + 1);

    catalogs.replace(generatedCatalog(30, 4));
    const afterReload = await both(request);
    // A first asking of the new dataset: not the old answer, and not kept yet.
    expect(afterReload.kept).toEqual(afterReload.made);
    expect(afterReload.kept.body).not.toBe(third.kept.body);
    expect(keptAnswers.size).toBe(before + 1);
    await both(request);
    expect(keptAnswers.size).toBe(before + 2);
  });

  it('keep no error answer', async () => {
    const { request: invalid } = onFreshCatalog(10, 5, '/v1/stock?limit=0', STATUS_TOKEN);
    const before = keptAnswers.size;
    for (let i = 0; i < 3; i++) expect((await both(invalid)).kept.status).toBe(400);
    expect(keptAnswers.size).toBe(before);
  });

  it('keep pages of lists only, not single items', async () => {
    const { request: single } = onFreshCatalog(10, 6, '/v1/stock/4', STATUS_TOKEN);
    const before = keptAnswers.size;
    for (let i = 0; i < 3; i++) expect((await both(single)).kept.status).toBe(200);
    expect(keptAnswers.size).toBe(before);
  });
});
