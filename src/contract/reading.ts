/**
 * @module How a target reads the two points where the interface document allows two readings:
 * the absolute level is named `stock` (field listing) or `quantity` (sample payloads), and
 * `product_id` is a string (field listing) or an integer (samples and the `id` filter).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec } from '../spec/load-spec.ts';

export const STOCK_FIELDS = ['quantity', 'stock'] as const;
export type StockField = (typeof STOCK_FIELDS)[number];

export interface Reading {
  readonly stockField: StockField;
  readonly productIdType: 'integer' | 'string';
}

type Schemas = Record<string, OpenAPIV3_1.SchemaObject>;

function schemasOf(document: OpenAPIV3_1.Document): Schemas {
  return document.components?.schemas ?? {};
}

/** The reading a spec describes, from its quantity-level stock schema; the samples' if absent. */
export function readingOfSpec(spec: LoadedSpec): Reading {
  const properties = schemasOf(spec.dereferenced)['StockQuantityView']?.properties ?? {};
  const stockField = Object.keys(properties).includes('stock') ? 'stock' : 'quantity';
  const productId = properties['product_id'] as OpenAPIV3_1.SchemaObject | undefined;
  return { stockField, productIdType: productId?.type === 'string' ? 'string' : 'integer' };
}

export function describeReading(reading: Reading): string {
  return `the absolute level is named \`${reading.stockField}\`, product_id is ${reading.productIdType === 'string' ? 'a string' : 'an integer'}`;
}

/** What the items show of a reading: each field name and id type seen, with how often. */
export interface ReadingTally {
  readonly stockFields: ReadonlyMap<StockField, number>;
  readonly idTypes: ReadonlyMap<'integer' | 'string', number>;
}

export function tallyReading(
  quantityItems: readonly Readonly<Record<string, unknown>>[],
  allItems: readonly Readonly<Record<string, unknown>>[],
): ReadingTally {
  const stockFields = new Map<StockField, number>();
  for (const item of quantityItems) {
    for (const field of STOCK_FIELDS) {
      if (field in item) stockFields.set(field, (stockFields.get(field) ?? 0) + 1);
    }
  }
  const idTypes = new Map<'integer' | 'string', number>();
  for (const item of allItems) {
    const id = item['product_id'];
    const type = typeof id === 'string' ? 'string' : typeof id === 'number' ? 'integer' : undefined;
    if (type !== undefined) idTypes.set(type, (idTypes.get(type) ?? 0) + 1);
  }
  return { stockFields, idTypes };
}

/** The reading the items use most; where they show none, the spec's. */
export function readingOf(tally: ReadingTally, fallback: Reading): Reading {
  const most = <T>(counts: ReadonlyMap<T, number>, otherwise: T): T =>
    [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? otherwise;
  return {
    stockField: most(tally.stockFields, fallback.stockField),
    productIdType: most(tally.idTypes, fallback.productIdType),
  };
}

/**
 * The spec as the interface level judges successful answers with it: the stock schemas in the
 * target's reading, and links as the interface states them (a URL string, relative ones too;
 * `first` and `last` may be null where the list has no page). What the spec adds beyond the
 * interface for error answers is not judged from it at this level (see http-rules.ts).
 */
export async function interfaceSpec(spec: LoadedSpec, reading: Reading): Promise<LoadedSpec> {
  const document = structuredClone<OpenAPIV3_1.Document>(spec.document);
  const schemas = schemasOf(document);
  const quantityView = schemas['StockQuantityView'];
  const statusView = schemas['StockStatusView'];
  for (const view of [quantityView, statusView]) {
    if (view?.properties === undefined) continue;
    view.properties['product_id'] =
      reading.productIdType === 'string'
        ? { type: 'string', pattern: '^[1-9][0-9]*$' }
        : { type: 'integer', minimum: 1 };
  }
  if (quantityView?.properties !== undefined) {
    const { product_id: id, status } = quantityView.properties;
    if (id !== undefined && status !== undefined) {
      // An integer or null: the interface sets no lower bound (PRODUCT.md's ≥ 0 is a stand-in
      // check), and says nothing against members beyond the three it lists.
      const level: OpenAPIV3_1.SchemaObject = { type: ['integer', 'null'] };
      quantityView.properties = { product_id: id, [reading.stockField]: level, status };
      quantityView.required = ['product_id', reading.stockField, 'status'];
    }
  }
  for (const view of [quantityView, statusView]) {
    if (view !== undefined) view.additionalProperties = true;
  }
  // Open views overlap, so one stock object may match both: any, not exactly one.
  const stock = schemas['Stock'];
  if (stock?.oneOf !== undefined) {
    stock.anyOf = stock.oneOf;
    delete stock.oneOf;
  }
  // A product record: the interface shows an `id` only, of either type (the open point).
  const product = schemas['Product'];
  if (product?.properties !== undefined) {
    product.required = ['id'];
    product.properties['id'] = {
      oneOf: [
        { type: 'integer', minimum: 1 },
        { type: 'string', pattern: '^[1-9][0-9]*$' },
      ],
    };
  }
  const links = schemas['Links']?.properties;
  if (links !== undefined) {
    for (const name of Object.keys(links)) {
      links[name] = { type: ['string', 'null'], format: 'uri-reference' };
    }
  }
  const dereferenced = (await SwaggerParser.dereference(
    structuredClone(document) as never,
  )) as OpenAPIV3_1.Document;
  return { ...spec, document, dereferenced };
}
