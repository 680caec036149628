/** @module Fixture YAML, written a line per product so that a million products stream out and load fast. */

export const FIXTURE_HEADER = 'products:\n';

/** About what one generated product takes in its file, in bytes (and characters: it is ASCII). */
export const GENERATED_BYTES_PER_RECORD = 175;

/**
 * One product as a JSON object, which is also a YAML flow mapping: the file is YAML like any
 * fixture, and stockmock reads this layout with JSON.parse, ten times faster than a YAML parser
 * (src/source/json-line-fixture.ts).
 */
export function formatFixtureLine(product: Readonly<Record<string, unknown>>): string {
  const fields = Object.entries(product)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `  - {${fields.join(', ')}}\n`;
}
