/**
 * The compatibility settings on a spec of a team's own, which has none of the shipped spec's
 * components: `pastTheEnd: not-found` gave its lists a 404 that referred to the shipped spec's
 * `NotFound` response, and the start failed on the missing reference.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { DEFAULT_COMPATIBILITY } from '../../src/compatibility/compatibility.ts';
import { applyCompatibility } from '../../src/spec/apply-compatibility.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';

const BILLING = fileURLToPath(new URL('../../examples/billing/', import.meta.url));
const SUPPORT = { authorization: 'Bearer support-demo-token' };

describe('settings on a spec of its own', () => {
  it('pastTheEnd: not-found answers a 404 that the served spec declares', async () => {
    const mock = await startStockmock({
      config: join(BILLING, 'stockmock.config.yaml'),
      compatibility: { pastTheEnd: 'not-found' },
    });
    try {
      const past = await fetch(`${mock.url}/v1/invoices?page=99`, { headers: SUPPORT });
      expect(past.status).toBe(404);
      expect(past.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const inside = await fetch(`${mock.url}/v1/invoices?page=2`, { headers: SUPPORT });
      expect(inside.status).toBe(200);
      // What it serves is what its spec, rewritten for the settings, declares.
      const spec = await loadSpec(join(BILLING, 'openapi.yaml'));
      const served = await applyCompatibility(spec, {
        ...DEFAULT_COMPATIBILITY,
        pastTheEnd: 'not-found',
      });
      for (const path of ['/v1/invoices', '/v1/customers']) {
        expect(Object.keys(served.dereferenced.paths?.[path]?.get?.responses ?? {})).toContain(
          '404',
        );
      }
    } finally {
      await mock.close();
    }
  });

  it('pastTheEnd: bad-request answers a 400 naming the page, which the lists declare', async () => {
    const mock = await startStockmock({
      config: join(BILLING, 'stockmock.config.yaml'),
      compatibility: { pastTheEnd: 'bad-request' },
    });
    try {
      const past = await fetch(`${mock.url}/v1/invoices?limit=20&page=4`, { headers: SUPPORT });
      expect(past.status).toBe(400);
      const body = (await past.json()) as { errors?: unknown };
      // 57 invoices (examples/billing/billing.yaml) make three pages of 20.
      expect(body.errors).toEqual([
        { parameter: 'page', in: 'query', message: 'is past the last page, 3' },
      ]);
      const inside = await fetch(`${mock.url}/v1/invoices?limit=20&page=3`, { headers: SUPPORT });
      expect(inside.status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
