/**
 * @module Nested lists and items (`/events/{eventId}/tickets`) placed under real parents: each
 * parent key comes from the parent's own declared list, so that the checks of a list run on a
 * path the target serves, and the nested checks can compare a few parents.
 */
import type {
  Declared,
  DeclaredItem,
  DeclaredList,
  NestedPlacement,
  UnwalkedList,
} from './declared.ts';
import { readersOf, type Walker } from './learn.ts';
import type { Credentials, Holder } from './target-client.ts';
import { idsOf, pagesOf, sized, withQuery, type Id } from './walk.ts';

/** Parents tried in turn for one whose list is not empty: its checks then see real items. */
const CANDIDATES = 8;
/** Parents a nested list is compared under. */
const SAMPLED = 3;

/** `template` with each named parameter replaced by its key; the others left as written. */
export function fillPath(template: string, keys: ReadonlyMap<string, Id>): string {
  return template.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const key = keys.get(name);
    return key === undefined ? whole : encodeURIComponent(String(key));
  });
}

/**
 * The declared lists and items with every nested one placed under a parent whose list is not
 * empty (where one is), outermost first; what cannot be placed is said in `unwalked`.
 */
export async function placeNested(
  declared: Declared,
  walk: Walker,
  holders: readonly Holder[],
): Promise<Declared> {
  const placed = new Map<string, { list: DeclaredList; keys: ReadonlyMap<string, Id> }>();
  for (const list of declared.lists) {
    if (list.parents.length === 0) placed.set(list.collection.name, { list, keys: new Map() });
  }
  const unwalked: UnwalkedList[] = [...declared.unwalked];
  const nested: NestedPlacement[] = [];
  const byDepth = declared.lists
    .filter((list) => list.parents.length > 0)
    .sort((a, b) => a.parents.length - b.parents.length);
  for (const list of byDepth) {
    const template = list.collection.name;
    const parent = list.parents.at(-1);
    const outer = parent === undefined ? undefined : placed.get(parent.list);
    if (parent === undefined || outer === undefined) {
      unwalked.push({
        path: template,
        shape: `is nested under ${parent?.parameter ?? '?'}, and no list of ${parent?.list ?? '?'} is declared to learn its keys from`,
      });
      continue;
    }
    const [reader] = readersOf(outer.list, holders);
    const parentKeys =
      reader === undefined
        ? []
        : idsOf(
            outer.list.collection,
            (
              await walk(
                withQuery(
                  outer.list.collection.path,
                  sized(outer.list.collection, outer.list.collection.limits.max),
                ),
                reader,
                pagesOf(outer.list.collection),
              )
            ).items,
          ).filter((key) => key !== undefined);
    const under = await parentsToCompare(
      list,
      parentKeys,
      outer.keys,
      parent.parameter,
      walk,
      readersOf(list, holders),
    );
    const [first] = under;
    if (first === undefined) {
      unwalked.push({
        path: template,
        shape: `is nested under ${parent.parameter}, and ${parent.list} gave no key to place it under`,
      });
      continue;
    }
    const keys = new Map(outer.keys).set(parent.parameter, first.key);
    const own = { ...list, collection: { ...list.collection, path: first.path } };
    placed.set(template, { list: own, keys });
    nested.push({
      list: own,
      parent,
      outer: outer.keys,
      parentKeys,
      under,
      items: placeItems(declared.items, own, keys),
    });
  }
  // A nested list that could not be placed is not walked: it is said in `unwalked`.
  const lists = declared.lists.flatMap((list) => placed.get(list.collection.name)?.list ?? []);
  const placedItems = nested.flatMap((placement) => placement.items);
  const items = declared.items.flatMap((item) => {
    if (item.parents.length === 0) return [item];
    const filled = placedItems.find((candidate) => candidate.template === item.template);
    if (filled !== undefined) return [filled];
    unwalked.push({
      path: item.template,
      shape: `is nested under ${item.parents.map((parent) => parent.parameter).join(' and ')}, and no list of its record is placed under them`,
    });
    return [];
  });
  return { ...declared, lists, items, nested, unwalked };
}

/**
 * A few parents to compare the list under: the first whose list holds items leads (the list's
 * checks see real items there), then others spread over the parent list.
 */
async function parentsToCompare(
  list: DeclaredList,
  parentKeys: readonly Id[],
  outerKeys: ReadonlyMap<string, Id>,
  parameter: string,
  walk: Walker,
  readers: readonly Credentials[],
): Promise<{ readonly key: Id; readonly path: string }[]> {
  const pathFor = (key: Id) =>
    fillPath(list.collection.name, new Map(outerKeys).set(parameter, key));
  const [reader] = readers;
  const candidates = spread(parentKeys, CANDIDATES);
  let lead: Id | undefined;
  if (reader !== undefined) {
    for (const key of candidates) {
      const page = await walk(withQuery(pathFor(key), sized(list.collection, 1)), reader, {
        ...pagesOf(list.collection),
        maxPages: 1,
      });
      if (page.items.length > 0) {
        lead = key;
        break;
      }
    }
  }
  const ordered = [
    ...(lead === undefined ? [] : [lead]),
    ...spread(parentKeys, SAMPLED + 1).filter((key) => key !== lead),
  ];
  return ordered.slice(0, SAMPLED).map((key) => ({ key, path: pathFor(key) }));
}

/** Up to `count` of `values`, spread over them, first included. */
function spread<T>(values: readonly T[], count: number): T[] {
  if (values.length <= count) return [...values];
  const step = values.length / count;
  return Array.from({ length: count }, (_, i) => values[Math.floor(i * step)]).filter(
    (value) => value !== undefined,
  );
}

/** The nested items of `list`'s record directly below it, with its parents' keys in place. */
function placeItems(
  items: readonly DeclaredItem[],
  list: DeclaredList,
  keys: ReadonlyMap<string, Id>,
): DeclaredItem[] {
  return items.flatMap((item) =>
    item.record === list.record &&
    item.parents.length === list.parents.length &&
    item.template.startsWith(`${list.collection.name}/`)
      ? [{ ...item, path: fillPath(item.template, keys) }]
      : [],
  );
}
