/** @module Learn the target's real data first, so that later checks filter and look up with it. */
import type { Failure } from './describe-exchange.ts';
import { memberOf, viewFor, type Declared, type DeclaredList } from './declared.ts';
import { tallyReading, type ReadingTally } from './reading.ts';
import { levelName, type Credentials, type Holder, type TokenLevel } from './target-client.ts';
import {
  idOf,
  pagesOf,
  PRODUCTS,
  sized,
  STOCK,
  withQuery,
  type Item,
  type Walk,
  type Id,
  type WalkOptions,
} from './walk.ts';

/** A declared list, unfiltered, as each level with a token saw it. */
export interface LearnedList {
  readonly byLevel: ReadonlyMap<string, readonly Item[]>;
  /** Who reads it where any level will do: the level whose view shows the most; undefined: none can. */
  readonly holder: Credentials | undefined;
  /** The items as the holder saw them. */
  readonly items: readonly Item[];
  /** Their labels (the collection's `label` field) by key, where the holder's view shows it. */
  readonly labels: ReadonlyMap<Id, string>;
}

export interface Learned {
  /** The unfiltered stock list, as each level saw it. */
  readonly stock: ReadonlyMap<TokenLevel, readonly Item[]>;
  /** The unfiltered product list. */
  readonly products: readonly Item[];
  /** Product names by id, from the product list. */
  readonly names: ReadonlyMap<Id, string>;
  /** The ids of the unfiltered stock list, in the order served. */
  readonly ids: readonly Id[];
  /** Which name of the level and which id type the items used, and how often. */
  readonly tally: ReadingTally;
  /** What went wrong while learning (a 401 for a token, a list that would not walk). */
  readonly failures: readonly Failure[];
  /** The lists the spec declares beyond the interface's, by path. */
  readonly declared: ReadonlyMap<string, LearnedList>;
}

export type Walker = (path: string, as: Credentials, options?: WalkOptions) => Promise<Walk>;

/**
 * The levels that read a declared list: those with a token and a view of it; with one view for
 * every level, each level with a token, or no token at all where the list is open. The first
 * sees the most.
 */
export function readersOf(
  list: Pick<DeclaredList, 'views' | 'open'>,
  holders: readonly Holder[],
): Credentials[] {
  const { views } = list;
  if (views.kind === 'every-level') {
    return holders.length > 0 ? [...holders] : list.open ? ['none'] : [];
  }
  const breadth = (holder: Holder) => {
    const view = viewFor(views, levelName(holder));
    return view === undefined ? -1 : view.members.size + (view.rest ? 1000 : 0);
  };
  return holders.filter((holder) => breadth(holder) >= 0).sort((a, b) => breadth(b) - breadth(a));
}

/** The name a level's items are kept under: its own, or `none` for an open list. */
export function readerName(reader: Credentials): string {
  return typeof reader === 'string' && (reader === 'none' || reader === 'wrong')
    ? reader
    : levelName(reader);
}

async function learnDeclared(
  walk: Walker,
  list: DeclaredList,
  holders: readonly Holder[],
  failures: Failure[],
): Promise<LearnedList> {
  const readers = readersOf(list, holders);
  const byLevel = new Map<string, readonly Item[]>();
  const { collection } = list;
  const path = withQuery(collection.path, sized(collection, collection.limits.max));
  for (const reader of readers) {
    const walked = await walk(path, reader, pagesOf(collection));
    failures.push(...walked.failures);
    byLevel.set(readerName(reader), walked.items);
  }
  const holder = readers[0];
  const items = holder === undefined ? [] : (byLevel.get(readerName(holder)) ?? []);
  const view = holder === undefined ? undefined : viewFor(list.views, readerName(holder));
  const labelMember =
    view === undefined || list.record.label === undefined
      ? undefined
      : memberOf(view, list.record.label);
  const labels = new Map<Id, string>();
  for (const item of items) {
    const key = idOf(list.collection, item);
    const label = labelMember === undefined ? undefined : item[labelMember];
    if (key !== undefined && typeof label === 'string') labels.set(key, label);
  }
  return { byLevel, holder, items, labels };
}

/**
 * Walks both collections unfiltered, at the largest page size, once per level for stock; and
 * each declared list once per level that reads it.
 */
export async function learn(
  walk: Walker,
  levels: readonly TokenLevel[],
  primary: TokenLevel,
  declared: { readonly spec: Declared; readonly holders: readonly Holder[] },
  /** Whether the spec has the interface's lists: without them, only declared lists are walked. */
  interfaceServed: boolean,
): Promise<Learned> {
  const failures: Failure[] = [];
  const lists = new Map<string, LearnedList>();
  for (const list of declared.spec.lists) {
    lists.set(list.collection.path, await learnDeclared(walk, list, declared.holders, failures));
  }
  if (!interfaceServed) {
    const tally = tallyReading([], []);
    return {
      stock: new Map(),
      products: [],
      names: new Map(),
      ids: [],
      tally,
      failures,
      declared: lists,
    };
  }
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
  const names = new Map<Id, string>();
  for (const item of products.items) {
    const id = idOf(PRODUCTS, item);
    if (id !== undefined && typeof item['name'] === 'string') names.set(id, item['name']);
  }
  const primaryItems = stock.get(primary) ?? [];
  const ids = primaryItems.map((item) => idOf(STOCK, item)).filter((id) => id !== undefined);
  const tally = tallyReading(stock.get('quantity') ?? [], [...stock.values()].flat());
  return { stock, products: products.items, names, ids, tally, failures, declared: lists };
}
