/**
 * Sanity of the independent servers over real HTTP: the reference answers as PRODUCT.md decides,
 * and every variant starts, answers and closes. The checker's own tests judge the variants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from './reference-server.ts';
import { INDEPENDENT_SERVERS, REFERENCE, type RunningServer } from './servers.ts';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed JSON body (undefined when the body is empty). */
  readonly json: unknown;
}

interface Call {
  readonly token?: 'status' | 'quantity' | 'none';
  readonly authorization?: string;
  readonly accept?: string;
  readonly method?: string;
}

async function call(server: RunningServer, pathOrUrl: string, options: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  const token = options.token ?? 'quantity';
  if (options.authorization !== undefined) headers['authorization'] = options.authorization;
  else if (token !== 'none') headers['authorization'] = `Bearer ${server.tokens[token]}`;
  if (options.accept !== undefined) headers['accept'] = options.accept;
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${server.url}${pathOrUrl}`;
  const response = await fetch(url, { method: options.method ?? 'GET', headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text === '' ? undefined : JSON.parse(text),
  };
}

interface StockItem {
  product_id: number;
  status: string;
  quantity?: number | null;
}
interface ListBody<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
}
interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: { parameter: string; in: string; message: string }[];
}

const list = <T = StockItem>(answer: Answer): ListBody<T> => answer.json as ListBody<T>;
const problem = (answer: Answer): Problem => answer.json as Problem;
const pageOf = (link: string | null): string | null =>
  link === null ? null : new URL(link).searchParams.get('page');

describe('the reference server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await REFERENCE.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves 10 items by default, ordered by id, with absolute links', async () => {
    const answer = await call(server, '/v1/stock');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const body = list(answer);
    expect(body.data).toHaveLength(10);
    const ids = body.data.map((item) => item.product_id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(body.links.first).toBe(`${server.url}/v1/stock?page=1`);
    expect(body.links.last).toBe(`${server.url}/v1/stock?page=6`);
    expect(body.links.prev).toBeNull();
    expect(body.links.next).toBe(`${server.url}/v1/stock?page=2`);
  });

  it('walks every item exactly once by following next, keeping filters and limit', async () => {
    const seen: number[] = [];
    let next: string | null = `${server.url}/v1/stock?limit=7`;
    while (next !== null) {
      const body: ListBody<StockItem> = list(await call(server, next));
      seen.push(...body.data.map((item) => item.product_id));
      if (body.links.next !== null) expect(body.links.next).toContain('limit=7');
      next = body.links.next;
    }
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const filtered = list(await call(server, '/v1/stock?name=table&limit=3&page=2'));
    expect(new URL(filtered.links.next ?? '').searchParams.get('name')).toBe('table');
  });

  it('ends exactly when the limit divides the total, and answers past the end with 200', async () => {
    const last = list(await call(server, '/v1/stock?limit=10&page=6'));
    expect(last.data).toHaveLength(10);
    expect(last.links.next).toBeNull();
    expect(pageOf(last.links.last)).toBe('6');
    const past = await call(server, '/v1/stock?limit=10&page=7');
    expect(past.status).toBe(200);
    expect(list(past).data).toEqual([]);
    expect(list(past).links.next).toBeNull();
    expect(pageOf(list(past).links.prev)).toBe('6');
  });

  it('answers an empty filtered list with one empty page', async () => {
    const body = list(await call(server, '/v1/stock?name=no-such-name'));
    expect(body.data).toEqual([]);
    expect(pageOf(body.links.first)).toBe('1');
    expect(pageOf(body.links.last)).toBe('1');
    expect(body.links.prev).toBeNull();
    expect(body.links.next).toBeNull();
  });

  it('filters names literally and case-insensitively, with Unicode folding', async () => {
    const names = async (needle: string): Promise<string[]> => {
      const answer = await call(
        server,
        `/v1/products?limit=100&name=${encodeURIComponent(needle)}`,
      );
      return list<{ name: string }>(answer).data.map((record) => record.name);
    };
    expect(await names('%')).toEqual(['100% wool blanket']);
    expect(await names('_')).toEqual(['snake_case sign', '50_50 tray']);
    expect(await names('(')).toEqual(['Chair (folding)']);
    expect(await names('.')).toEqual(['Lamp 3.5 W bulb', 'Dots... shelf']);
    expect(await names('*')).toEqual(['Star*light lantern', 'Glob [a-z]* poster']);
    // Composed and decomposed é are one character to a reader: 'Café chair' is decomposed.
    expect(await names('\u00e9')).toEqual([
      'Caf\u00e9 table',
      'CAF\u00c9 SIGN',
      'Cafe\u0301 chair',
    ]);
    expect(await names('STRASSE')).toEqual(['Stra\u00dfe map', 'STRASSE poster']);
    expect(await names('\u03c3 ')).toEqual([
      '\u039a\u039f\u03a3\u039c\u039f\u03a3 rug',
      '\u039a\u03bf\u03c3\u03bc\u03bf\u03c2 mat',
    ]);
  });

  it('filters by status and id, combined with AND', async () => {
    const incoming = list(await call(server, '/v1/stock?status=incoming&limit=100'));
    expect(incoming.data).toHaveLength(12);
    expect(incoming.data.every((item) => item.status === 'incoming')).toBe(true);
    const first = list(await call(server, '/v1/stock?limit=1')).data[0];
    const byId = list(await call(server, `/v1/stock?id=${first?.product_id ?? 0}`));
    expect(byId.data).toEqual([first]);
    const both = list(await call(server, `/v1/stock?id=${first?.product_id ?? 0}&status=incoming`));
    expect(first?.status).not.toBe('incoming');
    expect(both.data).toEqual([]);
  });

  it('shows each level its fields, and single items equal to list items', async () => {
    const asStatus = list(await call(server, '/v1/stock?limit=100', { token: 'status' })).data;
    expect(asStatus.every((item) => Object.keys(item).join() === 'product_id,status')).toBe(true);
    const asQuantity = list(await call(server, '/v1/stock?limit=100')).data;
    expect(asQuantity.every((i) => Object.keys(i).join() === 'product_id,quantity,status')).toBe(
      true,
    );
    expect(asQuantity.some((item) => item.quantity === null)).toBe(true);
    expect(asQuantity.some((item) => item.quantity === 0)).toBe(true);
    for (const item of asQuantity.slice(0, 4)) {
      const single = await call(server, `/v1/stock/${item.product_id}`);
      expect(single.json).toEqual({ data: item });
    }
    const records = list<Record<string, unknown>>(await call(server, '/v1/products?limit=2')).data;
    expect(typeof records[0]?.['id']).toBe('number');
    expect(typeof records[0]?.['name']).toBe('string');
    expect(records[0]).not.toHaveProperty('quantity');
    const record = await call(server, `/v1/products/${String(records[0]?.['id'])}`);
    expect(record.json).toEqual({ data: records[0] });
  });

  it('answers bad parameters with a 400 problem naming each of them', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=1.5', 'page=0', 'status=nope']) {
      const answer = await call(server, `/v1/stock?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect(problem(answer).status).toBe(400);
      expect(typeof problem(answer).title).toBe('string');
    }
    const several = problem(await call(server, '/v1/stock?stauts=x&limit=2&limit=3'));
    expect(several.errors?.map((error) => error.parameter).sort()).toEqual(['limit', 'stauts']);
    const onProducts = problem(await call(server, '/v1/products?status=available'));
    expect(onProducts.errors?.map((error) => [error.parameter, error.in])).toEqual([
      ['status', 'query'],
    ]);
    expect((await call(server, '/v1/stock/abc')).status).toBe(400);
    expect((await call(server, '/v1/stock/0')).status).toBe(400);
    const unknown = await call(server, '/v1/stock/1');
    expect(unknown.status).toBe(404);
    expect(problem(unknown).status).toBe(404);
    expect(problem(unknown).type).toBe('urn:problem-type:stockmock:not-found');
  });

  it('challenges missing and unknown tokens, and reads the scheme leniently', async () => {
    const missing = await call(server, '/v1/stock', { token: 'none' });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="stockmock"');
    const unknown = await call(server, '/v1/stock', { authorization: 'Bearer nope' });
    expect(unknown.headers.get('www-authenticate')).toBe(
      'Bearer realm="stockmock", error="invalid_token"',
    );
    const token = server.tokens.status;
    for (const authorization of [`bearer ${token}`, `BEARER ${token}`, `Bearer   ${token}`]) {
      expect((await call(server, '/v1/stock', { authorization })).status, authorization).toBe(200);
    }
  });

  it('negotiates Accept', async () => {
    for (const accept of [
      'application/json; charset=utf-8',
      '*/*',
      'application/*',
      'text/html, application/json',
    ]) {
      expect((await call(server, '/v1/stock', { accept })).status, accept).toBe(200);
    }
    for (const accept of ['text/html', 'application/json;q=0, text/plain']) {
      expect((await call(server, '/v1/stock', { accept })).status, accept).toBe(406);
    }
  });

  it('answers HEAD like GET without a body, and other methods with 405 and Allow', async () => {
    const get = await call(server, '/v1/stock/2');
    const head = await call(server, '/v1/stock/2', { method: 'HEAD' });
    expect(head.status).toBe(get.status);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await call(server, '/v1/stock', { method });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toMatch(/GET, HEAD/);
    }
  });

  it('serves the edge catalogues', async () => {
    const seven = await startReferenceServer({ catalogue: 'seven' });
    const hundred = await startReferenceServer({ catalogue: 'hundred' });
    try {
      const one = list(await call(seven, '/v1/stock'));
      expect(one.data).toHaveLength(7);
      expect(one.links.next).toBeNull();
      expect(pageOf(one.links.last)).toBe('1');
      const all = list(await call(hundred, '/v1/stock?limit=100'));
      expect(all.data).toHaveLength(100);
      expect(all.links.next).toBeNull();
    } finally {
      await seven.close();
      await hundred.close();
    }
  });
});

describe('the variants', () => {
  it('are named uniquely, with enough of each kind and honest levels', () => {
    const names = INDEPENDENT_SERVERS.map((server) => server.name);
    expect(new Set(names).size).toBe(names.length);
    expect(INDEPENDENT_SERVERS.filter((s) => s.kind === 'broken').length).toBeGreaterThanOrEqual(
      45,
    );
    const different = INDEPENDENT_SERVERS.filter((s) => s.kind === 'different');
    expect(different.length).toBeGreaterThanOrEqual(10);
    expect(different.every((s) => s.level === 'stand-in')).toBe(true);
  });

  it('each starts, answers GET /v1/stock with its status token, and closes', async () => {
    for (const variant of INDEPENDENT_SERVERS) {
      const running = await variant.start();
      try {
        const answer = await fetch(`${running.url}/v1/stock`, {
          headers: {
            authorization: `Bearer ${running.tokens.status}`,
            accept: 'application/json',
          },
        });
        await answer.arrayBuffer();
        expect(answer.status, variant.name).toBe(200);
      } finally {
        await running.close();
      }
    }
  });
});
