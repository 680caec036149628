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
  LIMIT_PARAMETER,
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

export interface DeclaredList extends Served {
  readonly collection: Collection;
  readonly filters: readonly DeclaredFilter[];
  readonly sort: DeclaredSort | undefined;
}

export interface DeclaredItem extends Served {
  /** The path template: `/v1/warehouses/{id}`. */
  readonly path: string;
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
 * A declared list or item this checker does not walk yet: a list paged otherwise than by the
 * interface's `page` and `limit`, or one nested under a parent's path parameter.
 */
export interface UnwalkedList {
  readonly path: string;
  /** `pages by pageSize (size) and page (page)`, `is nested under eventId`. */
  readonly shape: string;
}

export interface Declared {
  readonly lists: readonly DeclaredList[];
  /** Lists this checker does not walk yet: they are reported skipped, never judged by `limit`. */
  readonly unwalked: readonly UnwalkedList[];
  readonly items: readonly DeclaredItem[];
  readonly health: readonly DeclaredHealth[];
  /** The collections behind the interface's own lists (the shipped spec's `products`). */
  readonly interfaceRecords: readonly string[];
  /** Every level a view names, in the order met. */
  readonly levels: readonly string[];
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

function limitsOf(operation: OpenAPIV3_1.OperationObject): PageLimits {
  const limit = (operation.parameters as OpenAPIV3_1.ParameterObject[] | undefined)?.find(
    (parameter) => parameter.name === 'limit' && parameter.in === 'query',
  );
  const schema = (limit?.schema ?? {}) as OpenAPIV3_1.SchemaObject;
  return {
    default: typeof schema.default === 'number' ? schema.default : INTERFACE_LIMITS.default,
    max: typeof schema.maximum === 'number' ? schema.maximum : INTERFACE_LIMITS.max,
  };
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
    (['links', ...ENVELOPE_NUMBERS] as const).flatMap((part) => {
      const found = path(part);
      return found === undefined ? [] : [[part, found]];
    }),
  );
  return { kind: 'object', items: value['items'].split('.'), ...parts };
}

function readSort(value: unknown): DeclaredSort | undefined {
  if (!isObject(value) || typeof value['parameter'] !== 'string') return undefined;
  return {
    parameter: value['parameter'],
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
    const parents = [...path.matchAll(/\{([^}]+)\}/g)]
      .map((match) => match[1] ?? '')
      .filter((name) => name !== declaration['item']);
    if (parents.length > 0) {
      unwalked.push({ path, shape: `is nested under ${parents.join(' and ')}` });
      continue;
    }
    if (typeof declaration['item'] === 'string') {
      const parameter = declaration['item'];
      const keyParameter = (operation.parameters as OpenAPIV3_1.ParameterObject[] | undefined)
        ?.concat((pathItem?.parameters ?? []) as OpenAPIV3_1.ParameterObject[])
        .find((candidate) => candidate.in === 'path' && candidate.name === parameter);
      const keySchema = (keyParameter?.schema ?? {}) as OpenAPIV3_1.SchemaObject;
      const envelope = declaration['envelope'];
      items.push({
        path,
        parameter,
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
    const filters = readFilters(declaration['filters'], queryRules(document, path));
    const paging = otherPaging(declaration, queryRules(document, path));
    if (paging !== undefined) {
      unwalked.push({ path, shape: `pages by ${paging}` });
      continue;
    }
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
        limits: limitsOf(operation),
        origin: 'declared',
        keyType: record.keyType,
        envelope: readEnvelope(declaration['envelope']),
      },
      record,
      views,
      open,
      filters,
      sort: readSort(declaration['sort']),
    });
  }
  return {
    lists,
    unwalked,
    items,
    health,
    interfaceRecords: [...interfaceRecords],
    levels: [...levels],
  };
}

/**
 * How a declared list is paged where that is not by the interface's `page` and `limit`: as its
 * `paging` names it, or as the names of its query parameters that no filter and no sort claims
 * say (spec/pagination.ts, the one reading of those names).
 */
function otherPaging(declaration: Json, rules: readonly ParameterRule[]): string | undefined {
  const paging = declaration['paging'];
  if (paging === 'none') return 'no paging parameter (the whole list)';
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
  if (
    names.page === PAGE_PARAMETER &&
    names.size === LIMIT_PARAMETER &&
    names.offset === undefined
  ) {
    return undefined;
  }
  const named = PAGING_PARTS.flatMap((part) => {
    const name = names[part];
    return name === undefined ? [] : [`${name} (${part})`];
  });
  return named.length === 0 ? 'no paging parameter (the whole list)' : named.join(' and ');
}
