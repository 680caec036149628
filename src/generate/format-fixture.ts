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

/** A whole fixture: each collection's records under its name, a line per record. */
export function formatFixture(
  collections: Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>,
): string {
  // A plain key where it can be one: the fast JSON-line reader takes the file then.
  const keyOf = (name: string) =>
    /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? name : JSON.stringify(name);
  return Object.entries(collections)
    .map(([name, list]) =>
      list.length === 0
        ? `${keyOf(name)}: []\n`
        : `${keyOf(name)}:\n${list.map(formatFixtureLine).join('')}`,
    )
    .join('');
}
