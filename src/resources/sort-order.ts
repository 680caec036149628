/**
 * @module A sort parameter's value (`status,-amount`) as the keys a list is ordered by, read by
 * the fields its declaration lets it sort by.
 */
import type { SortKey } from '../query/sort.ts';

/**
 * The keys, or a sentence saying what is wrong: a field not listed, one named twice, an empty
 * item. Items are comma-separated within each value; an array parameter's items are read the
 * same way, one after another.
 */
export function readSortKeys(
  value: string | readonly string[],
  fields: ReadonlySet<string>,
): readonly SortKey[] | string {
  const items = (typeof value === 'string' ? [value] : value).flatMap((text) => text.split(','));
  const keys: SortKey[] = [];
  for (const item of items) {
    const descending = item.startsWith('-');
    const field = descending ? item.slice(1) : item;
    if (!fields.has(field)) {
      return `sorts by ${[...fields].join(', ')} (each with a leading - for descending), not ${JSON.stringify(item.length > 40 ? `${item.slice(0, 40)}…` : item)}`;
    }
    if (keys.some((key) => key.field === field)) return `names ${field} twice`;
    keys.push({ field, descending });
  }
  return keys;
}
