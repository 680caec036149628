/**
 * @module The compatibility settings that shape a list beyond the filters: the order of its
 * items, and the name filter's case rule. The query engine selects in id order,
 * case-insensitively (PRODUCT.md); these rules re-read its selection, and cost nothing at
 * their defaults.
 */
import type { Compatibility } from '../access/compatibility.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { slicesOf, type Selection } from './selection.ts';

export type ListRules = Pick<Compatibility, 'order' | 'nameMatch'>;

/** The selection as the rules list it; the same selection at the defaults. */
export function applyListRules(
  selection: Selection,
  catalog: Catalog,
  needle: string | undefined,
  rules: ListRules,
): Selection {
  let positions: number[] | undefined;
  // A case-sensitive match is also a case-insensitive one: keep those whose name has the
  // needle as it is written.
  if (rules.nameMatch === 'case-sensitive' && needle !== undefined) {
    positions = selection
      .slice(0, selection.total)
      .filter((position) => catalog.nameAt(position).includes(needle));
  }
  if (rules.order === 'name') {
    const rank = nameRanks(catalog);
    positions = [...(positions ?? selection.slice(0, selection.total))].sort(
      (a, b) => (rank[a] as number) - (rank[b] as number),
    );
  }
  return positions === undefined ? selection : slicesOf(positions);
}

/**
 * Each position's place in name order: code units (as the interface gives no collation, the
 * one order every client can reproduce), ties by id. Made once per catalogue, when first
 * needed: 100 000 products take about 100 ms, on the serving thread.
 */
const ranksOf = new WeakMap<Catalog, Int32Array>();

function nameRanks(catalog: Catalog): Int32Array {
  const known = ranksOf.get(catalog);
  if (known !== undefined) return known;
  const names = Array.from({ length: catalog.size }, (_, position) => catalog.nameAt(position));
  // Positions run in id order, and the sort is stable: ties stay by id.
  const order = names
    .map((_, position) => position)
    .sort((a, b) => {
      const x = names[a] as string;
      const y = names[b] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  const ranks = new Int32Array(catalog.size);
  order.forEach((position, rank) => {
    ranks[position] = rank;
  });
  ranksOf.set(catalog, ranks);
  return ranks;
}
