/** @module Learn the target's real data first, so that later checks filter and look up with it. */
import type { Failure } from './check.ts';
import { tallyReading, type ReadingTally } from './reading.ts';
import type { TokenLevel } from './target-client.ts';
import { idOf, PRODUCTS, STOCK, withQuery, type Item, type Walk } from './walk.ts';

export interface Learned {
  /** The unfiltered stock list, as each level saw it. */
  readonly stock: ReadonlyMap<TokenLevel, readonly Item[]>;
  /** The unfiltered product list. */
  readonly products: readonly Item[];
  /** Product names by id, from the product list. */
  readonly names: ReadonlyMap<number, string>;
  /** The ids of the unfiltered stock list, in the order served. */
  readonly ids: readonly number[];
  /** Which name of the level and which id type the items used, and how often. */
  readonly tally: ReadingTally;
  /** What went wrong while learning (a 401 for a token, a list that would not walk). */
  readonly failures: readonly Failure[];
}

export type Walker = (path: string, as: TokenLevel) => Promise<Walk>;

/** Walks both collections unfiltered, at the largest page size, once per level for stock. */
export async function learn(
  walk: Walker,
  levels: readonly TokenLevel[],
  primary: TokenLevel,
): Promise<Learned> {
  const failures: Failure[] = [];
  const stock = new Map<TokenLevel, readonly Item[]>();
  const walks = await Promise.all(
    levels.map(
      async (level) => [level, await walk(withQuery(STOCK.path, { limit: 100 }), level)] as const,
    ),
  );
  for (const [level, walked] of walks) {
    stock.set(level, walked.items);
    failures.push(...walked.failures);
  }
  const products = await walk(withQuery(PRODUCTS.path, { limit: 100 }), primary);
  failures.push(...products.failures);
  const names = new Map<number, string>();
  for (const item of products.items) {
    const id = idOf(PRODUCTS, item);
    if (id !== undefined && typeof item['name'] === 'string') names.set(id, item['name']);
  }
  const primaryItems = stock.get(primary) ?? [];
  const ids = primaryItems.map((item) => idOf(STOCK, item)).filter((id) => id !== undefined);
  const tally = tallyReading(stock.get('quantity') ?? [], [...stock.values()].flat());
  return { stock, products: products.items, names, ids, tally, failures };
}
