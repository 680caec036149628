/** The real server on a real port, driven by real fetch; every answer is checked against the spec. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioStore } from '../../src/scenarios/scenario-store.ts';
import {
  allProducts,
  datasetOf as createCatalog,
  STOCK_STATUSES,
  type StockStatus,
  type StoredProduct as Product,
} from '../helpers/datasets.ts';
import { arbitraryProducts, NAME_CHARS, plainFilterIds } from '../helpers/arbitraries.ts';
import type { PlainProduct } from '../helpers/reference-engine.ts';
import { listenLive, type LiveServer } from '../helpers/live-server.ts';
import { bearer, buildTestApp, QUANTITY_TOKEN, STATUS_TOKEN } from '../helpers/test-app.ts';

let server: LiveServer;
let catalogs: ScenarioStore;
let shipped: readonly Product[];
beforeAll(async () => {
  const built = await buildTestApp();
  catalogs = built.catalogs;
  shipped = allProducts(catalogs.current);
  server = await listenLive(built.app);
});
afterAll(() => server.close());

interface ListBody {
  data: Record<string, unknown>[];
  links: { first: string; last: string; prev: string | null; next: string | null };
}

/** Follows links.next from `first` to the end; returns the ids seen, in order, and the pages. */
async function walk(first: string, token: string): Promise<{ ids: number[]; pages: ListBody[] }> {
  const ids: number[] = [];
  const pages: ListBody[] = [];
  let url: string | null = first;
  while (url !== null) {
    const response = await server.fetch(url, { headers: bearer(token) });
    expect(response.status).toBe(200);
    const body = response.body as ListBody;
    pages.push(body);
    for (const item of body.data) ids.push(Number(item['product_id'] ?? item['id']));
    url = body.links.next;
    expect(pages.length).toBeLessThan(10_000);
  }
  return { ids, pages };
}

describe('the shipped catalogue over real HTTP', () => {
  it('walking next from page 1 visits all products once, ascending, in pages of 10', async () => {
    const { ids, pages } = await walk(`${server.origin}/v1/stock`, STATUS_TOKEN);
    expect(ids).toEqual(shipped.map((product) => product.id));
    expect(pages.slice(0, -1).every((page) => page.data.length === 10)).toBe(true);
    expect(pages.at(-1)?.links.last).toBe(
      pages.at(-1)?.links.first.replace('page=1', `page=${String(pages.length)}`),
    );
  });

  it('covers every status, unknown quantities and extra fields', async () => {
    const statuses = new Set(shipped.map((product) => product.status));
    expect([...statuses].sort()).toEqual([...STOCK_STATUSES].sort());
    expect(shipped.some((product) => product.quantity === null)).toBe(true);
    const response = await server.fetch('/v1/products/1', { headers: bearer(STATUS_TOKEN) });
    expect(Object.keys((response.body as { data: object }).data).length).toBeGreaterThan(2);
  });

  it('the single endpoint agrees with the list item for both levels', async () => {
    for (const token of [STATUS_TOKEN, QUANTITY_TOKEN]) {
      const list = (await server.fetch('/v1/stock?limit=100', { headers: bearer(token) }))
        .body as ListBody;
      for (const item of list.data.slice(0, 20)) {
        const single = await server.fetch(`/v1/stock/${String(item['product_id'])}`, {
          headers: bearer(token),
        });
        expect((single.body as { data: unknown }).data).toEqual(item);
      }
    }
  });
});

const arbitraryCatalog = arbitraryProducts({ maxId: 5000, maxNameLength: 8, maxLength: 60 });
const expectedIds = (
  products: readonly PlainProduct[],
  name: string | undefined,
  status: StockStatus | undefined,
) =>
  plainFilterIds(products, {
    ...(name === undefined ? {} : { name }),
    ...(status === undefined ? {} : { status }),
  });

describe('pagination, as a property over generated catalogues and queries', () => {
  it('following links.next visits every matching product exactly once, in id order', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryCatalog,
        fc.option(fc.string({ unit: NAME_CHARS, maxLength: 3 }), { nil: undefined }),
        fc.option(fc.constantFrom(...STOCK_STATUSES), { nil: undefined }),
        fc.integer({ min: 1, max: 100 }),
        async (products, name, status, limit) => {
          catalogs.replace(createCatalog('generated', products));
          const query = new URLSearchParams();
          if (name !== undefined) query.set('name', name);
          if (status !== undefined) query.set('status', status);
          query.set('limit', String(limit));
          const { ids, pages } = await walk(
            `${server.origin}/v1/stock?${query.toString()}`,
            QUANTITY_TOKEN,
          );
          expect(ids).toEqual(expectedIds(products, name, status));
          expect(pages.length).toBe(Math.max(1, Math.ceil(ids.length / limit)));
          expect(
            pages.every(
              (page) =>
                page.links.last ===
                pages.at(-1)?.links.first.replace(/page=1$/, `page=${String(pages.length)}`),
            ),
          ).toBe(true);
        },
      ),
      { numRuns: 60, seed: 20261121 },
    );
    catalogs.replace(createCatalog('shipped', shipped));
  });
});

describe('bad requests of every kind get a 4xx problem, never a 5xx', () => {
  const printable = fc.string({
    unit: fc.constantFrom(..."aZ09-_.~%&=+?/#:;,@!$'()*[] é€\u0000".split('')),
    maxLength: 12,
  });
  const queryKey = fc.oneof(
    fc.constantFrom('name', 'id', 'status', 'limit', 'page', 'stauts'),
    printable,
  );
  const queryValue = fc.oneof(
    fc.constantFrom(
      '0',
      '1',
      '-1',
      '100',
      '101',
      '1.5',
      '1e3',
      '9007199254740993',
      'available',
      '',
    ),
    printable,
  );
  const pathTail = fc.oneof(
    fc.constantFrom(
      '/v1/stock',
      '/v1/products',
      '/v1/stock/1',
      '/v1/products/0',
      '/healthz',
      '/v1',
      '/',
    ),
    printable.map((text) => `/v1/stock/${encodeURIComponent(text)}`),
    printable.map((text) => `/${encodeURIComponent(text)}`),
  );
  const headerValue = fc.string({
    unit: fc.constantFrom(...'aZ09 ;=,*/+-q.'.split('')),
    maxLength: 24,
  });

  it('answers random paths, queries and headers with a spec-conformant non-5xx response', async () => {
    await fc.assert(
      fc.asyncProperty(
        pathTail,
        fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }),
        fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE', 'PUT'),
        fc.option(fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*'), headerValue), {
          nil: undefined,
        }),
        fc.option(
          fc.oneof(
            fc.constantFrom(`Bearer ${STATUS_TOKEN}`, 'Bearer nope', 'Basic x'),
            headerValue,
          ),
          { nil: undefined },
        ),
        async (path, pairs, method, accept, authorization) => {
          const query = pairs
            .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
            .join('&');
          const headers: Record<string, string> = {};
          if (accept !== undefined) headers['accept'] = accept;
          if (authorization !== undefined) headers['authorization'] = authorization;
          const response = await server.fetch(`${path}${query === '' ? '' : `?${query}`}`, {
            method,
            headers,
          });
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400 && method !== 'HEAD') {
            expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          }
        },
      ),
      { numRuns: 300, seed: 4242 },
    );
  });

  it('a raw request with broken percent-encoding is a 400 problem', async () => {
    const response = await server.fetch('/v1/stock/%E0%A4%A', { headers: bearer(STATUS_TOKEN) });
    expect(response.status).toBe(400);
  });
});
