/**
 * Deliberately broken servers: each is stockmock with one fault, added by a hook. The contract
 * tests assert that the checker catches each one, and by which check.
 */
import type { Dataset } from '../../src/dataset/dataset.ts';
import { allProducts, type StoredProduct } from '../helpers/datasets.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ScenarioStore } from '../../src/scenarios/scenario-store.ts';
import type { TestAppOptions } from '../helpers/test-app.ts';

export interface Mutant {
  readonly name: string;
  /** The check that must fail against it. */
  readonly caughtBy: string;
  /** Whose rule it breaks: the interface (fails at both levels) or a stand-in decision only. */
  readonly level: 'interface' | 'stand-in';
  readonly config?: TestAppOptions['config'];
  readonly mutate?: (app: FastifyInstance, catalogs: ScenarioStore) => void;
}

type Json = Record<string, unknown> & { data?: unknown; links?: Record<string, string | null> };
type Rewrite = (body: Json, request: FastifyRequest, reply: FastifyReply) => Json;

/** Rewrites JSON bodies of successful answers. */
function rewriteBody(rewrite: Rewrite) {
  return (app: FastifyInstance): void => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode !== 200 || typeof payload !== 'string' || !payload.startsWith('{'))
        return payload;
      return JSON.stringify(rewrite(JSON.parse(payload) as Json, request, reply));
    });
  };
}

function query(request: FastifyRequest): Record<string, string | undefined> {
  return request.query as Record<string, string | undefined>;
}

function shiftPage(link: string | null | undefined, by: number): string | null {
  if (link === null || link === undefined) return null;
  return link.replace(/page=(\d+)$/, (_, page: string) => `page=${String(Number(page) + by)}`);
}

const isList = (body: Json): body is Json & { data: Record<string, unknown>[] } =>
  Array.isArray(body.data);

export const MUTANTS: readonly Mutant[] = [
  {
    name: 'next link skips a page',
    level: 'interface',
    caughtBy: 'generated.stock',
    mutate: rewriteBody((body) =>
      body.links
        ? { ...body, links: { ...body.links, next: shiftPage(body.links['next'], 1) } }
        : body,
    ),
  },
  {
    name: 'last page off by one',
    level: 'interface',
    caughtBy: 'generated.stock',
    mutate: rewriteBody((body) =>
      body.links
        ? { ...body, links: { ...body.links, last: shiftPage(body.links['last'], 1) ?? '' } }
        : body,
    ),
  },
  {
    name: 'prev not null on page 1',
    level: 'interface',
    caughtBy: 'generated.stock',
    mutate: rewriteBody((body) =>
      body.links && body.links['prev'] === null
        ? { ...body, links: { ...body.links, prev: body.links['first'] ?? null } }
        : body,
    ),
  },
  {
    name: 'duplicate item across pages',
    level: 'interface',
    caughtBy: 'generated.stock',
    mutate: (app, catalogs) => {
      rewriteBody((body, request) => {
        if (!isList(body) || body.data.length === 0 || Number(query(request)['page'] ?? 1) < 2)
          return body;
        const key = 'product_id' in (body.data[0] ?? {}) ? 'product_id' : 'id';
        const products = allProducts(catalogs.current);
        const at = products.findIndex((product) => product.id === body.data[0]?.[key]);
        const before = products[at - 1];
        return before === undefined
          ? body
          : { ...body, data: [{ ...body.data[0], [key]: before.id }, ...body.data.slice(1)] };
      })(app);
    },
  },
  {
    name: 'items unsorted within a page',
    level: 'interface',
    caughtBy: 'generated.stock',
    mutate: rewriteBody((body) =>
      isList(body) ? { ...body, data: [...body.data].reverse() } : body,
    ),
  },
  {
    name: 'default page size 20',
    level: 'interface',
    caughtBy: 'generated.stock',
    mutate: (app) => {
      app.addHook('onRequest', async (request) => {
        if (request.url.startsWith('/v1/stock') && query(request)['limit'] === undefined)
          query(request)['limit'] = '20';
      });
    },
  },
  {
    name: 'status filter ignored',
    level: 'interface',
    caughtBy: 'generated.stock',
    mutate: (app) => {
      app.addHook('onRequest', async (request) => {
        delete query(request)['status'];
      });
    },
  },
  {
    // The stand-in's own setting: matched case-sensitively before paging, as a service would
    // (a rewrite of each page after paging would break paging as well).
    name: 'case-sensitive name filter',
    level: 'stand-in',
    caughtBy: 'filters.stock.name-case-insensitive',
    config: { compatibility: { nameMatch: 'case-sensitive' } },
  },
  {
    name: 'quantity leaked to a status token',
    level: 'interface',
    caughtBy: 'access.status-hides-quantity',
    mutate: (app, catalogs) => {
      rewriteBody((body, request) => {
        if (request.accessLevel !== 'status' || !isList(body)) return body;
        const data = body.data.map((item) => ({
          ...item,
          quantity: productById(catalogs.current, Number(item['product_id']))?.quantity ?? null,
        }));
        return { ...body, data };
      })(app);
    },
  },
  {
    name: 'single item disagrees with the list',
    level: 'interface',
    caughtBy: 'single./v1/stock/{id}',
    mutate: rewriteBody((body, request) =>
      /^\/v1\/stock\/\d+/.test(request.url) && !isList(body)
        ? { ...body, data: { ...(body.data as object), status: 'incoming' } }
        : body,
    ),
  },
  {
    name: '500 on a bad parameter',
    level: 'interface',
    caughtBy: 'generated.stock',
    mutate: (app) => {
      app.addHook('onSend', async (_request, reply, payload) => {
        if (reply.statusCode === 400) void reply.code(500);
        return payload;
      });
    },
  },
  {
    name: '200 on an unknown parameter',
    level: 'stand-in',
    caughtBy: 'negative.unknown-parameters-400',
    config: { compatibility: { unknownQueryParameters: 'ignore' } },
  },
  {
    name: 'limit above 100 accepted',
    level: 'stand-in',
    caughtBy: 'negative.invalid-parameters-400',
    mutate: (app) => {
      app.addHook('onRequest', async (request) => {
        if (Number(query(request)['limit']) > 100) query(request)['limit'] = '100';
      });
    },
  },
  {
    name: 'missing WWW-Authenticate',
    level: 'interface',
    caughtBy: 'http.missing-token',
    mutate: (app) => {
      app.addHook('onSend', async (_request, reply, payload) => {
        reply.removeHeader('www-authenticate');
        return payload;
      });
    },
  },
  {
    name: 'wrong content type',
    level: 'interface',
    caughtBy: 'conformance.interface',
    mutate: (app) => {
      app.addHook('onSend', async (_request, reply, payload) => {
        if (reply.statusCode === 200) void reply.type('text/plain');
        return payload;
      });
    },
  },
  {
    name: 'extra envelope member',
    level: 'interface',
    caughtBy: 'conformance.interface',
    mutate: rewriteBody((body) =>
      isList(body) ? { ...body, meta: { total: body.data.length } } : body,
    ),
  },
];

function productById(dataset: Dataset, id: number): StoredProduct | undefined {
  return allProducts(dataset).find((product) => product.id === id);
}
