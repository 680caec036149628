/**
 * Sanity of the independent servers over real HTTP: the reference answers as PRODUCT.md decides,
 * and every variant starts, answers and closes. The checker's own tests judge the variants.
 */
import { get, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKEN_EDGES } from './broken-edges.ts';
import { ROUND6_STOCK } from './broken-round6.ts';
import { ROUND7_STOCK } from './broken-round7.ts';
import { ROUND8_STOCK } from './broken-round8.ts';
import { makeCatalogue, type Product } from './catalogue.ts';
import { DIFFERENT_MORE } from './different-more.ts';
import { startReferenceServer } from './reference-server.ts';
import { INDEPENDENT_SERVERS, REFERENCE, type RunningServer, type VariantSpec } from './servers.ts';

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
        // Header names as curl writes them: fetch would lower their case, which one variant
        // (names matched case-sensitively) refuses on purpose.
        const status = await new Promise<number | undefined>((resolve, reject) => {
          get(
            `${running.url}/v1/stock`,
            {
              headers: {
                Authorization: `Bearer ${running.tokens.status}`,
                Accept: 'application/json',
              },
            },
            (answer) => {
              answer.resume();
              answer.on('end', () => {
                resolve(answer.statusCode);
              });
            },
          ).on('error', reject);
        });
        expect(status, variant.name).toBe(200);
      } finally {
        await running.close();
      }
    }
  });
});

interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The bytes as sent: not decompressed, header values not normalized by fetch. */
  readonly body: Buffer;
}

/** One request over node:http, for what fetch would hide or refuse. */
function raw(
  server: RunningServer,
  path: string,
  method = 'GET',
  headers: Readonly<Record<string, string>> = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${server.url}${path}`, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          body: Buffer.concat(chunks),
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Starts the variant named `name` of `specs`, runs `use` on it, and closes it. */
async function withVariant(
  specs: readonly VariantSpec[],
  name: string,
  use: (server: RunningServer) => Promise<void>,
): Promise<void> {
  const spec = specs.find((s) => s.name === name);
  if (spec === undefined) throw new Error(`No variant is named "${name}".`);
  const server = await startReferenceServer(
    typeof spec.options === 'function' ? spec.options() : spec.options,
  );
  try {
    await use(server);
  } finally {
    await server.close();
  }
}

const bearer = (token: string): Call => ({ authorization: `Bearer ${token}` });
const names = (answer: Answer): string[] =>
  list<{ name: string }>(answer).data.map((record) => record.name);

describe('the new variants, as data', () => {
  it('are named uniquely among all variants, with the kind and level asked', () => {
    const added = [...BROKEN_EDGES, ...DIFFERENT_MORE].map((s) => s.name);
    expect(new Set(added).size).toBe(added.length);
    const others = INDEPENDENT_SERVERS.map((s) => s.name).filter((name) => !added.includes(name));
    expect(others.filter((name) => added.includes(name))).toEqual([]);
    expect(BROKEN_EDGES).toHaveLength(13);
    expect(BROKEN_EDGES.every((s) => s.kind === 'broken' && s.level === 'interface')).toBe(true);
    expect(DIFFERENT_MORE).toHaveLength(9);
    expect(DIFFERENT_MORE.every((s) => s.kind === 'different' && s.level === 'stand-in')).toBe(
      true,
    );
    expect([...BROKEN_EDGES, ...DIFFERENT_MORE].every((s) => s.rule.length > 40)).toBe(true);
  });
});

describe('the edge variants (broken)', () => {
  let reference: RunningServer;
  beforeAll(async () => {
    reference = await REFERENCE.start();
  });
  afterAll(async () => {
    await reference.close();
  });

  it('page past 2^31 crashes with 500', async () => {
    expect((await call(reference, '/v1/stock?page=2147483648')).status).toBe(200);
    await withVariant(BROKEN_EDGES, 'page past 2^31 crashes with 500', async (server) => {
      expect((await call(server, '/v1/stock?page=2147483647')).status).toBe(200);
      expect((await call(server, '/v1/stock?page=2147483648')).status).toBe(500);
      expect((await call(server, '/v1/stock?page=99999999999')).status).toBe(500);
    });
  });

  it('empty bearer token crashes with 500', async () => {
    for (const authorization of ['Bearer', 'Bearer    ']) {
      const headers = { authorization };
      expect((await raw(reference, '/v1/stock', 'GET', headers)).status, authorization).toBe(401);
    }
    await withVariant(BROKEN_EDGES, 'empty bearer token crashes with 500', async (server) => {
      for (const authorization of ['Bearer', 'Bearer    ', 'bearer ']) {
        const headers = { authorization };
        expect((await raw(server, '/v1/stock', 'GET', headers)).status, authorization).toBe(500);
      }
      expect((await call(server, '/v1/stock', { token: 'none' })).status).toBe(401);
      expect((await call(server, '/v1/stock', bearer('nope'))).status).toBe(401);
    });
  });

  it('plain OPTIONS crashes with 500', async () => {
    const preflight = {
      origin: 'http://client.example',
      'access-control-request-method': 'GET',
    };
    expect((await raw(reference, '/v1/stock', 'OPTIONS')).status).toBe(204);
    await withVariant(BROKEN_EDGES, 'plain OPTIONS crashes with 500', async (server) => {
      expect((await raw(server, '/v1/stock', 'OPTIONS')).status).toBe(500);
      expect((await raw(server, '/v1/stock/2', 'OPTIONS')).status).toBe(500);
      expect((await raw(server, '/v1/stock', 'OPTIONS', preflight)).status).toBe(204);
    });
  });

  it('token accepted by prefix', async () => {
    const token = `${reference.tokens.quantity}X`;
    expect((await call(reference, '/v1/stock', bearer(token))).status).toBe(401);
    await withVariant(BROKEN_EDGES, 'token accepted by prefix', async (server) => {
      const answer = await call(server, '/v1/stock', bearer(`${server.tokens.quantity}X`));
      expect(answer.status).toBe(200);
      expect(list(answer).data[0]).toHaveProperty('quantity');
      expect((await call(server, '/v1/stock', bearer('X'))).status).toBe(401);
    });
  });

  it('token accepted in another case', async () => {
    const upper = reference.tokens.status.toUpperCase();
    expect(upper).not.toBe(reference.tokens.status);
    expect((await call(reference, '/v1/stock', bearer(upper))).status).toBe(401);
    await withVariant(BROKEN_EDGES, 'token accepted in another case', async (server) => {
      expect((await call(server, '/v1/stock', bearer(upper))).status).toBe(200);
      expect((await call(server, '/v1/stock', bearer(`${upper}X`))).status).toBe(401);
    });
  });

  it('Basic credentials served at the status level', async () => {
    const basic: Call = { authorization: 'Basic dXNlcjpwYXNz' };
    expect((await call(reference, '/v1/stock', basic)).status).toBe(401);
    await withVariant(BROKEN_EDGES, 'Basic credentials served at the status level', async (s) => {
      const answer = await call(s, '/v1/stock', basic);
      expect(answer.status).toBe(200);
      expect(Object.keys(list(answer).data[0] ?? {})).toEqual(['product_id', 'status']);
    });
  });

  it('Allow names a method that answers 405', async () => {
    await withVariant(BROKEN_EDGES, 'Allow names a method that answers 405', async (server) => {
      const answer = await call(server, '/v1/stock', { method: 'DELETE' });
      expect(answer.status).toBe(405);
      const allowed = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allowed).toContain('PUT');
      expect((await call(server, '/v1/stock', { method: 'PUT' })).status).toBe(405);
    });
  });

  it('HEAD has Content-Length 0', async () => {
    await withVariant(BROKEN_EDGES, 'HEAD has Content-Length 0', async (server) => {
      const known = { authorization: `Bearer ${server.tokens.status}` };
      const unknown = { authorization: 'Bearer nope' };
      for (const [path, headers] of [
        ['/v1/stock', known],
        ['/v1/stock/2', known],
        ['/v1/stock', unknown],
      ] as const) {
        const get = await raw(server, path, 'GET', headers);
        const head = await raw(server, path, 'HEAD', headers);
        expect(get.body.length, path).toBeGreaterThan(0);
        expect(get.headers['content-length'], path).toBe(String(get.body.length));
        expect(head.status, path).toBe(get.status);
        expect(head.headers['content-length'], path).toBe('0');
      }
    });
  });

  it('links write spaces as + that the server reads literally', async () => {
    const path = '/v1/products?name=oak%20chair&limit=1';
    const fromReference = list(await call(reference, path));
    expect(fromReference.links.next).toContain('name=oak+chair');
    expect(list(await call(reference, fromReference.links.next ?? '')).data).toHaveLength(1);
    const name = 'links write spaces as + that the server reads literally';
    await withVariant(BROKEN_EDGES, name, async (server) => {
      const first = list(await call(server, path));
      expect(first.data).toHaveLength(1);
      expect(first.links.next).toContain('name=oak+chair');
      expect(list(await call(server, first.links.next ?? '')).data).toEqual([]);
      expect(names(await call(server, '/v1/products?name=C%2B%2B'))).toEqual([
        'C++ desk organiser',
      ]);
    });
  });

  it('links encode the name filter twice', async () => {
    await withVariant(BROKEN_EDGES, 'links encode the name filter twice', async (server) => {
      const first = list(await call(server, '/v1/products?name=oak%20chair&limit=1'));
      expect(first.data).toHaveLength(1);
      expect(first.links.next).toContain('name=oak%2520chair');
      expect(list(await call(server, first.links.next ?? '')).data).toEqual([]);
      const plain = list(await call(server, '/v1/products?name=table&limit=1'));
      expect(list(await call(server, plain.links.next ?? '')).data).toHaveLength(1);
    });
  });

  it('name filter trims its needle', async () => {
    expect(names(await call(reference, '/v1/products?name=table%20'))).toEqual([]);
    await withVariant(BROKEN_EDGES, 'name filter trims its needle', async (server) => {
      expect(names(await call(server, '/v1/products?name=table%20')).length).toBeGreaterThan(0);
      expect(names(await call(server, '/v1/products?name=%20%20%20')).length).toBe(10);
    });
  });

  it('name filter also matches ids as text', async () => {
    const all = list<{ id: number; name: string }>(
      await call(reference, '/v1/products?limit=100'),
    ).data;
    const needle = all
      .map((record) => String(record.id))
      .find((text) => all.every((record) => !record.name.includes(text)));
    expect(needle).toBeDefined();
    const path = `/v1/stock?name=${needle ?? ''}`;
    expect(list(await call(reference, path)).data).toEqual([]);
    await withVariant(BROKEN_EDGES, 'name filter also matches ids as text', async (server) => {
      const ids = list(await call(server, path)).data.map((item) => String(item.product_id));
      expect(ids).toContain(needle);
    });
  });

  it('empty name filter matches nothing', async () => {
    expect(list(await call(reference, '/v1/stock?name=')).data).toHaveLength(10);
    await withVariant(BROKEN_EDGES, 'empty name filter matches nothing', async (server) => {
      expect(list(await call(server, '/v1/stock?name=')).data).toEqual([]);
      expect(list(await call(server, '/v1/stock?name=oak')).data.length).toBeGreaterThan(0);
    });
  });
});

describe('the different-more variants (correct)', () => {
  it('challenge with error_description and scope', async () => {
    await withVariant(DIFFERENT_MORE, 'challenge with error_description and scope', async (s) => {
      const unknown = await call(s, '/v1/stock', bearer('nope'));
      expect(unknown.status).toBe(401);
      const challenge = unknown.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer realm="stockmock", error="invalid_token", /);
      expect(challenge).toMatch(/error_description="[^"]+"/);
      expect(challenge).toContain('scope="stock"');
      const missing = await call(s, '/v1/stock', { token: 'none' });
      expect(missing.headers.get('www-authenticate')).toBe(
        'Bearer realm="stockmock", scope="stock"',
      );
    });
  });

  it('reserved stock: a few explicit statuses disagree with the quantity', async () => {
    const name = 'reserved stock: a few explicit statuses disagree with the quantity';
    await withVariant(DIFFERENT_MORE, name, async (server) => {
      const items = list(await call(server, '/v1/stock?limit=100')).data;
      expect(items).toHaveLength(60);
      const derived = (quantity: number | null | undefined): string =>
        quantity === null || quantity === undefined
          ? 'on_request'
          : quantity > 0
            ? 'available'
            : 'out_of_stock';
      const disagreeing = items.filter(
        (item) => item.status !== 'incoming' && item.status !== derived(item.quantity),
      );
      expect(disagreeing).toHaveLength(3);
      expect(disagreeing.every((i) => i.status === 'out_of_stock' && (i.quantity ?? 0) > 0)).toBe(
        true,
      );
      const reference = await REFERENCE.start();
      try {
        const asStatus = '/v1/stock?limit=100';
        const statuses = list(await call(server, asStatus, { token: 'status' })).data;
        expect(statuses).toEqual(list(await call(reference, asStatus, { token: 'status' })).data);
      } finally {
        await reference.close();
      }
    });
  });

  it('order by lower-cased name', async () => {
    await withVariant(DIFFERENT_MORE, 'order by lower-cased name', async (server) => {
      const records = list<{ id: number; name: string }>(
        await call(server, '/v1/products?limit=100'),
      ).data;
      const key = (r: { id: number; name: string }): string => r.name.toLowerCase();
      const expected = [...records].sort((a, b) =>
        key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id,
      );
      expect(records.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      const byName = [...records].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id,
      );
      expect(records.map((r) => r.id)).not.toEqual(byName.map((r) => r.id));
      const walked: number[] = [];
      let next: string | null = `${server.url}/v1/products?limit=7`;
      while (next !== null) {
        const page: ListBody<{ id: number }> = list(await call(server, next));
        walked.push(...page.data.map((r) => r.id));
        next = page.links.next;
      }
      expect(walked).toEqual(records.map((r) => r.id));
    });
  });

  it('order by locale collation', async () => {
    await withVariant(DIFFERENT_MORE, 'order by locale collation', async (server) => {
      const records = list<{ id: number; name: string }>(
        await call(server, '/v1/products?limit=100'),
      ).data;
      const nameOf = new Map(records.map((r) => [r.id, r.name]));
      const walked: number[] = [];
      let next: string | null = `${server.url}/v1/stock?limit=100`;
      while (next !== null) {
        const page: ListBody<StockItem> = list(await call(server, next));
        walked.push(...page.data.map((item) => item.product_id));
        next = page.links.next;
      }
      expect(walked).toHaveLength(60);
      // The CLDR root order; 'und' would resolve to the machine's default locale (ECMA-402),
      // and English has no tailoring of the root collation.
      const collator = new Intl.Collator('en');
      const idsBy = (compare: (a: string, b: string) => number): number[] =>
        [...walked].sort((a, b) => compare(nameOf.get(a) ?? '', nameOf.get(b) ?? '') || a - b);
      expect(walked).toEqual(idsBy((a, b) => collator.compare(a, b)));
      expect(records.map((r) => r.id)).toEqual(walked);
      const codeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
      expect(walked).not.toEqual(idsBy(codeUnits));
      expect(walked).not.toEqual(idsBy((a, b) => codeUnits(a.toLowerCase(), b.toLowerCase())));
    });
  });

  it('one problem type URI per problem, no common base', async () => {
    const name = 'one problem type URI per problem, no common base';
    await withVariant(DIFFERENT_MORE, name, async (server) => {
      const types = {
        400: problem(await call(server, '/v1/stock?limit=0')).type,
        401: problem(await call(server, '/v1/stock', { token: 'none' })).type,
        404: problem(await call(server, '/v1/stock/1')).type,
        405: problem(await call(server, '/v1/stock', { method: 'DELETE' })).type,
        406: problem(await call(server, '/v1/stock', { accept: 'text/html' })).type,
      };
      expect(types).toEqual({
        400: 'https://a.example/bad-request',
        401: 'https://errors.b.example/auth',
        404: 'tag:example.com,2026:not-found',
        405: 'https://methods.c.example/not-allowed',
        406: 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66',
      });
      expect(problem(await call(server, '/v1/stock/1')).title).toBe('Not found');
    });
  });

  it('string product_id in stock objects, integer record ids', async () => {
    const name = 'string product_id in stock objects, integer record ids';
    await withVariant(DIFFERENT_MORE, name, async (server) => {
      const stock = list<{ product_id: unknown }>(await call(server, '/v1/stock?limit=3')).data;
      expect(stock.every((item) => typeof item.product_id === 'string')).toBe(true);
      const first = stock[0];
      expect(String(first?.product_id)).toMatch(/^\d+$/);
      const single = await call(server, `/v1/stock/${String(first?.product_id)}`);
      expect(single.json).toEqual({ data: first });
      const records = list<{ id: unknown }>(await call(server, '/v1/products?limit=3')).data;
      expect(records.every((record) => typeof record.id === 'number')).toBe(true);
    });
  });

  it('gzip when asked', async () => {
    await withVariant(DIFFERENT_MORE, 'gzip when asked', async (server) => {
      const auth = { authorization: `Bearer ${server.tokens.quantity}` };
      const plain = await raw(server, '/v1/stock', 'GET', auth);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['vary']).toMatch(/Accept-Encoding/);
      const asked = { ...auth, 'accept-encoding': 'gzip, deflate' };
      const zipped = await raw(server, '/v1/stock', 'GET', asked);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['vary']).toMatch(/Accept-Encoding/);
      expect(zipped.headers['content-length']).toBe(String(zipped.body.length));
      expect(JSON.parse(gunzipSync(zipped.body).toString('utf8'))).toEqual(
        JSON.parse(plain.body.toString('utf8')),
      );
      const head = await raw(server, '/v1/stock', 'HEAD', asked);
      expect(head.headers['content-length']).toBe(String(zipped.body.length));
      const refused = await raw(server, '/v1/stock', 'GET', {
        ...auth,
        'accept-encoding': 'gzip;q=0, identity',
      });
      expect(refused.headers['content-encoding']).toBeUndefined();
      const problemZipped = await raw(server, '/v1/stock/1', 'GET', asked);
      expect(problemZipped.status).toBe(404);
      expect(JSON.parse(gunzipSync(problemZipped.body).toString('utf8'))).toHaveProperty(
        'status',
        404,
      );
      expect((await call(server, '/v1/stock')).status).toBe(200);
    });
  });

  it('pretty-printed JSON with extra headers', async () => {
    await withVariant(DIFFERENT_MORE, 'pretty-printed JSON with extra headers', async (server) => {
      const one = await call(server, '/v1/stock?limit=2');
      const two = await call(server, '/v1/stock?limit=2');
      expect(one.text.startsWith('{\n  "data": [\n    {\n      "product_id": ')).toBe(true);
      expect(one.text).toBe(JSON.stringify(one.json, null, 2));
      expect(one.headers.get('cache-control')).toBe('no-store');
      expect(one.headers.get('x-request-id')).toMatch(/\S/);
      expect(one.headers.get('x-request-id')).not.toBe(two.headers.get('x-request-id'));
      const missing = await call(server, '/v1/stock', { token: 'none' });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('x-request-id')).toMatch(/\S/);
      expect(missing.text).toContain('\n  "status": 401');
    });
  });
});

describe('the round 6 variants (broken), against the reference', () => {
  let reference: RunningServer;
  beforeAll(async () => {
    reference = await REFERENCE.start();
  });
  afterAll(async () => {
    await reference.close();
  });
  const ids = (answer: Answer) =>
    (answer.json as ListBody<StockItem>).data.map((item) => item.product_id);

  it('non-BMP needle crashes with 500', async () => {
    expect((await call(reference, '/v1/stock?name=%F0%9F%9A%80')).status).toBe(200);
    await withVariant(ROUND6_STOCK, 'non-BMP needle crashes with 500', async (server) => {
      expect((await call(server, '/v1/stock?name=%F0%9F%9A%80')).status).toBe(500);
      expect((await call(server, '/v1/stock?name=Rattan')).status).toBe(200);
    });
  });

  it('filtered HEAD reports the unfiltered length', async () => {
    const asked = '/v1/stock?status=incoming&limit=3';
    const length = async (server: RunningServer, method: string, path: string) =>
      (await call(server, path, { method })).headers.get('content-length');
    expect(await length(reference, 'HEAD', asked)).toBe(await length(reference, 'GET', asked));
    await withVariant(
      ROUND6_STOCK,
      'filtered HEAD reports the unfiltered length',
      async (server) => {
        expect(await length(server, 'HEAD', asked)).toBe(await length(server, 'GET', '/v1/stock'));
        expect(await length(server, 'HEAD', asked)).not.toBe(await length(server, 'GET', asked));
      },
    );
  });

  it('name needle cut to 16 characters', async () => {
    const needle = `/v1/stock?name=${encodeURIComponent('Oak dining tables')}`;
    expect(ids(await call(reference, needle))).toEqual([]);
    await withVariant(ROUND6_STOCK, 'name needle cut to 16 characters', async (server) => {
      expect(ids(await call(server, needle))).not.toEqual([]);
      expect(ids(await call(server, '/v1/stock?name=Oak%20dining%20table'))).toEqual(
        ids(await call(reference, '/v1/stock?name=Oak%20dining%20table')),
      );
    });
  });

  it('page read before limit', async () => {
    const right = ids(await call(reference, '/v1/stock?limit=5&page=2'));
    expect(ids(await call(reference, '/v1/stock?page=2&limit=5'))).toEqual(right);
    await withVariant(ROUND6_STOCK, 'page read before limit', async (server) => {
      expect(ids(await call(server, '/v1/stock?limit=5&page=2'))).toEqual(right);
      expect(ids(await call(server, '/v1/stock?page=2&limit=5'))).not.toEqual(right);
    });
  });
});

interface ConnectionAnswer {
  readonly status: number;
  readonly json: unknown;
}

/**
 * Several requests, one after the other, on one kept-alive TCP connection: each is written once
 * the answer to the one before has arrived whole (its Content-Length read). `authorization`
 * undefined sends none.
 */
function oneConnection(
  server: RunningServer,
  requests: readonly { readonly path: string; readonly authorization?: string }[],
): Promise<ConnectionAnswer[]> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const answers: ConnectionAnswer[] = [];
    let received = Buffer.alloc(0);
    const write = (index: number) => {
      const request = requests[index];
      if (request === undefined) {
        socket.end();
        resolve(answers);
        return;
      }
      const lines = [`GET ${request.path} HTTP/1.1`, `Host: ${hostname}:${port}`];
      if (request.authorization !== undefined) {
        lines.push(`Authorization: ${request.authorization}`);
      }
      lines.push('Accept: application/json', 'Connection: keep-alive', '', '');
      socket.write(lines.join('\r\n'));
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = received.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? '')?.[1]);
      const lengthLine = head.find((line) => /^content-length:/i.test(line));
      const length = Number(lengthLine?.split(':')[1]?.trim() ?? '0');
      if (received.length < end + 4 + length) return;
      const body = received.subarray(end + 4, end + 4 + length).toString('utf8');
      received = received.subarray(end + 4 + length);
      answers.push({ status, json: body === '' ? undefined : JSON.parse(body) });
      write(answers.length);
    });
    socket.on('error', reject);
    socket.on('connect', () => {
      write(0);
    });
  });
}

describe('the round 7 variants (broken), against the reference', () => {
  let reference: RunningServer;
  beforeAll(async () => {
    reference = await REFERENCE.start();
  });
  afterAll(async () => {
    await reference.close();
  });
  /** The default catalogue's ids in PRODUCT.md's order (by id, ascending). */
  const catalogueIds = makeCatalogue('default')
    .map((product) => product.id)
    .sort((a, b) => a - b);
  const ids = (answer: Answer) => list(answer).data.map((item) => item.product_id);
  const badParameters = (answer: Answer) =>
    (problem(answer).errors ?? []).map((error) => error.parameter);

  it('empty value read as absent', async () => {
    // PRODUCT.md: an invalid value (an empty one is no integer) is a 400 naming the parameter.
    for (const name of ['id', 'limit']) {
      const answer = await call(reference, `/v1/stock?${name}=`);
      expect(answer.status, name).toBe(400);
      expect(badParameters(answer), name).toEqual([name]);
    }
    await withVariant(ROUND7_STOCK, 'empty value read as absent', async (server) => {
      // As if absent: the first page of the unfiltered list, at the default size 10.
      const firstTen = catalogueIds.slice(0, 10);
      for (const path of ['/v1/stock?id=', '/v1/stock?limit=']) {
        const answer = await call(server, path);
        expect(answer.status, path).toBe(200);
        expect(ids(answer), path).toEqual(firstTen);
      }
      // Every other bad value is still a 400.
      for (const path of [
        '/v1/stock?id=x',
        '/v1/stock?limit=0',
        '/v1/stock?page=',
        '/v1/stock?id=&id=2',
      ]) {
        expect((await call(server, path)).status, path).toBe(400);
      }
    });
  });

  it('level kept for the connection', async () => {
    const quantity = `Bearer ${reference.tokens.quantity}`;
    const status = `Bearer ${reference.tokens.status}`;
    const id = catalogueIds[0] ?? 0;
    const path = `/v1/stock/${id}`;
    const hasQuantity = (answer: ConnectionAnswer | undefined) =>
      Object.keys((answer?.json as { data?: object } | undefined)?.data ?? {}).includes('quantity');
    const sequence = [{ path, authorization: quantity }, { path }, { path, authorization: status }];
    // Each request on its own: quantity view, 401, status view.
    const right = await oneConnection(reference, sequence);
    expect(right.map((answer) => answer.status)).toEqual([200, 401, 200]);
    expect(hasQuantity(right[0])).toBe(true);
    expect(hasQuantity(right[2])).toBe(false);
    await withVariant(ROUND7_STOCK, 'level kept for the connection', async (server) => {
      // The first request's quantity level answers the two later ones on the same connection.
      const kept = await oneConnection(server, sequence);
      expect(kept.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(hasQuantity(kept[1])).toBe(true);
      expect(hasQuantity(kept[2])).toBe(true);
      // New connections are answered as the reference answers them.
      expect((await oneConnection(server, [{ path }]))[0]?.status).toBe(401);
      const fresh = await oneConnection(server, [{ path, authorization: status }]);
      expect(fresh[0]?.status).toBe(200);
      expect(hasQuantity(fresh[0])).toBe(false);
    });
  });

  it('id filter ignores page', async () => {
    const id = catalogueIds[0] ?? 0;
    // A list of one product: page 1 holds it, page 2 is past the end (200, empty).
    expect(ids(await call(reference, `/v1/stock?id=${id}`))).toEqual([id]);
    const past = await call(reference, `/v1/stock?id=${id}&page=2`);
    expect(past.status).toBe(200);
    expect(ids(past)).toEqual([]);
    await withVariant(ROUND7_STOCK, 'id filter ignores page', async (server) => {
      expect(ids(await call(server, `/v1/stock?id=${id}`))).toEqual([id]);
      const again = await call(server, `/v1/stock?id=${id}&page=2`);
      expect(again.status).toBe(200);
      expect(ids(again)).toEqual([id]);
      // Without id the page still counts: page 2 at limit 5 holds the 6th to 10th ids.
      expect(ids(await call(server, '/v1/stock?limit=5&page=2'))).toEqual(
        catalogueIds.slice(5, 10),
      );
    });
  });
});

interface WireAnswer {
  /** The bytes received since the request was written, as Latin-1 text. */
  readonly received: string;
  /** Whether the server had closed the connection when the answer settled. */
  readonly closed: boolean;
}

interface Wire {
  /**
   * Writes exact bytes; settles once the server closes the connection, or once it has been quiet
   * for a while after answering (or has not answered at all within 5 s).
   */
  send(bytes: string): Promise<WireAnswer>;
  destroy(): void;
}

/** One TCP connection to `server`, for requests whose exact bytes or connection matter. */
async function openWire(server: RunningServer, quietMs = 300): Promise<Wire> {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = Buffer.alloc(0);
  let closed = false;
  let settle: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => settle?.(), ms);
  };
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wait(quietMs);
  });
  for (const event of ['end', 'close', 'error']) {
    socket.on(event, () => {
      closed = true;
      settle?.();
    });
  }
  return {
    send: (bytes) =>
      new Promise((resolve) => {
        received = Buffer.alloc(0);
        settle = () => {
          clearTimeout(timer);
          settle = undefined;
          resolve({ received: received.toString('latin1'), closed });
        };
        socket.write(bytes);
        wait(5000);
      }),
    destroy: () => {
      socket.destroy();
    },
  };
}

/** An HTTP/1.1 GET as exact bytes, with the given header lines. */
function getBytes(server: RunningServer, path: string, lines: readonly string[]): string {
  return [`GET ${path} HTTP/1.1`, `Host: ${new URL(server.url).host}`, ...lines, '', ''].join(
    '\r\n',
  );
}

const statusLine = (answer: WireAnswer): number =>
  Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer.received)?.[1]);

/** The value of the first header line named `name` in a raw answer. */
function rawHeader(answer: WireAnswer, name: string): string | undefined {
  const head = answer.received.split('\r\n\r\n')[0] ?? '';
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

describe('the round 8 variants (broken), against the reference', () => {
  let reference: RunningServer;
  beforeAll(async () => {
    reference = await REFERENCE.start();
  });
  afterAll(async () => {
    await reference.close();
  });
  const run = (name: string, use: (server: RunningServer) => Promise<void>) =>
    withVariant(ROUND8_STOCK, name, use);
  /** The default catalogue in PRODUCT.md's order (by id, ascending). */
  const byId: readonly Product[] = [...makeCatalogue('default')].sort((a, b) => a.id - b.id);
  const idsOf = (products: readonly Product[]): number[] => products.map((p) => p.id);
  const namesOf = (products: readonly Product[]): string[] => products.map((p) => p.name);
  const incoming = byId.filter((p) => p.status === 'incoming');
  const ids = (answer: Answer): number[] => list(answer).data.map((item) => item.product_id);
  const badParameters = (answer: Answer): string[] =>
    (problem(answer).errors ?? []).map((error) => error.parameter);
  const asStatus: Call = { token: 'status' };

  it('are 20, named uniquely among all variants, broken, mostly at the interface level', () => {
    expect(ROUND8_STOCK).toHaveLength(20);
    const added = ROUND8_STOCK.map((s) => s.name);
    expect(new Set(added).size).toBe(added.length);
    const all = INDEPENDENT_SERVERS.map((s) => s.name);
    expect(all.filter((name) => added.includes(name))).toEqual(added);
    expect(ROUND8_STOCK.every((s) => s.kind === 'broken' && s.rule.length > 80)).toBe(true);
    expect(ROUND8_STOCK.filter((s) => s.level === 'interface').length).toBeGreaterThanOrEqual(8);
  });

  it('next link concatenates the given page and 1', async () => {
    const next = async (server: RunningServer, path: string) =>
      pageOf(list(await call(server, path)).links.next);
    const last = String(Math.ceil(byId.length / 10));
    expect(await next(reference, '/v1/stock?page=2')).toBe('3');
    expect(await next(reference, '/v1/stock?page=1&limit=5')).toBe('2');
    await run('next link concatenates the given page and 1', async (server) => {
      expect(await next(server, '/v1/stock?page=2')).toBe('21');
      expect(await next(server, '/v1/stock?page=1&limit=5')).toBe('11');
      // Without page, next is right; prev, first and last are right whatever the query.
      expect(await next(server, '/v1/stock')).toBe('2');
      const links = list(await call(server, '/v1/stock?page=2')).links;
      expect([pageOf(links.first), pageOf(links.prev), pageOf(links.last)]).toEqual([
        '1',
        '1',
        last,
      ]);
      expect(list(await call(server, `/v1/stock?page=${last}`)).links.next).toBeNull();
    });
  });

  it('one-item last page merged into the page before', async () => {
    // 60 products at limit 59: two pages, the second holding the 60th product alone.
    const limit = byId.length - 1;
    expect(byId.length % limit).toBe(1);
    const right = list(await call(reference, `/v1/stock?limit=${limit}`));
    expect(right.data.map((item) => item.product_id)).toEqual(idsOf(byId.slice(0, limit)));
    expect(pageOf(right.links.next)).toBe('2');
    expect(pageOf(right.links.last)).toBe('2');
    expect(ids(await call(reference, `/v1/stock?limit=${limit}&page=2`))).toEqual(
      idsOf(byId.slice(limit)),
    );
    // The incoming products (12) at limit 11: the same shape under a filter.
    const incomingLimit = incoming.length - 1;
    const incomingPath = `/v1/stock?status=incoming&limit=${incomingLimit}`;
    expect(ids(await call(reference, incomingPath))).toEqual(
      idsOf(incoming.slice(0, incomingLimit)),
    );
    await run('one-item last page merged into the page before', async (server) => {
      const merged = list(await call(server, `/v1/stock?limit=${limit}`));
      expect(merged.data.map((item) => item.product_id)).toEqual(idsOf(byId));
      expect(merged.data.length).toBeGreaterThan(limit);
      expect(merged.links.next).toBeNull();
      expect(pageOf(merged.links.last)).toBe('1');
      expect(ids(await call(server, `/v1/stock?limit=${limit}&page=2`))).toEqual([]);
      expect(ids(await call(server, incomingPath))).toEqual(idsOf(incoming));
      // A last page of several items is paged as the reference pages it: 60 = 8 × 7 + 4.
      expect(ids(await call(server, '/v1/stock?limit=7&page=9'))).toEqual(idsOf(byId.slice(56)));
    });
  });

  it('last link drops the filters', async () => {
    const path = '/v1/stock?status=incoming&limit=5';
    const lastPage = String(Math.ceil(incoming.length / 5));
    const right = list(await call(reference, path)).links;
    expect(Object.fromEntries(new URL(right.last).searchParams)).toEqual({
      status: 'incoming',
      limit: '5',
      page: lastPage,
    });
    expect(ids(await call(reference, right.last))).toEqual(idsOf(incoming.slice(10, 15)));
    await run('last link drops the filters', async (server) => {
      const links = list(await call(server, path)).links;
      expect(Object.fromEntries(new URL(links.last).searchParams)).toEqual({
        limit: '5',
        page: lastPage,
      });
      // Followed, it lands on a page of the unfiltered list.
      expect(ids(await call(server, links.last))).toEqual(idsOf(byId.slice(10, 15)));
      expect(new URL(links.first).searchParams.get('status')).toBe('incoming');
      expect(new URL(links.next ?? '').searchParams.get('status')).toBe('incoming');
    });
  });

  it('status filter applied after paging', async () => {
    const path = '/v1/stock?status=incoming&limit=5';
    const right = list(await call(reference, path));
    expect(right.data.map((item) => item.product_id)).toEqual(idsOf(incoming.slice(0, 5)));
    expect(pageOf(right.links.last)).toBe(String(Math.ceil(incoming.length / 5)));
    await run('status filter applied after paging', async (server) => {
      const page = list(await call(server, path));
      const firstFive = byId.slice(0, 5).filter((p) => p.status === 'incoming');
      expect(page.data.map((item) => item.product_id)).toEqual(idsOf(firstFive));
      expect(page.data.length).toBeLessThan(5);
      expect(pageOf(page.links.last)).toBe(String(Math.ceil(byId.length / 5)));
      // The name filter is applied before paging, as the reference applies it.
      expect(ids(await call(server, '/v1/stock?name=table&limit=5'))).toEqual(
        ids(await call(reference, '/v1/stock?name=table&limit=5')),
      );
    });
  });

  it('a given limit becomes the default of later requests', async () => {
    expect(ids(await call(reference, '/v1/stock?limit=20'))).toHaveLength(20);
    expect(ids(await call(reference, '/v1/stock'))).toEqual(idsOf(byId.slice(0, 10)));
    await run('a given limit becomes the default of later requests', async (server) => {
      expect(ids(await call(server, '/v1/stock'))).toEqual(idsOf(byId.slice(0, 10)));
      expect(ids(await call(server, '/v1/stock?limit=20'))).toEqual(idsOf(byId.slice(0, 20)));
      // Later requests without limit, from either token, get 20 items.
      expect(ids(await call(server, '/v1/stock'))).toEqual(idsOf(byId.slice(0, 20)));
      expect(ids(await call(server, '/v1/stock', asStatus))).toEqual(idsOf(byId.slice(0, 20)));
    });
  });

  it('name filter ignores accents', async () => {
    const path = `/v1/products?name=${encodeURIComponent('Cafe table')}`;
    // PRODUCT.md: every character literal, case folded, composed and decomposed alike.
    const literal = byId.filter((p) =>
      p.name.normalize('NFC').toLowerCase().includes('cafe table'),
    );
    expect(literal).toEqual([]);
    expect(names(await call(reference, path))).toEqual([]);
    await run('name filter ignores accents', async (server) => {
      const unaccented = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '');
      const found = byId.filter((p) => unaccented(p.name).toLowerCase().includes('cafe table'));
      expect(namesOf(found)).toEqual(['Caf\u00e9 table']);
      expect(names(await call(server, path))).toEqual(namesOf(found));
      expect(names(await call(server, '/v1/products?name=oak'))).toEqual(
        names(await call(reference, '/v1/products?name=oak')),
      );
    });
  });

  it('name filter folds case under the Turkish locale', async () => {
    const matching = (needle: string) =>
      namesOf(byId.filter((p) => p.name.toUpperCase().includes(needle.toUpperCase())));
    const turkish = (text: string) => text.toLocaleUpperCase('tr').toLocaleLowerCase('tr');
    const turkishMatching = (needle: string) =>
      namesOf(byId.filter((p) => turkish(p.name).includes(turkish(needle))));
    for (const needle of ['LINEN', 'sign']) {
      expect(matching(needle)).not.toEqual(turkishMatching(needle));
    }
    expect(matching('LINEN')).toEqual(['Linen armchair']);
    expect(matching('sign')).toContain('CAF\u00c9 SIGN');
    for (const needle of ['LINEN', 'sign', 'oak']) {
      expect(names(await call(reference, `/v1/products?name=${needle}`)), needle).toEqual(
        matching(needle),
      );
    }
    await run('name filter folds case under the Turkish locale', async (server) => {
      for (const needle of ['LINEN', 'sign', 'oak']) {
        expect(names(await call(server, `/v1/products?name=${needle}`)), needle).toEqual(
          turkishMatching(needle),
        );
      }
      expect(names(await call(server, '/v1/products?name=LINEN'))).toEqual([]);
      expect(names(await call(server, '/v1/products?name=oak'))).toEqual(matching('oak'));
    });
  });

  it('percent-encoded plus read as a space', async () => {
    const plus = namesOf(byId.filter((p) => p.name.includes('C++')));
    expect(plus).toEqual(['C++ desk organiser']);
    expect(names(await call(reference, '/v1/products?name=C%2B%2B'))).toEqual(plus);
    await run('percent-encoded plus read as a space', async (server) => {
      const spaces = namesOf(byId.filter((p) => p.name.toLowerCase().includes('c  ')));
      expect(names(await call(server, '/v1/products?name=C%2B%2B'))).toEqual(spaces);
      expect(spaces).toEqual([]);
      // A + or %20 is a space, as the reference reads it.
      expect(names(await call(server, '/v1/products?name=oak+chair'))).toEqual(
        names(await call(reference, '/v1/products?name=oak%20chair')),
      );
    });
  });

  it('malformed percent escape in the query crashes with 500', async () => {
    const wool = idsOf(byId.filter((p) => p.name.includes('100%')));
    expect(wool).toHaveLength(1);
    // The WHATWG URL standard reads a % that starts no escape as itself.
    expect(ids(await call(reference, '/v1/stock?name=100%'))).toEqual(wool);
    expect((await call(reference, '/v1/stock?name=%FF')).status).toBe(200);
    await run('malformed percent escape in the query crashes with 500', async (server) => {
      for (const path of ['/v1/stock?name=100%', '/v1/stock?name=%FF', '/v1/stock?name=%E2%82']) {
        const answer = await call(server, path);
        expect(answer.status, path).toBe(500);
        expect(problem(answer).status, path).toBe(500);
      }
      expect(ids(await call(server, '/v1/stock?name=100%25'))).toEqual(wool);
    });
  });

  it('parameter names matched case-insensitively', async () => {
    const shouted = await call(reference, '/v1/stock?LIMIT=5');
    expect(shouted.status).toBe(400);
    expect(badParameters(shouted)).toEqual(['LIMIT']);
    expect((await call(reference, '/v1/stock?Status=incoming')).status).toBe(400);
    await run('parameter names matched case-insensitively', async (server) => {
      expect(ids(await call(server, '/v1/stock?LIMIT=5'))).toEqual(idsOf(byId.slice(0, 5)));
      expect(ids(await call(server, '/v1/stock?Status=incoming&limit=100'))).toEqual(
        idsOf(incoming),
      );
      expect((await call(server, '/v1/stock?stauts=incoming')).status).toBe(400);
    });
  });

  it('identical repeated parameter accepted', async () => {
    const twice = await call(reference, '/v1/stock?status=incoming&status=incoming');
    expect(twice.status).toBe(400);
    expect(badParameters(twice)).toEqual(['status']);
    await run('identical repeated parameter accepted', async (server) => {
      const answer = await call(server, '/v1/stock?status=incoming&status=incoming');
      expect(answer.status).toBe(200);
      expect(ids(answer)).toEqual(idsOf(incoming.slice(0, 10)));
      expect(ids(await call(server, '/v1/stock?limit=5&limit=5'))).toEqual(idsOf(byId.slice(0, 5)));
      const different = await call(server, '/v1/stock?status=incoming&status=available');
      expect(different.status).toBe(400);
      expect(badParameters(different)).toEqual(['status']);
    });
  });

  it('page read with Number()', async () => {
    const lenient = ['2e0', '0x2', '%2B2', '2.0', '%202%20'];
    for (const page of lenient) {
      const answer = await call(reference, `/v1/stock?page=${page}`);
      expect(answer.status, page).toBe(400);
      expect(badParameters(answer), page).toEqual(['page']);
    }
    await run('page read with Number()', async (server) => {
      for (const page of lenient) {
        expect(ids(await call(server, `/v1/stock?page=${page}`)), page).toEqual(
          idsOf(byId.slice(10, 20)),
        );
      }
      for (const page of ['abc', '', '0', '2.5']) {
        expect((await call(server, `/v1/stock?page=${page}`)).status, page).toBe(400);
      }
    });
  });

  it('path id read as Python int()', async () => {
    const product = byId.find((p) => p.id >= 10 && p.id < 100);
    expect(product).toBeDefined();
    const digits = String(product?.id ?? 0);
    const inScript = (zero: number) =>
      encodeURIComponent(
        Array.from(digits, (d) => String.fromCodePoint(zero + Number(d))).join(''),
      );
    const spellings = [
      Array.from(digits).join('_'),
      `%20${digits}%20`,
      `%2B${digits}`,
      inScript(0xff10), // fullwidth digits
      inScript(0x0660), // Arabic-Indic digits
    ];
    for (const spelling of spellings) {
      expect((await call(reference, `/v1/stock/${spelling}`)).status, spelling).toBe(400);
    }
    await run('path id read as Python int()', async (server) => {
      const data = {
        product_id: product?.id,
        quantity: product?.quantity,
        status: product?.status,
      };
      for (const spelling of spellings) {
        expect((await call(server, `/v1/stock/${spelling}`)).json, spelling).toEqual({ data });
      }
      for (const spelling of ['abc', `${digits[0] ?? ''}__${digits.slice(1)}`, '0']) {
        expect((await call(server, `/v1/stock/${spelling}`)).status, spelling).toBe(400);
      }
    });
  });

  it('quantity leaks to status tokens when filtering by status', async () => {
    const path = '/v1/stock?status=available&limit=100';
    const keys = (answer: Answer) => list(answer).data.map((item) => Object.keys(item).join());
    const available = byId.filter((p) => p.status === 'available');
    const right = await call(reference, path, asStatus);
    expect(ids(right)).toEqual(idsOf(available));
    expect(new Set(keys(right))).toEqual(new Set(['product_id,status']));
    await run('quantity leaks to status tokens when filtering by status', async (server) => {
      const leaked = list(await call(server, path, asStatus)).data;
      expect(leaked).toEqual(
        available.map((p) => ({ product_id: p.id, quantity: p.quantity, status: p.status })),
      );
      expect(new Set(keys(await call(server, '/v1/stock?limit=100', asStatus)))).toEqual(
        new Set(['product_id,status']),
      );
      const single = await call(server, `/v1/stock/${available[0]?.id ?? 0}`, asStatus);
      expect(Object.keys((single.json as { data: object }).data)).toEqual(['product_id', 'status']);
    });
  });

  it('HEAD skips parameter validation', async () => {
    const status = async (server: RunningServer, method: string, path: string) =>
      (await call(server, path, { method })).status;
    const length = async (server: RunningServer, method: string, path: string) =>
      (await call(server, path, { method })).headers.get('content-length');
    for (const path of ['/v1/stock?limit=0', '/v1/stock?stauts=x', '/v1/stock?page=1&page=2']) {
      expect(await status(reference, 'GET', path), path).toBe(400);
      expect(await status(reference, 'HEAD', path), path).toBe(400);
    }
    await run('HEAD skips parameter validation', async (server) => {
      for (const path of ['/v1/stock?limit=0', '/v1/stock?stauts=x', '/v1/stock?page=1&page=2']) {
        expect(await status(server, 'GET', path), path).toBe(400);
        expect(await status(server, 'HEAD', path), path).toBe(200);
      }
      // The bad parameter dropped: the length of the list without it.
      expect(await length(server, 'HEAD', '/v1/stock?limit=0')).toBe(
        await length(server, 'GET', '/v1/stock'),
      );
      const valid = '/v1/stock?status=incoming&limit=3';
      expect(await length(server, 'HEAD', valid)).toBe(await length(reference, 'GET', valid));
    });
  });

  it('Connection: close ignored', async () => {
    const lines = (server: RunningServer) => [
      `Authorization: Bearer ${server.tokens.quantity}`,
      'Accept: application/json',
    ];
    const wire = await openWire(reference);
    try {
      const answer = await wire.send(
        getBytes(reference, '/v1/stock?limit=1', [...lines(reference), 'Connection: close']),
      );
      expect(statusLine(answer)).toBe(200);
      expect(rawHeader(answer, 'connection')?.toLowerCase()).toBe('close');
      expect(answer.closed).toBe(true);
    } finally {
      wire.destroy();
    }
    await run('Connection: close ignored', async (server) => {
      const kept = await openWire(server);
      try {
        const request = getBytes(server, '/v1/stock?limit=1', [
          ...lines(server),
          'Connection: close',
        ]);
        const first = await kept.send(request);
        expect(statusLine(first)).toBe(200);
        expect(rawHeader(first, 'connection')?.toLowerCase()).toBe('keep-alive');
        expect(first.closed).toBe(false);
        // The next request on the connection the server kept open meets a parser that is done.
        const second = await kept.send(getBytes(server, '/v1/stock?limit=1', lines(server)));
        expect(statusLine(second)).toBe(400);
      } finally {
        kept.destroy();
      }
    });
  });

  it('second Accept field line ignored', async () => {
    const exchange = async (server: RunningServer, accept: readonly string[]) => {
      const wire = await openWire(server);
      try {
        const auth = `Authorization: Bearer ${server.tokens.status}`;
        const request = getBytes(server, '/v1/stock?limit=1', [
          auth,
          ...accept,
          'Connection: close',
        ]);
        return statusLine(await wire.send(request));
      } finally {
        wire.destroy();
      }
    };
    const twoLines = ['Accept: text/html', 'Accept: application/json'];
    expect(await exchange(reference, twoLines)).toBe(200);
    expect(await exchange(reference, ['Accept: text/html'])).toBe(406);
    await run('second Accept field line ignored', async (server) => {
      expect(await exchange(server, twoLines)).toBe(406);
      expect(await exchange(server, ['Accept: text/html, application/json'])).toBe(200);
      expect(await exchange(server, ['Accept: application/json', 'Accept: text/html'])).toBe(200);
    });
  });

  it('401 answers publicly cacheable without Vary: Authorization', async () => {
    const missing = await call(reference, '/v1/stock', { token: 'none' });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('cache-control')).toBeNull();
    await run('401 answers publicly cacheable without Vary: Authorization', async (server) => {
      for (const options of [{ token: 'none' } as const, bearer('nope')]) {
        const answer = await call(server, '/v1/stock', options);
        expect(answer.status).toBe(401);
        expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
        expect(answer.headers.get('vary')).toBeNull();
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="stockmock"/);
      }
      expect((await call(server, '/v1/stock')).headers.get('cache-control')).toBeNull();
    });
  });

  it('400 names page as offset', async () => {
    expect(badParameters(await call(reference, '/v1/stock?page=0'))).toEqual(['page']);
    await run('400 names page as offset', async (server) => {
      const answer = await call(server, '/v1/stock?page=0');
      expect(answer.status).toBe(400);
      expect(badParameters(answer)).toEqual(['offset']);
      expect(badParameters(await call(server, '/v1/stock?limit=0'))).toEqual(['limit']);
    });
  });

  it('truncated token accepted', async () => {
    const truncated = reference.tokens.quantity.slice(0, -6);
    const refused = await call(reference, '/v1/stock', bearer(truncated));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await run('truncated token accepted', async (server) => {
      const answer = await call(server, '/v1/stock', bearer(truncated));
      expect(answer.status).toBe(200);
      expect(list(answer).data[0]).toHaveProperty('quantity');
      expect((await call(server, '/v1/stock', bearer(`${server.tokens.status}X`))).status).toBe(
        401,
      );
      expect((await call(server, '/v1/stock', bearer('X'))).status).toBe(401);
    });
  });
});
