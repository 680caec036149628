/**
 * @module What the checks that hold for every resource ask (methods, HEAD, tokens, Accept, CORS,
 * edge requests): the interface's lists and items where the spec has them, and every list and
 * item the spec declares, each with a level that may read it.
 */
import type { ExampleOperation } from './operations.ts';
import { listOfItem, type Declared } from './declared.ts';
import { readersOf, type Learned } from './learn.ts';
import type { Credentials, Holder, TokenLevel } from './target-client.ts';
import { unknownKey } from './unknown-key.ts';
import { COLLECTIONS, idOf, withQuery, type Id } from './walk.ts';
import { LIMIT_PARAMETER } from '../spec/pagination.ts';

export interface Resource {
  readonly path: string;
  /** A declared list or item, or a read operation that declares no data (operations.ts). */
  readonly kind: 'list' | 'item' | 'operation';
  /** Who asks for it: a level that reads it, or no one where it is open. */
  readonly as: Credentials;
  /** Every level with a token that may read it (the interface's lists: each level given). */
  readonly readers: readonly Credentials[];
  /** Whether it is answered only with a token. */
  readonly needsToken: boolean;
  /** For an item: the path of a key that no record has. */
  readonly unknown?: string;
  /** For a list: the query parameter of its page size, where it takes one. */
  readonly sizeParameter?: string;
}

/** A list's path asking for a page of `size` items, where it takes a page size. */
export function pageOfSize(resource: Resource, size: number): string {
  const name = resource.sizeParameter;
  return name === undefined ? resource.path : withQuery(resource.path, { [name]: size });
}

export function resourcesOf(
  learned: Learned,
  declared: Declared,
  at: {
    readonly interfaceServed: boolean;
    readonly levels: readonly TokenLevel[];
    readonly primary: TokenLevel;
    readonly holders: readonly Holder[];
    readonly operations: readonly ExampleOperation[];
  },
): Resource[] {
  const resources: Resource[] = [];
  if (at.interfaceServed && at.levels.length > 0) {
    const id = learned.ids[0];
    const unknown = unknownKey(learned.ids) ?? 1;
    for (const collection of COLLECTIONS) {
      const common = { as: at.primary, readers: at.levels, needsToken: true };
      resources.push({
        path: collection.path,
        kind: 'list',
        ...common,
        sizeParameter: LIMIT_PARAMETER,
      });
      resources.push({
        path: `${collection.path}/${String(id ?? 1)}`,
        kind: 'item',
        ...common,
        unknown: `${collection.path}/${String(unknown)}`,
      });
    }
  }
  for (const list of declared.lists) {
    const seen = learned.declared.get(list.collection.path);
    if (seen?.holder === undefined) continue;
    const readers = readersOf(list, at.holders);
    const common = { as: seen.holder, readers, needsToken: !list.open };
    const { paging } = list.collection;
    const sizeParameter = paging.kind === 'whole' ? undefined : paging.size;
    resources.push({
      path: list.collection.path,
      kind: 'list',
      ...common,
      ...(sizeParameter === undefined ? {} : { sizeParameter }),
    });
    const keys = seen.items.flatMap((item) => {
      const key = idOf(list.collection, item);
      return key === undefined ? [] : [key];
    });
    for (const item of declared.items.filter(
      (candidate) => listOfItem(declared, candidate) === list,
    )) {
      const [key] = keys;
      if (key === undefined) continue;
      const pathOf = (value: Id) =>
        item.path.replace(`{${item.parameter}}`, encodeURIComponent(String(value)));
      const unknown = unknownKey(keys, item.keySchema.pattern);
      resources.push({
        path: pathOf(key),
        kind: 'item',
        ...common,
        ...(unknown === undefined ? {} : { unknown: pathOf(unknown) }),
      });
    }
  }
  for (const operation of at.operations) {
    const [holder] = at.holders;
    if (operation.needsToken && holder === undefined) continue;
    resources.push({
      path: operation.path,
      kind: 'operation',
      as: operation.needsToken && holder !== undefined ? holder : 'none',
      readers: at.holders,
      needsToken: operation.needsToken,
    });
  }
  return resources;
}
