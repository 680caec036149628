/**
 * @module Datasets for tests, made in this thread the way the loading worker makes them, from
 * the shipped spec's declarations: from records, fixture text or a file.
 */
import { keyAt, keyCount } from '../../src/query/keys.ts';
import { buildCollection, type RecordInput } from '../../src/dataset/build-collection.ts';
import { collectionFromData, type CollectionData } from '../../src/dataset/collection.ts';
import { createDataset, type Dataset } from '../../src/dataset/dataset.ts';
import { parseFixture } from '../../src/dataset/load-fixture.ts';
import { buildEngineData } from '../../src/query/engine.ts';
import { labelOrderOf } from '../../src/query/list-rules.ts';
import type { Condition } from '../../src/query/query.ts';
import {
  readDeclarations,
  type CollectionDeclaration,
  type Declarations,
  type FieldType,
} from '../../src/resources/declarations.ts';
import { loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import { readSourceText } from '../../src/source/read-source-text.ts';
import type { Compatibility } from '../../src/compatibility/compatibility.ts';
import { packedAt } from '../../src/util/packed-strings.ts';
import { shippedSpecOnce } from './shipped-spec.ts';

/** The interface's four statuses, written out here rather than read from the code under test. */
export const STOCK_STATUSES = ['available', 'incoming', 'on_request', 'out_of_stock'] as const;
export type StockStatus = (typeof STOCK_STATUSES)[number];

/** The shipped spec's declarations. */
export const SHIPPED: Declarations = readDeclarations(await shippedSpecOnce());
export const PRODUCTS = SHIPPED.collections.get('products') as CollectionDeclaration;

/**
 * A collection `items` keyed by an integer `id`, with the other fields given, in order: the
 * shapes a spec may declare beyond the shipped one.
 */
export function itemsDeclaration(
  fields: Readonly<Record<string, FieldType>>,
  settings: CollectionDeclaration['settings'] = {},
): CollectionDeclaration {
  return {
    name: 'items',
    key: 'id',
    keyType: 'integer',
    references: new Map(),
    embeds: new Map(),
    label: undefined,
    record: {},
    fields: new Map([['id', 'integer'], ...Object.entries(fields)]),
    derived: [],
    settings,
  };
}

/** A product as tests write one: a fixture entry. */
export interface ProductRecord {
  readonly id: number;
  readonly name: string;
  readonly quantity?: number | null;
  readonly status?: StockStatus;
  readonly [extra: string]: unknown;
}

/** The dataset of collections' columns, indexed as the loading worker indexes them. */
/** How a test's lists are ordered: the `order` setting (by id unless given). */
export interface OrderOption {
  readonly order?: Compatibility['order'];
}

function datasetOfData(data: readonly CollectionData[], order: OrderOption): Dataset {
  const plan = loadPlanOf(SHIPPED, { order: order.order ?? 'id' });
  const collation = plan.labelCollation;
  return createDataset(
    data.map((one) => {
      const declaration = SHIPPED.collections.get(one.name) as CollectionDeclaration;
      const label = declaration.label === undefined ? undefined : one.columns[declaration.label];
      return {
        collection: collectionFromData(one),
        indexes: buildEngineData(
          one.columns,
          plan.indexes[one.name] ?? { exact: [], contains: [] },
        ),
        ...(collation !== undefined && label !== undefined
          ? { labelOrder: labelOrderOf(label, keyCount(one.keys), collation) }
          : {}),
      };
    }),
  );
}

/** Products in any order (unique ids), as the shipped `products` collection. */
export function datasetOf(
  source: string,
  products: readonly object[],
  options: OrderOption = {},
): Dataset {
  const records = products as readonly RecordInput[];
  return datasetOfData([buildCollection(PRODUCTS, source, records)], options);
}

/** A fixture's text, validated as a file would be. */
export function parseDataset(file: string, text: string, options: OrderOption = {}): Dataset {
  return datasetOfData(parseFixture(file, text, [PRODUCTS]), options);
}

export async function loadDataset(file: string, options: OrderOption = {}): Promise<Dataset> {
  return parseDataset(file, await readSourceText(file), options);
}

/** A product as its columns hold it, status derived: what tests compare with. */
export interface StoredProduct {
  readonly id: number;
  readonly name: string;
  readonly quantity: number | null;
  readonly status: StockStatus;
}

/** The product at a position of a dataset's `products`. */
export function productAt(dataset: Dataset, position: number): StoredProduct {
  const { records: collection } = dataset.loaded('products');
  const read = (field: string): unknown => {
    const column = collection.column(field);
    const number = column?.of[position] ?? -1;
    return column === undefined || number < 0
      ? undefined
      : (JSON.parse(packedAt(column.values, number)) as unknown);
  };
  return {
    id: keyAt(collection.keys, position) as number,
    name: read('name') as string,
    quantity: (read('quantity') ?? null) as number | null,
    status: read('status') as StockStatus,
  };
}

/** Every product of a dataset, in order. */
export function allProducts(dataset: Dataset): StoredProduct[] {
  const size = dataset.sizes.get('products') ?? 0;
  return Array.from({ length: size }, (_, position) => productAt(dataset, position));
}

/** The filters of /v1/stock, as tests write them. */
export interface ProductFilter {
  readonly name?: string;
  readonly id?: number;
  readonly status?: StockStatus;
  /** Ranges, as a spec may declare them (`min` and `max` matches); not in the shipped spec. */
  readonly minQuantity?: number;
  readonly maxQuantity?: number;
  readonly minId?: number;
  readonly maxId?: number;
}

/** A filter as the engine's conditions, as the shipped declarations make them. */
export function conditionsOf(filter: ProductFilter): Condition[] {
  return [
    ...(filter.name === undefined
      ? []
      : [{ field: 'name', match: 'contains' as const, value: filter.name }]),
    ...(filter.id === undefined
      ? []
      : [{ field: 'id', match: 'exact' as const, value: filter.id }]),
    ...(filter.status === undefined
      ? []
      : [{ field: 'status', match: 'exact' as const, value: filter.status }]),
    ...(filter.minQuantity === undefined
      ? []
      : [{ field: 'quantity', match: 'min' as const, value: filter.minQuantity }]),
    ...(filter.maxQuantity === undefined
      ? []
      : [{ field: 'quantity', match: 'max' as const, value: filter.maxQuantity }]),
    ...(filter.minId === undefined
      ? []
      : [{ field: 'id', match: 'min' as const, value: filter.minId }]),
    ...(filter.maxId === undefined
      ? []
      : [{ field: 'id', match: 'max' as const, value: filter.maxId }]),
  ];
}
