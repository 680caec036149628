/** @module Learn the target's real data first, so that later checks filter and look up with it. */
import type { AccessLevel } from '../access/access-level.ts';
import type { Failure } from './check.ts';
import type { TargetClient } from './target-client.ts';
import { idOf, PRODUCTS, STOCK, walk, withQuery, type Item } from './walk.ts';

export interface Learned {
  /** The unfiltered stock list, as each level saw it. */
  readonly stock: ReadonlyMap<AccessLevel, readonly Item[]>;
  /** The unfiltered product list. */
  readonly products: readonly Item[];
  /** Product names by id, from the product list. */
  readonly names: ReadonlyMap<number, string>;
  /** The ids of the unfiltered stock list, ascending as served. */
  readonly ids: readonly number[];
  /** What went wrong while learning (a 401 for a token, a list that would not walk). */
  readonly failures: readonly Failure[];
}

/** Walks both collections unfiltered, at the largest page size, once per level for stock. */
export async function learn(
  client: TargetClient,
  levels: readonly AccessLevel[],
  primary: AccessLevel,
): Promise<Learned> {
  const failures: Failure[] = [];
  const stock = new Map<AccessLevel, readonly Item[]>();
  const walks = await Promise.all(
    levels.map(
      async (level) =>
        [level, await walk(client, withQuery(STOCK.path, { limit: 100 }), level)] as const,
    ),
  );
  for (const [level, walked] of walks) {
    stock.set(level, walked.items);
    failures.push(...walked.failures);
  }
  const products = await walk(client, withQuery(PRODUCTS.path, { limit: 100 }), primary);
  failures.push(...products.failures);
  const names = new Map<number, string>();
  for (const item of products.items) {
    const id = idOf(PRODUCTS, item);
    if (id !== undefined && typeof item['name'] === 'string') names.set(id, item['name']);
  }
  const primaryItems = stock.get(primary) ?? [];
  const ids = primaryItems.map((item) => idOf(STOCK, item)).filter((id) => id !== undefined);
  return { stock, products: products.items, names, ids, failures };
}
