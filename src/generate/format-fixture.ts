/** @module Fixture YAML, written a line per product so that a million products stream out fast. */
import type { GeneratedProduct } from './generate-products.ts';

export const FIXTURE_HEADER = 'products:\n';

/**
 * One product as a YAML flow mapping. Strings are written as JSON strings, which are valid YAML
 * double-quoted scalars; numbers and null are the same in both.
 */
export function formatFixtureLine(product: GeneratedProduct): string {
  const fields = Object.entries(product).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `  - { ${fields.join(', ')} }\n`;
}
