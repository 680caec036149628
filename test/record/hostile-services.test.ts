/** Smoke test of the hostile services: the correct one answers as the interface says, and every
 * faulty one starts and closes. */
import { describe, expect, it } from 'vitest';
import { startHostile, type Fault } from './hostile-services.ts';

const FAULTS: readonly Fault[] = [
  'none',
  'invalid-json-page',
  'next-loops',
  'duplicate-across-pages',
  'missing-key',
  'levels-disagree',
  'level-lacks-item',
  'unauthorized-quantity',
  'forbidden',
  'rate-limited-once',
  'next-off-origin',
  'products-changes',
];

interface ListBody {
  readonly data: readonly Record<string, unknown>[];
  readonly links: { readonly next: string | null };
}

describe('hostile services', () => {
  it("'none' serves five items and a next link at both levels", async () => {
    const service = await startHostile('none');
    try {
      for (const level of ['status', 'quantity'] as const) {
        const response = await fetch(`${service.url}/v1/stock?limit=5`, {
          headers: { authorization: `Bearer ${service.tokens[level]}` },
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as ListBody;
        expect(body.data).toHaveLength(5);
        expect(body.links.next).toBe(`${service.url}/v1/stock?limit=5&page=2`);
        expect('quantity' in (body.data[0] ?? {})).toBe(level === 'quantity');
      }
      expect(service.requests).toEqual([
        'GET /v1/stock?limit=5 status',
        'GET /v1/stock?limit=5 quantity',
      ]);
    } finally {
      await service.close();
    }
  });

  it("'none' answers 401 without a token", async () => {
    const service = await startHostile('none');
    try {
      const response = await fetch(`${service.url}/v1/stock`);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="hostile"');
      expect(await response.json()).toMatchObject({ status: 401 });
    } finally {
      await service.close();
    }
  });

  it.each(FAULTS)('%s starts and closes', async (fault) => {
    const service = await startHostile(fault);
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await service.close();
  });
});
