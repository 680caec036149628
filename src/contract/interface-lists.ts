/**
 * @module The interface's lists and items as the model reads declared ones: /v1/stock with its
 * `name` filter (the product's name, from the product list), `status` and `id`, a view per level;
 * /v1/products paged, and with PRODUCT.md's filters at the stand-in level (the interface leaves
 * them open); each one's item by id. What each level saw comes from the walks learn.ts made.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Level } from './check.ts';
import type { DeclaredFilter, DeclaredItem, DeclaredList, MatchKind } from './declared.ts';
import type { Learned, LearnedList } from './learn.ts';
import { listModel, type ListModel } from './oracle/declared-page.ts';
import { queryRules } from './oracle/parameter-rules.ts';
import type { TokenLevel } from './target-client.ts';
import { idOf, PRODUCTS, STOCK, type Collection, type Id, type Item } from './walk.ts';

type Filters = readonly (readonly [parameter: string, field: string, match: MatchKind])[];

/** The interface's filters of /v1/stock: parameter, the field it keeps by, and how. */
const STOCK_FILTERS: Filters = [
  ['name', 'name', 'contains'],
  ['status', 'status', 'exact'],
  ['id', 'product_id', 'exact'],
];

/** PRODUCT.md gives /v1/products the same filters, where its records have the field. */
const PRODUCT_FILTERS: Filters = [
  ['name', 'name', 'contains'],
  ['id', 'id', 'exact'],
];

function interfaceList(
  spec: OpenAPIV3_1.Document,
  collection: Collection,
  declared: Filters,
): DeclaredList {
  const rules = queryRules(spec, collection.path);
  const filters: DeclaredFilter[] = declared.flatMap(([parameter, field, match]) => {
    const rule = rules.find((candidate) => candidate.name === parameter);
    return rule === undefined
      ? []
      : [{ parameter, field, match, schema: rule.schema, items: rule.items }];
  });
  return {
    collection,
    record: {
      name: collection.name,
      key: collection.idKey,
      label: 'name',
      fields: new Set(),
      required: new Set(),
      keyType: collection.keyType,
      schemas: new Map(),
    },
    // Each level's items are held to what that level saw of the whole list.
    views: { kind: 'every-level', view: { members: new Map(), rest: true, omit: new Set() } },
    open: false,
    parents: [],
    sizeMaximum: collection.limits.max,
    filters,
    sort: undefined,
    rules,
  };
}

/** One of the interface's lists, with whose rule its filters are. */
export interface InterfaceList {
  readonly list: DeclaredList;
  readonly level: Level;
  readonly source: string;
}

/**
 * The interface's lists as the spec declares their parameters: each paged, /v1/stock filtered;
 * and /v1/products filtered as PRODUCT.md decides, judged at the stand-in level.
 */
export function interfaceLists(spec: OpenAPIV3_1.Document): InterfaceList[] {
  const rules = (path: string) => `interface: GET ${path} parameters; Limits; List envelope`;
  return [
    {
      list: interfaceList(spec, STOCK, STOCK_FILTERS),
      level: 'interface',
      source: rules(STOCK.path),
    },
    { list: interfaceList(spec, PRODUCTS, []), level: 'interface', source: rules(PRODUCTS.path) },
    {
      list: interfaceList(spec, PRODUCTS, PRODUCT_FILTERS),
      level: 'stand-in',
      source: 'PRODUCT.md: /v1/products payload (same filters)',
    },
  ];
}

/**
 * What the walks taught of one of the interface's lists: stock items by level, each merged with
 * what the other levels show of it and its product's name; products as the primary level saw
 * them (the interface does not say another level sees them alike).
 */
export function interfaceLearned(
  learned: Learned,
  primary: TokenLevel,
  collection: Collection,
): LearnedList {
  if (collection !== STOCK) {
    return {
      byLevel: new Map([[primary, learned.products]]),
      holder: primary,
      items: learned.products,
      labels: learned.names,
    };
  }
  const known = new Map<Id, Item>();
  for (const items of learned.stock.values()) {
    for (const item of items) {
      const id = idOf(STOCK, item);
      if (id !== undefined) known.set(id, { ...known.get(id), ...item });
    }
  }
  const nameOf = (id: Id | undefined) =>
    id === undefined ? undefined : (learned.names.get(id) ?? learned.names.get(Number(id)));
  const items = (learned.stock.get(primary) ?? []).map((item) => {
    const id = idOf(STOCK, item);
    return { ...(id === undefined ? {} : known.get(id)), ...item, name: nameOf(id) };
  });
  return { byLevel: learned.stock, holder: primary, items, labels: learned.names };
}

/**
 * The model of one of the interface's lists; without its name filter where a stock item's name
 * is not in the product list, since what the service keeps by it cannot be told.
 */
export function interfaceModel(
  list: DeclaredList,
  learned: Learned,
  primary: TokenLevel,
): ListModel | undefined {
  const seen = interfaceLearned(learned, primary, list.collection);
  if (seen.items.length === 0) return undefined;
  const model = listModel(list, seen);
  const named = seen.items.every((item) => typeof item['name'] === 'string');
  return named ? model : { ...model, filters: model.filters.filter((f) => f.field !== 'name') };
}

/** One of the interface's items (`/v1/stock/{id}`), with the list its keys come from. */
export interface InterfaceItem extends InterfaceList {
  readonly item: DeclaredItem;
}

/**
 * The interface's items: `/v1/stock/{id}`, and `/v1/products/{id}`, which PRODUCT.md gives
 * (judged at the stand-in level); each keyed as the spec's path parameter says.
 */
export function interfaceItems(spec: OpenAPIV3_1.Document): InterfaceItem[] {
  return (
    interfaceLists(spec)
      // The stock item is the interface's; the product item PRODUCT.md's, as its filters are.
      .filter(({ list, level }) => (list.collection === STOCK) === (level === 'interface'))
      .map((of) => {
        const path = `${of.list.collection.path}/{id}`;
        const parameters = (spec.paths?.[path]?.get?.parameters ??
          []) as OpenAPIV3_1.ParameterObject[];
        const keySchema = (parameters.find((one) => one.in === 'path')?.schema ??
          {}) as OpenAPIV3_1.SchemaObject;
        const { record, views, open } = of.list;
        const item: DeclaredItem = {
          path,
          template: path,
          parents: [],
          parameter: 'id',
          keySchema,
          envelope: ['data'],
          record,
          views,
          open,
        };
        return {
          ...of,
          item,
          source:
            of.level === 'interface'
              ? 'interface: GET /v1/stock/:id; RFC 9110 §15.5'
              : 'PRODUCT.md: /v1/products payload (`/v1/products/:id` returns one)',
        };
      })
  );
}
