/**
 * The server's own endpoints (issue 49, item 7): health and the served spec under
 * `/__stockmock/`, for every spec; the conventional paths too where the spec declares nothing
 * there, and the spec's own operation where it does.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { SHIPPED_SPEC } from '../../src/spec/load-spec.ts';

let mock: Awaited<ReturnType<typeof startStockmock>>;
beforeAll(async () => {
  mock = await startStockmock();
});
afterAll(() => mock.close());

describe("the server's own endpoints beside the shipped spec's", () => {
  it('answers its health with every collection, and leaves /healthz to the spec', async () => {
    const own = (await (await fetch(`${mock.url}/__stockmock/health`)).json()) as {
      status: string;
      collections: Record<string, number>;
    };
    const spec = (await (await fetch(`${mock.url}/healthz`)).json()) as Record<string, unknown>;
    // The shipped spec's /healthz is its own shape: {status, products}.
    expect(Object.keys(spec)).toEqual(['status', 'products']);
    expect(own).toStrictEqual({ status: 'ok', collections: { products: spec['products'] } });
  });

  it('serves the spec as JSON and YAML, with this server as its only server', async () => {
    const shipped = parse(await readFile(SHIPPED_SPEC, 'utf8')) as { info: unknown };
    const json = await fetch(`${mock.url}/__stockmock/openapi.json`);
    expect(json.headers.get('content-type')).toContain('application/json');
    const fromJson = (await json.json()) as { info: unknown; servers: unknown };
    const yaml = await fetch(`${mock.url}/__stockmock/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toContain('application/yaml');
    const fromYaml = parse(await yaml.text()) as { info: unknown; servers: unknown };
    for (const served of [fromJson, fromYaml]) {
      expect(served.info).toStrictEqual(shipped.info);
      expect(served.servers).toStrictEqual([{ url: mock.url, description: 'This stockmock' }]);
    }
  });

  it('is open to all: no token is asked', async () => {
    for (const path of ['health', 'openapi.json', 'openapi.yaml']) {
      expect((await fetch(`${mock.url}/__stockmock/${path}`)).status, path).toBe(200);
    }
  });

  it('answers another method with 405 and Allow', async () => {
    const response = await fetch(`${mock.url}/__stockmock/health`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });
});
