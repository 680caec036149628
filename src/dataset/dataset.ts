/**
 * @module The data set: every collection of one load (a scenario), with its query engine, and
 * the one read pipeline of a declared operation: conditions → engine → list rules → page, or a
 * key → one record; then its view, as JSON text.
 */
import type { Compatibility } from '../compatibility/compatibility.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
import type { CursorPosition } from '../query/cursor.ts';
import { compareKeys, type Key } from '../query/keys.ts';
import type { Slices } from '../query/selection.ts';
import { paginate } from '../query/paginate.ts';
import type { SortKey } from '../query/sort.ts';
import type { Condition, Page, PageRequest } from '../query/query.ts';
import { packedAt } from '../util/packed-strings.ts';
import type {
  CollectionDeclaration,
  Declarations,
  OperationDeclaration,
  ParentDeclaration,
  ViewDeclaration,
  Views,
} from '../resources/declarations.ts';
import type { WriteDeclaration } from '../resources/write-declarations.ts';
import { buildCollection, type RecordInput } from './build-collection.ts';
import { collectionFromData } from './collection.ts';
import { keepWrittenRecords } from './kept-records.ts';
import { layeredCollection, type CollectionChanges } from './layered-collection.ts';
import {
  loadedCollection,
  type IndexedCollection,
  type LoadedCollection,
  type ServedCollection,
} from './served-collection.ts';
import { viewWriter, type RecordWriter } from './view-writer.ts';

export type { IndexedCollection, ServedCollection } from './served-collection.ts';
export type { CollectionChanges } from './layered-collection.ts';

/** Every collection of one load, as served. */
export interface Dataset {
  /** Unique among every dataset of the process: what answers derived from it are keyed by. */
  readonly serial: number;
  /** How many records each collection holds. */
  readonly sizes: ReadonlyMap<string, number>;
  /** Where the data came from, for logs. */
  readonly source: string;
  collection(name: string): ServedCollection;
  /** The loaded collections beneath, as they are: what a session's writes start from. */
  loaded(name: string): LoadedCollection;
  /** The loaded data with a session's changes over these collections (and no others). */
  withChanges(changes: ReadonlyMap<string, CollectionChanges>): Dataset;
}

let datasetsMade = 0;

export function createDataset(collections: readonly IndexedCollection[]): Dataset {
  const loaded = new Map(collections.map((one) => [one.collection.name, loadedCollection(one)]));
  return datasetOver(loaded, loaded);
}

function datasetOver(
  loaded: ReadonlyMap<string, LoadedCollection>,
  collections: ReadonlyMap<string, ServedCollection>,
): Dataset {
  datasetsMade += 1;
  const all = [...loaded.values()].map(({ records }) => records);
  const found = <T>(map: ReadonlyMap<string, T>, name: string): T => {
    const one = map.get(name);
    if (one === undefined) throw new Error(`No collection is named ${name}`);
    return one;
  };
  return Object.freeze({
    serial: datasetsMade,
    sizes: new Map([...collections].map(([name, collection]) => [name, collection.size])),
    source: [...new Set(all.map((collection) => collection.source))].join(', '),
    collection: (name: string) => found(collections, name),
    loaded: (name: string) => found(loaded, name),
    withChanges(changes: ReadonlyMap<string, CollectionChanges>) {
      const next = new Map<string, ServedCollection>(loaded);
      for (const [name, changed] of changes) {
        next.set(name, layeredCollection(found(loaded, name), changed));
      }
      return datasetOver(loaded, next);
    },
  });
}

/** A list request, typed from the spec: its conditions, its order and its page. */
export interface ListQuery {
  readonly conditions: readonly Condition[];
  /** The keys to sort by; none: key order, or the order the settings choose. */
  readonly order: readonly SortKey[] | undefined;
  readonly page: PageRequest;
}

/** The rules a list is served by: the compatibility settings, fixed when the server starts. */
export type ServingRules = Pick<
  Compatibility,
  | 'order'
  | 'nameMatch'
  | 'pastTheEnd'
  | 'stockField'
  | 'productIdType'
  | 'linkLimit'
  | 'linkEncoding'
>;

/** A declared operation served from data, bound to its rules: what a route handler calls. */
export type DataOperation =
  | {
      readonly kind: 'list';
      readonly declaration: Extract<OperationDeclaration, { kind: 'list' }>;
      /** Whether links name `limit` when the request did not. */
      readonly linkLimit: ServingRules['linkLimit'];
      /** How links encode their query values. */
      readonly linkEncoding: ServingRules['linkEncoding'];
      /** Whether a page past the end is a 404 problem. */
      readonly pastTheEnd: ServingRules['pastTheEnd'];
      /** The page asked for. */
      list(dataset: Dataset, query: ListQuery): Page<number>;
      /** The page's records, at an access level, as the text of a JSON array. */
      writePage(dataset: Dataset, page: Page<number>, level: string | null): string;
    }
  | {
      readonly kind: 'item';
      readonly declaration: Extract<OperationDeclaration, { kind: 'item' }>;
      /**
       * The record with this key, under these parents (a nested item), as JSON text at an
       * access level; a 404 problem if there is none, or it is another parent's.
       */
      get(dataset: Dataset, key: Key, parents: readonly ParentKey[], level: string | null): string;
    }
  | {
      readonly kind: 'write';
      readonly declaration: WriteDeclaration;
      /** A record it wrote, as JSON text at an access level, as the collection's item shows it. */
      show(record: RecordInput, level: string | null): string;
    };

/** A parent a nested request names: its path parameter's value, and where its key is held. */
export interface ParentKey extends ParentDeclaration {
  readonly value: Key;
}

/**
 * Where a nested request's parents are looked up: a record by key, and whether the record of
 * one key holds a parent's key (`held` is the parent, `field` where the record holds it).
 */
export interface ParentRecords {
  exists(collection: string, key: Key): boolean;
  holds(collection: string, key: Key, parent: ParentKey): boolean;
}

/** A dataset's records, as parents are looked up in them. */
export function parentsIn(dataset: Dataset): ParentRecords {
  return {
    exists: (collection, key) => dataset.collection(collection).positionOf(key) >= 0,
    holds(collection, key, parent) {
      const records = dataset.collection(collection);
      return holds(records, records.positionOf(key), parent);
    },
  };
}

/**
 * A 404 problem unless each parent a nested request names exists and each is the parent of the
 * one nearer in (its key held by that one's record). `parents` are nearest first.
 */
export function requireParents(records: ParentRecords, parents: readonly ParentKey[]): void {
  for (const [index, parent] of parents.entries()) {
    if (!records.exists(parent.collection, parent.value)) {
      throw ProblemError.from(
        PROBLEMS.NOT_FOUND,
        `Nothing in ${parent.collection} has the key ${String(parent.value)} (${parent.parameter}).`,
      );
    }
    const nearer = parents[index - 1];
    if (nearer === undefined) continue;
    if (!records.holds(nearer.collection, nearer.value, parent)) {
      throw ProblemError.from(
        PROBLEMS.NOT_FOUND,
        `Nothing in ${nearer.collection} has the key ${String(nearer.value)} under the ${parent.parameter} ${String(parent.value)}.`,
      );
    }
  }
}

/**
 * Where a cursor's page meets its item in a list: the place right after the item (a page after
 * it starts there) or the item's own place (a page before it ends there). That is the item's
 * place when it is still there (the list unchanged before it), else, in key order, where its key
 * would be, wherever items came or went. Undefined where a sorted list lost the item: its place
 * among the others can no longer be told from its key alone.
 */
function cursorBoundary(
  selection: Slices<number>,
  records: ServedCollection,
  cursor: CursorPosition,
  keyOrdered: boolean,
): number | undefined {
  const past = cursor.direction === 'after' ? 1 : 0;
  if (cursor.index >= 0 && cursor.index < selection.total) {
    const [at] = selection.slice(cursor.index, cursor.index + 1);
    // The list unchanged up to the item: its place is read back, and its key is not looked up
    // (a hash probe into a million keys missed the cache on every page).
    if (at !== undefined && records.keyAt(at) === cursor.key) return cursor.index + past;
  }
  if (keyOrdered) {
    // The list runs in key order: the first entry past every key below the item's (and past
    // the item's own, after it).
    let low = 0;
    let high = selection.total;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = compareKeys(
        records.keyAt(selection.slice(middle, middle + 1)[0] ?? 0),
        cursor.key,
      );
      if (order < 0 || (order === 0 && past === 1)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
  const position = records.positionOf(cursor.key);
  if (position < 0) return undefined;
  const index = selection.slice(0, selection.total).indexOf(position);
  return index < 0 ? undefined : index + past;
}

/** Whether the record at `position` is the parent's: its field holds the parent's key. */
function holds(records: ServedCollection, position: number, parent: ParentKey): boolean {
  if (position < 0) return false;
  return records.at(position, (collection, at) => {
    const column = collection.column(parent.field);
    const number = column?.of[at] ?? -1;
    return (
      column !== undefined &&
      number >= 0 &&
      packedAt(column.values, number) === JSON.stringify(parent.value)
    );
  });
}

/** Every operation the declarations serve from data, by operationId. */
export function dataOperations(
  declarations: Declarations,
  rules: ServingRules,
): ReadonlyMap<string, DataOperation> {
  const operations = new Map<string, DataOperation>();
  // One writer per collection and view: a list and an item that show a record alike share
  // the records kept of it.
  const writers = new Map<string, RecordWriter>();
  const writerOf = (collection: CollectionDeclaration, view: ViewDeclaration): RecordWriter => {
    const key = JSON.stringify([collection.name, view]);
    let writer = writers.get(key);
    if (writer === undefined) {
      writer = keepWrittenRecords(viewWriter(collection, view, rules));
      writers.set(key, writer);
    }
    return writer;
  };
  for (const [operationId, declaration] of declarations.operations) {
    if (declaration.kind !== 'list' && declaration.kind !== 'item' && declaration.kind !== 'write')
      continue;
    const collection = declarations.collections.get(
      declaration.collection,
    ) as CollectionDeclaration;
    const writerFor = levelWriters(declaration.views, (view) => writerOf(collection, view));
    if (declaration.kind === 'write') {
      operations.set(operationId, {
        kind: 'write',
        declaration,
        show(record, level) {
          // One record, built as a load builds it: derived fields and all, as a read shows it.
          const written = collectionFromData(buildCollection(collection, 'write', [record]));
          return writerFor(level)(written, 0);
        },
      });
      continue;
    }
    if (declaration.kind === 'item') {
      operations.set(operationId, {
        kind: 'item',
        declaration,
        get(dataset, key, parents, level) {
          requireParents(parentsIn(dataset), parents);
          const records = dataset.collection(declaration.collection);
          const position = records.positionOf(key);
          const under = parents.find(
            (parent) =>
              parent.holder === declaration.collection && !holds(records, position, parent),
          );
          if (position < 0 || under !== undefined) {
            throw ProblemError.from(
              PROBLEMS.NOT_FOUND,
              `Nothing in ${collection.name} has the ${collection.key} ${String(key)}${under === undefined ? '' : ` under the ${under.parameter} ${String(under.value)}`}.`,
            );
          }
          return records.at(position, writerFor(level));
        },
      });
      continue;
    }
    const caseSensitive = rules.nameMatch === 'case-sensitive';
    operations.set(operationId, {
      kind: 'list',
      declaration,
      linkLimit: rules.linkLimit,
      linkEncoding: rules.linkEncoding,
      pastTheEnd: rules.pastTheEnd,
      list(dataset, query) {
        const served = dataset.collection(declaration.collection);
        const { order } = query;
        const selection = served.list(query.conditions, order, caseSensitive);
        const { cursor, limit } = query.page;
        if (cursor === undefined) return paginate(selection, query.page);
        const keyOrdered = order === undefined && !served.labelOrdered;
        const boundary = cursorBoundary(selection, served, cursor.position, keyOrdered);
        if (boundary === undefined) {
          throw ProblemError.from(PROBLEMS.INVALID_PARAMETERS, '1 parameter is invalid.', {
            errors: [
              {
                parameter: cursor.parameter,
                in: 'query',
                message:
                  cursor.position.index < 0
                    ? 'names no item of this list'
                    : 'names an item that is gone from this sorted list: start again from the first page',
              },
            ],
          });
        }
        if (cursor.position.direction === 'after') {
          return paginate(selection, { start: boundary, limit });
        }
        // The page before the item: up to a page size of the items right before it.
        const start = Math.max(0, boundary - (limit ?? boundary));
        const page = paginate(selection, { start, limit });
        const count = boundary - start;
        return page.items.length > count ? { ...page, items: page.items.slice(0, count) } : page;
      },
      writePage(dataset, page, level) {
        const records = dataset.collection(declaration.collection);
        const write = writerFor(level);
        let json = '[';
        for (const [index, position] of page.items.entries()) {
          const record = records.at(position, write);
          json += index === 0 ? record : `,${record}`;
        }
        return `${json}]`;
      },
    });
  }
  return operations;
}

/** The writer of each access level's view; a level with no view is a wiring bug. */
function levelWriters(
  views: Views,
  write: (view: ViewDeclaration) => RecordWriter,
): (level: string | null) => RecordWriter {
  if (views.kind === 'every') {
    const writer = write(views.view);
    return () => writer;
  }
  const writers = new Map([...views.views].map(([level, view]) => [level, write(view)]));
  return (level) => {
    const writer = level === null ? undefined : writers.get(level);
    if (writer === undefined)
      throw new Error(`No view is declared for the access level ${String(level)}`);
    return writer;
  };
}
