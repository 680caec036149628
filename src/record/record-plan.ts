/**
 * @module What a recording reads: for each declared collection, the lists that name its records
 * and the item reads that add to them, each with the levels that see it, the fullest view first.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type {
  CollectionDeclaration,
  Declarations,
  ViewDeclaration,
  Views,
} from '../resources/declarations.ts';
import type { ItemEnvelope, ListEnvelope } from '../resources/envelope.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { operationsOf } from '../spec/operation-rules.ts';
import { LIMIT_PARAMETER } from '../spec/pagination.ts';

/** Who reads: a level's token, or none where the operation is open; and what it shows them. */
export interface Reader {
  /** The level whose token is sent; undefined: no token (an open operation). */
  readonly level: string | undefined;
  readonly view: ViewDeclaration;
}

export interface ListRead {
  /** `GET /v1/stock`, for messages. */
  readonly operation: string;
  /** The first page's path: the list's, at its largest page size where the spec gives one. */
  readonly path: string;
  readonly envelope: ListEnvelope;
  readonly readers: readonly Reader[];
}

export interface ItemRead {
  readonly operation: string;
  /** The path template: `/v1/stock/{id}`. */
  readonly path: string;
  /** The path parameter that holds the key. */
  readonly parameter: string;
  readonly envelope: ItemEnvelope;
  /** Only the levels whose item view shows a field no list view shows: the others add nothing. */
  readonly readers: readonly Reader[];
}

export interface CollectionRead {
  readonly collection: CollectionDeclaration;
  readonly lists: readonly ListRead[];
  readonly items: readonly ItemRead[];
}

export interface RecordingPlan {
  readonly collections: readonly CollectionRead[];
  /** What will not be recorded, and why: a level without a token, a list no one can read. */
  readonly warnings: readonly string[];
}

/**
 * The reads of every declared collection. `levels` are those with a token. A collection no list
 * names is not recorded (its keys cannot be found), and a warning says so.
 */
export function planRecording(
  spec: LoadedSpec,
  declarations: Declarations,
  levels: readonly string[],
): RecordingPlan {
  const warnings: string[] = [];
  const byCollection = new Map<string, { lists: ListRead[]; items: ItemRead[] }>();
  const untokened = new Set<string>();
  for (const { key, method, path, operation } of operationsOf(spec)) {
    const declaration = declarations.operations.get(key);
    if (method !== 'GET' || declaration === undefined) continue;
    if (declaration.kind !== 'list' && declaration.kind !== 'item') continue;
    const name = `GET ${path}`;
    const open = isOpen(operation, spec.dereferenced);
    const readers = readersOf(declaration.views, levels, open);
    for (const level of levelsWithoutToken(declaration.views, levels)) untokened.add(level);
    if (readers.length === 0) {
      warnings.push(`${name} is not read: no token was given for a level that sees it`);
      continue;
    }
    const reads = byCollection.get(declaration.collection) ?? { lists: [], items: [] };
    byCollection.set(declaration.collection, reads);
    if (declaration.kind === 'item') {
      reads.items.push({
        operation: name,
        path,
        parameter: declaration.parameter,
        envelope: declaration.envelope,
        readers,
      });
      continue;
    }
    if (/\{[^}]+\}/.test(path)) {
      warnings.push(`${name} is not read: a list below a path parameter names no records alone`);
      continue;
    }
    const largest = largestPage(operation);
    reads.lists.push({
      operation: name,
      path: largest === undefined ? path : `${path}?${LIMIT_PARAMETER}=${String(largest)}`,
      envelope: declaration.envelope,
      readers,
    });
  }
  for (const level of untokened) {
    warnings.push(`no token for the level ${level}: the fields only it sees are not recorded`);
  }
  const collections: CollectionRead[] = [];
  for (const [name, reads] of byCollection) {
    const collection = declarations.collections.get(name);
    if (collection === undefined) continue;
    if (reads.lists.length === 0) {
      warnings.push(`the collection ${name} is not recorded: no list that can be read names it`);
      continue;
    }
    const listViews = reads.lists.flatMap((list) => list.readers.map((reader) => reader.view));
    const items = reads.items
      .map((item) => ({
        ...item,
        readers: item.readers.filter((reader) => !covered(reader.view, listViews)),
      }))
      .filter((item) => item.readers.length > 0);
    collections.push({ collection, lists: reads.lists, items });
  }
  return { collections, warnings };
}

/** An operation answered without a token: an empty `security`, or one alternative that is `{}`. */
function isOpen(operation: OpenAPIV3_1.OperationObject, document: OpenAPIV3_1.Document): boolean {
  const security = operation.security ?? document.security ?? [];
  return security.length === 0 || security.some((one) => Object.keys(one).length === 0);
}

/** The readers of an operation: each level with a token and a view, the fullest view first. */
function readersOf(views: Views, levels: readonly string[], open: boolean): Reader[] {
  if (views.kind === 'every') {
    const [level] = levels;
    if (open) return [{ level: undefined, view: views.view }];
    return level === undefined ? [] : [{ level, view: views.view }];
  }
  return levels
    .flatMap((level) => {
      const view = views.views.get(level);
      return view === undefined ? [] : [{ level, view }];
    })
    .sort((a, b) => breadth(b.view) - breadth(a.view));
}

function levelsWithoutToken(views: Views, levels: readonly string[]): string[] {
  return views.kind === 'every' ? [] : [...views.views.keys()].filter((l) => !levels.includes(l));
}

/** How much a view shows: every field but a few where it shows the rest. */
function breadth(view: ViewDeclaration): number {
  return view.fields.length + (view.rest ? 1_000_000 - view.omit.length : 0);
}

/** Whether the list views together show every field this view shows. */
function covered(view: ViewDeclaration, listViews: readonly ViewDeclaration[]): boolean {
  const shown = new Set(listViews.flatMap((one) => one.fields.map(([, field]) => field)));
  const rests = listViews.filter((one) => one.rest);
  const seen = (field: string) =>
    shown.has(field) || rests.some((rest) => !rest.omit.includes(field));
  if (!view.fields.every(([, field]) => seen(field))) return false;
  // A rest shows fields no declaration names: only a list's rest that omits no more shows them.
  if (!view.rest) return true;
  const hidden = new Set([...view.omit, ...view.fields.map(([, field]) => field)]);
  return rests.some((rest) => rest.omit.every((field) => hidden.has(field) || shown.has(field)));
}

/** The largest page size the list's `limit` parameter allows, where its schema gives one. */
function largestPage(operation: OpenAPIV3_1.OperationObject): number | undefined {
  const parameter = (operation.parameters as OpenAPIV3_1.ParameterObject[] | undefined)?.find(
    (one) => one.name === LIMIT_PARAMETER && one.in === 'query',
  );
  const schema = parameter?.schema as OpenAPIV3_1.SchemaObject | undefined;
  return typeof schema?.maximum === 'number' && Number.isSafeInteger(schema.maximum)
    ? schema.maximum
    : undefined;
}
