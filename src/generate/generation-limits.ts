/**
 * @module What the generator makes at most, and the error that says a schema asks for more (or
 * for what it cannot make at all).
 */

/** Why a schema's values cannot be made, in words. */
export class UngeneratableSchema extends Error {}

/**
 * What one generated value may cost (docs/fixtures.md, "Limits"): a spec is another team's, and
 * `minLength: 400000000` or `minItems` nested three deep would otherwise fill the memory before
 * the first record is written. A schema whose smallest value passes one is refused at once.
 */
export const GENERATION_LIMITS = {
  /** Characters of one text value. */
  text: 65_536,
  /** Items of one array. */
  items: 10_000,
  /** Arrays and objects nested in one value. */
  depth: 32,
  /** The smallest value's size, estimated in characters of JSON. */
  size: 1024 * 1024,
  /** Schemas read to make one field's values (a `$ref` shared by many members counts each time). */
  schemas: 10_000,
} as const;
