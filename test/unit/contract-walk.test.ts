import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTargetClient } from '../../src/contract/target-client.ts';
import { idsNotIn, walk } from '../../src/contract/walk.ts';

describe('idsNotIn', () => {
  it('equals the nested search it replaces, order and undefined ids included', () => {
    const ids = fc.array(fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(ids, ids, (wanted, present) => {
        expect(idsNotIn(wanted, present)).toEqual(
          wanted.filter((id) => id === undefined || !present.includes(id)),
        );
      }),
      { numRuns: 300, seed: 21 },
    );
  });
});

/** A server listening on a free loopback port, and how to stop it. */
async function listening(server: Server): Promise<{ url: string; close(): void }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * A list on loopback whose pages hold one item each and whose `next` never ends; its first
 * page's `last` link names `claimedLast`.
 */
async function endlessList(claimedLast: number): Promise<{ url: string; close(): void }> {
  const server = createServer((request, response) => {
    const page = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
    const link = (n: number) => `/list?page=${String(n)}`;
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        data: [{ id: page }],
        links: {
          first: link(1),
          last: link(claimedLast),
          prev: page > 1 ? link(page - 1) : null,
          next: link(page + 1),
        },
      }),
    );
  });
  return listening(server);
}

describe('walk, at its page limit', () => {
  it('stops a list too long to walk whole without failing it, and says the walk is partial', async () => {
    const list = await endlessList(1_000_000);
    try {
      const client = createTargetClient({
        baseUrl: list.url,
        tokens: {},
        timeoutMs: 5000,
        concurrency: 1,
      });
      const walked = await walk(client, '/list?page=1', 'none');
      expect(walked.failures).toEqual([]);
      expect(walked.complete).toBe(false);
      expect(walked.items.length).toBe(20_000);
    } finally {
      list.close();
    }
  }, 60_000);

  it('fails a list whose next goes on past the last page it claims', async () => {
    const list = await endlessList(5);
    try {
      const client = createTargetClient({
        baseUrl: list.url,
        tokens: {},
        timeoutMs: 5000,
        concurrency: 1,
      });
      const walked = await walk(client, '/list?page=1', 'none');
      expect(walked.failures.map((failure) => failure.message)).toEqual([
        'links.next did not end after 20000 pages',
      ]);
    } finally {
      list.close();
    }
  }, 60_000);
});

/**
 * A list whose envelope places no links: `{items, total?}`, paged by `page` and `limit` as its
 * clients page it. `fault` makes it wrong: it ignores `page`, or its later pages grow.
 */
async function numberedList(
  count: number,
  options: { total: boolean; fault?: 'ignores page' | 'grows' },
): Promise<{ url: string; close(): void }> {
  const server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const limit = Number(query.get('limit') ?? 10);
    const page = options.fault === 'ignores page' ? 1 : Number(query.get('page') ?? 1);
    const size = options.fault === 'grows' && page > 1 ? limit + 1 : limit;
    const start = (page - 1) * limit;
    const items = Array.from({ length: Math.max(0, Math.min(size, count - start)) }, (_, i) => ({
      id: `x${String(start + i + 1).padStart(4, '0')}`,
    }));
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(options.total ? { items, total: count } : { items }));
  });
  return listening(server);
}

describe('walk, by page number where the envelope places no links', () => {
  const envelope = { kind: 'object', items: ['items'], total: ['total'] } as const;
  const walkOf = async (list: { url: string }, path: string) =>
    walk(
      createTargetClient({ baseUrl: list.url, tokens: {}, timeoutMs: 5000, concurrency: 1 }),
      path,
      'none',
      { envelope },
    );
  it.each([
    [25, true],
    [25, false],
    [30, true],
    [30, false],
    [1, false],
    [0, true],
  ])('reads all of %i items (a total given: %s) at limit 10', async (count, total) => {
    const list = await numberedList(count, { total });
    try {
      const walked = await walkOf(list, '/list?sort=-id&limit=10');
      expect(walked.failures).toEqual([]);
      expect(walked.items.map((item) => item['id'])).toStrictEqual(
        Array.from({ length: count }, (_, i) => `x${String(i + 1).padStart(4, '0')}`),
      );
      expect(walked.complete).toBe(true);
    } finally {
      list.close();
    }
  });

  it.each([true, false])(
    'stops a list longer than a walk without failing it, and says the walk is partial (a total given: %s)',
    async (total) => {
      const list = await numberedList(1_000_000, { total });
      try {
        const walked = await walkOf(list, '/list?limit=10');
        expect(walked.failures).toEqual([]);
        expect(walked.complete).toBe(false);
        expect(walked.items.length).toBe(200_000);
      } finally {
        list.close();
      }
    },
    60_000,
  );

  it.each([
    ['ignores page', 'repeats page 1'],
    ['grows', 'more than the first page'],
  ] as const)('fails a list that %s', async (fault, message) => {
    const list = await numberedList(45, { total: false, fault });
    try {
      const walked = await walkOf(list, '/list?limit=10');
      expect(walked.failures.map((failure) => failure.message).join('\n')).toContain(message);
    } finally {
      list.close();
    }
  });
});
