/** @module Each filter keeps exactly the matching items: judged against the unfiltered walk. */
import { foldName } from '../../catalog/fold-name.ts';
import { STOCK_STATUSES } from '../../catalog/stock-status.ts';
import type { Check, CheckContext, Failure } from '../check.ts';
import {
  COLLECTIONS,
  idOf,
  idsNotIn,
  orderFailures,
  STOCK,
  walk,
  withQuery,
  type Collection,
  type Item,
} from '../walk.ts';

type Query = Readonly<Record<string, string | number>>;

/** Walks a filtered list and compares it with the learned list filtered by `keep`. */
async function compareFiltered(
  context: CheckContext,
  collection: Collection,
  query: Query,
  keep: (item: Item, id: number) => boolean,
): Promise<Failure[]> {
  const learned =
    collection.name === 'stock'
      ? (context.learned.stock.get(context.primary) ?? [])
      : context.learned.products;
  const expected = learned
    .map((item) => [item, idOf(collection, item)] as const)
    .filter(
      (entry): entry is readonly [Item, number] =>
        entry[1] !== undefined && keep(entry[0], entry[1]),
    )
    .map(([, id]) => id);
  const path = withQuery(collection.path, { ...query, limit: 100 });
  const walked = await walk(context.client, path, context.primary);
  const request = `GET ${path} and its next links (${context.primary} token)`;
  const failures: Failure[] = [...walked.failures, ...orderFailures(collection, walked, request)];
  const got = walked.items.map((item) => idOf(collection, item));
  const extra = idsNotIn(got, expected);
  const missing = idsNotIn(expected, got);
  if (walked.failures.length === 0 && (extra.length > 0 || missing.length > 0)) {
    failures.push({
      message: `The filter ${JSON.stringify(query)} does not keep exactly the matching items`,
      request,
      expected: `${String(expected.length)} items: ids ${expected.slice(0, 8).join(', ')}${expected.length > 8 ? ', …' : ''}`,
      actual: `${String(got.length)} items; not matching: ${extra.slice(0, 5).join(', ') || 'none'}; missing: ${missing.slice(0, 5).join(', ') || 'none'}`,
    });
  }
  return failures;
}

/** Needles from the names the target served: a word in upper case, a middle piece, a rare character. */
export function pickNeedles(names: readonly string[]): string[] {
  const needles = new Set<string>();
  for (const name of names.slice(0, 3)) {
    const word = name.split(/\s+/).find((part) => part.length >= 3);
    if (word !== undefined) needles.add(word.toUpperCase());
    if (name.length >= 5) needles.add(name.slice(1, 4).toLowerCase());
  }
  const rare = names.find((name) => /[%_*.(«é]/.test(name));
  const char = rare?.match(/[%_*.(«é]/)?.[0];
  if (char !== undefined) needles.add(char);
  return [...needles];
}

function nameMatches(context: CheckContext, needle: string) {
  const folded = foldName(needle);
  return (_item: Item, id: number) =>
    foldName(context.learned.names.get(id) ?? '').includes(folded);
}

const statusFilter: Check = {
  id: 'filters.status',
  title: '/v1/stock?status=…: only and all items of that status',
  needs: [],
  async run(context) {
    const results = await Promise.all(
      STOCK_STATUSES.map((status) =>
        compareFiltered(context, STOCK, { status }, (item) => item['status'] === status),
      ),
    );
    return results.flat();
  },
};

function nameFilter(collection: Collection): Check {
  return {
    id: `filters.${collection.name}.name`,
    title: `${collection.path}?name=…: case-insensitive literal substring of the name`,
    needs: [],
    async run(context) {
      const needles = [...pickNeedles([...context.learned.names.values()]), 'zq-no-such-name-zq'];
      const results = await Promise.all(
        needles.map((name) =>
          compareFiltered(context, collection, { name }, nameMatches(context, name)),
        ),
      );
      return results.flat();
    },
  };
}

function idFilter(collection: Collection): Check {
  return {
    id: `filters.${collection.name}.id`,
    title: `${collection.path}?id=…: exactly the product with that id`,
    needs: [],
    async run(context) {
      const ids = context.learned.ids;
      const probes = [ids[0], ids.at(-1), Math.max(0, ...ids) + 1].filter((id) => id !== undefined);
      const results = await Promise.all(
        [...new Set(probes)].map((id) =>
          compareFiltered(context, collection, { id }, (_item, itemId) => itemId === id),
        ),
      );
      return results.flat();
    },
  };
}

const combinedFilters: Check = {
  id: 'filters.combined',
  title: '/v1/stock with name and status: both apply (AND)',
  needs: [],
  async run(context) {
    const [needle] = pickNeedles([...context.learned.names.values()]);
    if (needle === undefined) return [];
    const matchesName = nameMatches(context, needle);
    const results = await Promise.all(
      STOCK_STATUSES.map((status) =>
        compareFiltered(
          context,
          STOCK,
          { name: needle, status },
          (item, id) => item['status'] === status && matchesName(item, id),
        ),
      ),
    );
    return results.flat();
  },
};

export const filterChecks: readonly Check[] = [
  statusFilter,
  ...COLLECTIONS.flatMap((collection) => [nameFilter(collection), idFilter(collection)]),
  combinedFilters,
];
