/** @module Which variant of the interface a spec describes: the checker adapts to it. */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { LoadedSpec } from '../spec/load-spec.ts';

/** The two open points of the interface, as the spec under test settles them. */
export interface InterfaceVariant {
  /** `quantity` or `stock`: the member that carries the absolute level. */
  readonly stockField: string;
  readonly productIdType: 'integer' | 'string';
}

/** Reads the variant from the spec's quantity-level stock schema; the samples' variant if absent. */
export function variantOf(spec: LoadedSpec): InterfaceVariant {
  const schemas = spec.dereferenced.components?.schemas ?? {};
  const properties = schemas['StockQuantityView']?.properties ?? {};
  const stockField =
    Object.keys(properties).find((name) => name !== 'product_id' && name !== 'status') ??
    'quantity';
  const productId = properties['product_id'] as OpenAPIV3_1.SchemaObject | undefined;
  return { stockField, productIdType: productId?.type === 'string' ? 'string' : 'integer' };
}
