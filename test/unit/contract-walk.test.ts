import { createServer } from 'node:http';
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
