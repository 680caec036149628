/**
 * @module The lists and items a spec declares beyond the interface's (`x-stockmock`), as the
 * checker reads them: which filter keeps what, and what each access level sees.
 *
 * The checker reads the keywords itself, leniently, rather than importing the stand-in's reader
 * (src/resources/): it judges targets, and must not move with stockmock's code. What the
 * stand-in refuses at start (an unknown match, a view of an undeclared field) is left out here.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { queryRules, type ParameterRule } from './oracle/parameter-rules.ts';
import {
  cursorValueOf,
  FALLBACK_PAGE_SIZE,
  LIMIT_PARAMETER,
  MAX_ANSWER_ITEMS,
  PAGE_PARAMETER,
  PAGING_PARTS,
  pagingByNames,
  type PagingNames,
} from '../spec/pagination.ts';
import {
  COLLECTIONS,
  ENVELOPE_NUMBERS,
  INTERFACE_ENVELOPE,
  INTERFACE_LIMITS,
  STOCK,
  type Collection,
  type ListEnvelope,
  type Id,
  type ListPaging,
  type PageLimits,
} from './walk.ts';

export const MATCH_KINDS = ['exact', 'contains', 'min', 'max'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/** What one access level sees of a record. */
export interface DeclaredView {
  /** Output member → the record field it shows. */
  readonly members: ReadonlyMap<string, string>;
  /** Every other field of the record too, under its own name, but those in `omit`. */
  readonly rest: boolean;
  readonly omit: ReadonlySet<string>;
}

/** A view per level, or one for every level. */
export type DeclaredViews =
  | { readonly kind: 'per-level'; readonly byLevel: ReadonlyMap<string, DeclaredView> }
  | { readonly kind: 'every-level'; readonly view: DeclaredView };

export interface DeclaredFilter {
  readonly parameter: string;
  readonly field: string;
  readonly match: MatchKind;
  /** The query parameter's schema: a probe it would refuse tells nothing of the filter. */
  readonly schema: OpenAPIV3_1.SchemaObject;
  /** How several values are written, where the schema is an array (`exact`: any of them). */
  readonly items: ParameterRule['items'];
}

/** A record collection (`x-stockmock-collections`): its key, label and declared fields. */
export interface DeclaredRecord {
  readonly name: string;
  readonly key: string;
  readonly label: string | undefined;
  readonly fields: ReadonlySet<string>;
  /** Fields every record has: a view that shows one shows it on every item. */
  readonly required: ReadonlySet<string>;
  /** The key's type: a string key is compared by code point, not as a number. */
  readonly keyType: 'integer' | 'string';
  /** Each field's schema: how its values compare in a sort. */
  readonly schemas: ReadonlyMap<string, OpenAPIV3_1.SchemaObject>;
}

interface Served {
  readonly record: DeclaredRecord;
  readonly views: DeclaredViews;
  /** `security: []`: answered without a token, so no level is known. */
  readonly open: boolean;
}

/**
 * A path parameter that names a parent of a nested list or item (`/events/{eventId}/tickets`):
 * the list its keys come from, and the record field that holds it, where the checker knows it.
 */
export interface DeclaredParent {
  readonly parameter: string;
  /** The parent list's path template: the path before the parameter (`/events`). */
  readonly list: string;
  /** The field of each record that holds the parent's key, where declared or named alike. */
  readonly field: string | undefined;
  /** The path parameter's schema: a key for an unknown parent must still fit it. */
  readonly schema: OpenAPIV3_1.SchemaObject;
}

export interface DeclaredList extends Served {
  /** `path` is the list's own, with its parents' keys in place (`collection.name`: the template). */
  readonly collection: Collection;
  /** The parents a nested list is under, outermost first; none for a whole collection. */
  readonly parents: readonly DeclaredParent[];
  /** The page size's `maximum` where its schema gives one: a larger size asks for a 4xx. */
  readonly sizeMaximum: number | undefined;
  readonly filters: readonly DeclaredFilter[];
  readonly sort: DeclaredSort | undefined;
  /** Every query parameter the operation declares: how each value is judged. */
  readonly rules: readonly ParameterRule[];
}

export interface DeclaredItem extends Served {
  /** The path: `/v1/warehouses/{id}`, with a nested item's parents' keys in place. */
  readonly path: string;
  /** The path template, as the spec writes it: in check ids. */
  readonly template: string;
  readonly parents: readonly DeclaredParent[];
  /** The path parameter that names the key. */
  readonly parameter: string;
  /** The key parameter's schema: a probe for an unknown key must still fit it. */
  readonly keySchema: OpenAPIV3_1.SchemaObject;
  /** Where the answer holds the record: under a member path, or as the whole body. */
  readonly envelope: readonly string[] | 'none';
}

/** A list's sort parameter, as the declaration gives it. */
export interface DeclaredSort {
  readonly parameter: string;
  /** The parameter's schema: an order it does not take (an `enum`) is not asked for. */
  readonly schema: OpenAPIV3_1.SchemaObject;
  readonly fields: readonly string[];
  /** The order without the parameter (`-issued_at`), if the declaration gives one. */
  readonly byDefault: string | undefined;
}

/** An operation that answers the number of records of collections (`x-stockmock: {health}`). */
export interface DeclaredHealth {
  readonly path: string;
  /** Each member of the answer and the collection whose records it counts. */
  readonly counts: readonly (readonly [string, string])[];
  readonly open: boolean;
}

/**
 * A declared list or item this checker cannot walk: one nested under a parent whose keys it
 * cannot learn (no list of the parents is declared, or it is empty).
 */
export interface UnwalkedList {
  readonly path: string;
  /** Why: `is nested under eventId, and no list of /events is declared`. */
  readonly shape: string;
}

export interface Declared {
  /** Nested lists have their paths filled with real parents' keys once those are learned. */
  readonly lists: readonly DeclaredList[];
  /** The parents each nested list was placed under (placeNested); none until then. */
  readonly nested: readonly NestedPlacement[];
  /** Lists and items this checker cannot walk: they are reported skipped, with the reason. */
  readonly unwalked: readonly UnwalkedList[];
  readonly items: readonly DeclaredItem[];
  readonly health: readonly DeclaredHealth[];
  /** The collections behind the interface's own lists (the shipped spec's `products`). */
  readonly interfaceRecords: readonly string[];
  /** Every level a view names, in the order met. */
  readonly levels: readonly string[];
}

/**
 * A nested list as placed for the checks: the parents its keys came from, and, for a few of
 * them, the list's path under each (the first is the list's own `collection.path`).
 */
export interface NestedPlacement {
  readonly list: DeclaredList;
  /** The nearest parent: the one the sample varies. */
  readonly parent: DeclaredParent;
  /** The keys of the parents further out, as the list was placed under them. */
  readonly outer: ReadonlyMap<string, Id>;
  /** Every key the parent list gave (an unknown parent is none of them). */
  readonly parentKeys: readonly Id[];
  /** A few parents and the list's path under each. */
  readonly under: readonly { readonly key: Id; readonly path: string }[];
  /** The nested items of the list's record, with their paths under the first parent. */
  readonly items: readonly DeclaredItem[];
}

/**
 * The list a declared item's keys come from: its own nested list (the longest path it is
 * under), else a whole collection's list of its record.
 */
export function listOfItem(declared: Declared, item: DeclaredItem): DeclaredList | undefined {
  const same = declared.lists.filter((candidate) => candidate.record === item.record);
  return (
    same
      .filter((candidate) => item.template.startsWith(`${candidate.collection.name}/`))
      .sort((a, b) => b.collection.name.length - a.collection.name.length)[0] ??
    same.find((candidate) => candidate.parents.length === 0) ??
    same[0]
  );
}

/**
 * The stand-in's own open paths (PRODUCT.md "Surface"), beside the interface's: a real service
 * of the interface answers them as it likes, or not at all.
 */
const STAND_IN_SURFACE: ReadonlySet<string> = new Set([
  '/healthz',
  '/openapi.json',
  '/openapi.yaml',
  '/docs',
]);

/** Whether a path is the stand-in's own, in a spec of the interface: not the interface's. */
export function isStandInSurface(
  spec: { readonly dereferenced: OpenAPIV3_1.Document },
  path: string,
): boolean {
  return STAND_IN_SURFACE.has(path) && servesInterface(spec);
}

/** Whether the spec has the interface's stock list, which the interface's checks start from. */
export function servesInterface(spec: { readonly dereferenced: OpenAPIV3_1.Document }): boolean {
  return spec.dereferenced.paths?.[STOCK.path]?.get !== undefined;
}

/** Whether a path is one of the interface's own, which the interface's checks judge. */
export function isInterfacePath(path: string): boolean {
  return COLLECTIONS.some(
    (collection) => path === collection.path || path.startsWith(`${collection.path}/`),
  );
}

/** The view a level sees, if the operation declares one for it. */
export function viewFor(views: DeclaredViews, level: string): DeclaredView | undefined {
  return views.kind === 'every-level' ? views.view : views.byLevel.get(level);
}

/** The member that shows `field` in a view, if it shows it. */
export function memberOf(view: DeclaredView, field: string): string | undefined {
  for (const [member, shown] of view.members) if (shown === field) return member;
  return view.rest && !view.omit.has(field) ? field : undefined;
}

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : [];
}

function readView(value: unknown): DeclaredView | undefined {
  if (!isObject(value)) return undefined;
  const fields = isObject(value['fields']) ? value['fields'] : {};
  const members = new Map<string, string>();
  for (const [member, field] of Object.entries(fields)) {
    if (typeof field === 'string') members.set(member, field);
  }
  return { members, rest: value['rest'] === true, omit: new Set(strings(value['omit'])) };
}

/** The record as it is: every field, under its own name. */
const WHOLE_RECORD: DeclaredView = { members: new Map(), rest: true, omit: new Set() };

function readViews(declaration: Json): DeclaredViews | undefined {
  if (declaration['view'] === undefined && declaration['views'] === undefined) {
    return { kind: 'every-level', view: WHOLE_RECORD };
  }
  const single = readView(declaration['view']);
  if (single !== undefined) return { kind: 'every-level', view: single };
  if (!isObject(declaration['views'])) return undefined;
  const byLevel = new Map<string, DeclaredView>();
  for (const [level, value] of Object.entries(declaration['views'])) {
    const view = readView(value);
    if (view !== undefined) byLevel.set(level, view);
  }
  return { kind: 'per-level', byLevel };
}

function readRecords(document: OpenAPIV3_1.Document): Map<string, DeclaredRecord> {
  const declared = (document as unknown as Json)['x-stockmock-collections'];
  const records = new Map<string, DeclaredRecord>();
  if (!isObject(declared)) return records;
  for (const [name, value] of Object.entries(declared)) {
    if (!isObject(value) || typeof value['key'] !== 'string') continue;
    const schema = isObject(value['record']) ? value['record'] : {};
    const declared = (isObject(schema['properties']) ? schema['properties'] : {}) as Readonly<
      Record<string, OpenAPIV3_1.SchemaObject>
    >;
    const properties = Object.keys(declared);
    const derived = isObject(value['derive']) ? Object.keys(value['derive']) : [];
    const keyType = declared[value['key']]?.type;
    records.set(name, {
      name,
      key: value['key'],
      label: typeof value['label'] === 'string' ? value['label'] : undefined,
      fields: new Set([value['key'], ...properties, ...derived]),
      required: new Set([value['key'], ...strings(schema['required'])]),
      keyType:
        keyType === 'string' || (Array.isArray(keyType) && keyType.includes('string'))
          ? 'string'
          : 'integer',
      schemas: new Map(Object.entries(declared)),
    });
  }
  return records;
}

/**
 * A list's page sizes, from its size parameter's schema: its default (else 20 within its bounds,
 * as docs/declare-a-resource.md says) and its maximum (else the interface's, a size every list
 * takes). A list without one is answered whole.
 */
function limitsOf(paging: ListPaging, rules: readonly ParameterRule[]): PageLimits {
  const name = paging.kind === 'whole' ? undefined : paging.size;
  if (name === undefined) return { default: MAX_ANSWER_ITEMS, max: MAX_ANSWER_ITEMS };
  const schema = rules.find((rule) => rule.name === name)?.schema ?? {};
  const minimum = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
  const maximum = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : undefined;
  const fallback = Math.max(1, minimum, Math.min(FALLBACK_PAGE_SIZE, maximum ?? Infinity));
  return {
    default: typeof schema.default === 'number' ? schema.default : fallback,
    max: maximum ?? INTERFACE_LIMITS.max,
  };
}

function sizeMaximumOf(paging: ListPaging, rules: readonly ParameterRule[]): number | undefined {
  const name = paging.kind === 'whole' ? undefined : paging.size;
  const maximum = rules.find((rule) => rule.name === name)?.schema.maximum;
  return typeof maximum === 'number' ? maximum : undefined;
}

function readFilters(value: unknown, rules: readonly ParameterRule[]): DeclaredFilter[] {
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([parameter, filter]) =>
    isObject(filter) &&
    typeof filter['field'] === 'string' &&
    (MATCH_KINDS as readonly unknown[]).includes(filter['match'])
      ? [
          {
            parameter,
            field: filter['field'],
            match: filter['match'] as MatchKind,
            schema: rules.find((rule) => rule.name === parameter)?.schema ?? {},
            items: rules.find((rule) => rule.name === parameter)?.items ?? { explode: true },
          },
        ]
      : [],
  );
}

/** Where a list answer holds its parts: as declared, or the interface's `{data, links}`. */
function readEnvelope(value: unknown): ListEnvelope {
  if (value === 'none') return { kind: 'none' };
  if (!isObject(value) || typeof value['items'] !== 'string') return INTERFACE_ENVELOPE;
  const path = (part: string): readonly string[] | undefined =>
    typeof value[part] === 'string' ? value[part].split('.') : undefined;
  const parts = Object.fromEntries(
    (['links', 'nextCursor', 'previousCursor', 'hasMore', ...ENVELOPE_NUMBERS] as const).flatMap(
      (part) => {
        const found = path(part);
        return found === undefined ? [] : [[part, found]];
      },
    ),
  );
  return { kind: 'object', items: value['items'].split('.'), ...parts };
}

function readSort(value: unknown, rules: readonly ParameterRule[]): DeclaredSort | undefined {
  if (!isObject(value) || typeof value['parameter'] !== 'string') return undefined;
  const parameter = value['parameter'];
  return {
    parameter,
    schema: rules.find((rule) => rule.name === parameter)?.schema ?? {},
    fields: strings(value['fields']),
    byDefault: typeof value['default'] === 'string' ? value['default'] : undefined,
  };
}

/** The member that shows the key, in the first view that shows it. */
function keyMember(views: DeclaredViews, key: string): string {
  const all = views.kind === 'every-level' ? [views.view] : [...views.byLevel.values()];
  for (const view of all) {
    const member = memberOf(view, key);
    if (member !== undefined) return member;
  }
  return key;
}

/**
 * The GET operations of `document` that a declaration serves from data, outside the interface's
 * paths (those have checks of their own, which know the interface's two readings).
 */
export function readDeclared(document: OpenAPIV3_1.Document): Declared {
  const records = readRecords(document);
  const lists: DeclaredList[] = [];
  const unwalked: UnwalkedList[] = [];
  const items: DeclaredItem[] = [];
  const levels = new Set<string>();
  const health: DeclaredHealth[] = [];
  const interfaceRecords = new Set<string>();
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    const operation = pathItem?.get;
    const declaration = (operation as Json | undefined)?.['x-stockmock'];
    if (operation === undefined || !isObject(declaration)) continue;
    if (isObject(declaration['health'])) {
      const counts = Object.entries(declaration['health']).flatMap(([member, collection]) =>
        typeof collection === 'string' ? [[member, collection] as const] : [],
      );
      const open = (operation.security ?? document.security ?? []).length === 0;
      health.push({ path, counts, open });
      continue;
    }
    const record = records.get(String(declaration['collection']));
    const views = readViews(declaration);
    if (record === undefined || views === undefined) continue;
    if (views.kind === 'per-level') for (const level of views.byLevel.keys()) levels.add(level);
    if (isInterfacePath(path)) {
      interfaceRecords.add(record.name);
      continue;
    }
    const open = (operation.security ?? document.security ?? []).length === 0;
    const rules = queryRules(document, path);
    const item = typeof declaration['item'] === 'string' ? declaration['item'] : undefined;
    const pathParameters = ((operation.parameters ?? []) as OpenAPIV3_1.ParameterObject[])
      .concat((pathItem?.parameters ?? []) as OpenAPIV3_1.ParameterObject[])
      .filter((candidate) => candidate.in === 'path');
    const schemaOf = (name: string) =>
      (pathParameters.find((candidate) => candidate.name === name)?.schema ??
        {}) as OpenAPIV3_1.SchemaObject;
    const parents = parentsOf(path, item, declaration, record).map((parent) => ({
      ...parent,
      schema: schemaOf(parent.parameter),
    }));
    if (item !== undefined) {
      const keySchema = schemaOf(item);
      const envelope = declaration['envelope'];
      items.push({
        path,
        template: path,
        parents,
        parameter: item,
        record,
        views,
        open,
        keySchema,
        envelope:
          envelope === 'none'
            ? 'none'
            : isObject(envelope) && typeof envelope['item'] === 'string'
              ? envelope['item'].split('.')
              : ['data'],
      });
      continue;
    }
    const filters = readFilters(declaration['filters'], rules);
    const envelope = readEnvelope(declaration['envelope']);
    const paging = readPaging(declaration, rules, envelope, keyMember(views, record.key));
    const label =
      record.label === undefined
        ? undefined
        : filters.find((filter) => filter.field === record.label && filter.match === 'contains');
    lists.push({
      collection: {
        name: path,
        path,
        idKey: keyMember(views, record.key),
        ...(label === undefined ? {} : { labelFilter: label.parameter, labelSchema: label.schema }),
        limits: limitsOf(paging, rules),
        origin: 'declared',
        keyType: record.keyType,
        envelope,
        paging,
      },
      parents,
      sizeMaximum: sizeMaximumOf(paging, rules),
      record,
      views,
      open,
      filters,
      sort: readSort(declaration['sort'], rules),
      rules,
    });
  }
  return {
    lists,
    nested: [],
    unwalked,
    items,
    health,
    interfaceRecords: [...interfaceRecords],
    levels: [...levels],
  };
}

/**
 * How a declared list is paged: as its `paging` names it, or as the names of its query
 * parameters that no filter and no sort claims say (spec/pagination.ts, the one reading of those
 * names). The interface's `page` and `limit` are walked by the links where the answer has them.
 */
function readPaging(
  declaration: Json,
  rules: readonly ParameterRule[],
  envelope: ListEnvelope,
  /** The item member that holds its key: what a cursor that is a key is read from. */
  keyMember: string,
): ListPaging {
  const paging = declaration['paging'];
  if (paging === 'none') return { kind: 'whole' };
  let names: PagingNames;
  if (isObject(paging)) {
    names = Object.fromEntries(
      PAGING_PARTS.flatMap((part) =>
        typeof paging[part] === 'string' ? [[part, paging[part]] as const] : [],
      ),
    );
  } else {
    const filters = isObject(declaration['filters']) ? Object.keys(declaration['filters']) : [];
    const sort = isObject(declaration['sort']) ? declaration['sort']['parameter'] : undefined;
    const free = rules
      .map(({ name }) => name)
      .filter((name) => !filters.includes(name) && name !== sort);
    names = pagingByNames(free).found;
  }
  const { size, page, offset, cursor, before } = names;
  if (cursor !== undefined) {
    const declared = isObject(paging) ? paging['cursorValue'] : undefined;
    const givesCursors =
      envelope.kind === 'none' ||
      envelope.nextCursor !== undefined ||
      envelope.previousCursor !== undefined ||
      envelope.links !== undefined;
    const value = cursorValueOf(
      declared === 'key' || declared === 'opaque' ? declared : undefined,
      givesCursors,
    );
    return {
      kind: 'cursor',
      cursor,
      size,
      before,
      keyMember: value === 'key' ? keyMember : undefined,
    };
  }
  if (page !== undefined) {
    const linked = envelope.kind === 'none' || envelope.links !== undefined;
    if (page === PAGE_PARAMETER && size === LIMIT_PARAMETER && linked) {
      return { kind: 'links', size };
    }
    const schema = rules.find((rule) => rule.name === page)?.schema ?? {};
    const first =
      typeof schema.minimum === 'number'
        ? schema.minimum <= 0
          ? 0
          : 1
        : schema.default === 0
          ? 0
          : 1;
    return { kind: 'number', page, first, size };
  }
  if (offset !== undefined) return { kind: 'offset', offset, size };
  return size === undefined ? { kind: 'whole' } : { kind: 'first-page', size };
}

/**
 * The parents a nested path names: each path parameter but the item's key, with the list its
 * keys come from (the path before it) and the field that holds it: the one `parents` names, else
 * a field of the parameter's name, compared without case and separators (`eventId`, `event_id`).
 */
function parentsOf(
  path: string,
  item: string | undefined,
  declaration: Json,
  record: DeclaredRecord,
): Omit<DeclaredParent, 'schema'>[] {
  const declared = isObject(declaration['parents']) ? declaration['parents'] : {};
  const loose = (name: string) => name.toLowerCase().replace(/[-_.]/g, '');
  return [...path.matchAll(/\{([^}]+)\}/g)].flatMap((match) => {
    const parameter = match[1] ?? '';
    if (parameter === item) return [];
    const named = declared[parameter];
    const field =
      typeof named === 'string'
        ? named
        : [...record.fields].find((candidate) => loose(candidate) === loose(parameter));
    return [{ parameter, list: path.slice(0, match.index).replace(/\/$/, ''), field }];
  });
}
