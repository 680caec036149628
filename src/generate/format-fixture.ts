/** @module Fixture YAML, written a line per record so that a million records stream out and load fast. */

export const FIXTURE_HEADER = 'products:\n';

/** About what one generated product takes in its file, in bytes (and characters: it is ASCII). */
export const GENERATED_BYTES_PER_RECORD = 175;

/**
 * One record as a JSON object, which is also a YAML flow mapping: the file is YAML like any
 * fixture, and stockmock reads this layout with JSON.parse, ten times faster than a YAML parser
 * (src/source/json-line-fixture.ts). Written by JSON.stringify whole: member by member, the
 * line took a third of generating a million invoices.
 */
export function formatFixtureLine(record: Readonly<Record<string, unknown>>): string {
  return `  - ${JSON.stringify(record)}\n`;
}
