/** @module The spec as the compatibility settings make the server speak: what it serves and checks. */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { DEFAULT_COMPATIBILITY, type Compatibility } from '../access/compatibility.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import type { LoadedSpec } from './load-spec.ts';

type Schemas = Record<string, OpenAPIV3_1.SchemaObject>;

/**
 * Rewrites the stock object schemas (and the examples of the stock operations) for the settings:
 * the absolute level under `stock` instead of `quantity`, and `product_id` as a string of digits.
 * The default settings return the spec unchanged.
 */
export async function applyCompatibility(
  spec: LoadedSpec,
  compatibility: Compatibility,
): Promise<LoadedSpec> {
  if (
    compatibility.stockField === DEFAULT_COMPATIBILITY.stockField &&
    compatibility.productIdType === DEFAULT_COMPATIBILITY.productIdType
  ) {
    return spec;
  }
  const document = structuredClone<OpenAPIV3_1.Document>(spec.document);
  const schemas = (document.components?.schemas ?? {}) as Schemas;
  const quantityView = schemas['StockQuantityView'];
  const statusView = schemas['StockStatusView'];
  if (quantityView === undefined || statusView === undefined) {
    throw new Error(
      `${spec.file}: compatibility settings need the StockQuantityView and StockStatusView schemas`,
    );
  }
  for (const view of [quantityView, statusView]) {
    if (compatibility.productIdType === 'string') {
      view.properties = {
        ...view.properties,
        product_id: { type: 'string', pattern: '^[1-9][0-9]*$' },
      };
    }
  }
  if (compatibility.stockField === 'stock') {
    const { quantity, ...rest } = quantityView.properties ?? {};
    quantityView.properties = {
      product_id: rest['product_id'] ?? {},
      stock: quantity ?? {},
      status: rest['status'] ?? {},
    };
    quantityView.required = (quantityView.required ?? []).map((name) =>
      name === 'quantity' ? 'stock' : name,
    );
    quantityView.description = (quantityView.description ?? '').replaceAll('`quantity`', '`stock`');
  }
  for (const path of ['/v1/stock', '/v1/stock/{id}']) {
    const examples = document.paths?.[path]?.get?.responses['200'] as
      OpenAPIV3_1.ResponseObject | undefined;
    for (const example of Object.values(examples?.content?.['application/json']?.examples ?? {})) {
      const value = (example as { value?: { data?: unknown } }).value;
      if (value?.data !== undefined) value.data = rewriteData(value.data, compatibility);
    }
  }
  const dereferenced = (await SwaggerParser.dereference(
    structuredClone(document) as never,
  )) as OpenAPIV3_1.Document;
  return deepFreeze({ file: spec.file, document, dereferenced });
}

function rewriteData(data: unknown, compatibility: Compatibility): unknown {
  if (Array.isArray(data)) return data.map((item) => rewriteData(item, compatibility));
  if (typeof data !== 'object' || data === null) return data;
  const { product_id: id, quantity, ...rest } = data as Record<string, unknown>;
  const productId = compatibility.productIdType === 'string' ? String(id) : id;
  if (quantity === undefined) return { product_id: productId, ...rest };
  return { product_id: productId, [compatibility.stockField]: quantity, ...rest };
}
