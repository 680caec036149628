/** @module The one JSON Schema validator setup, for files and parameters alike. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { linearRegExpEngine } from './linear-pattern.ts';

/**
 * Ajv for JSON Schema 2020-12 (the dialect of OpenAPI 3.1), reporting every error, not
 * just the first, so that a file or a request is answered with all that is wrong at once.
 *
 * `ownSchemas`: the schemas are stockmock's own (TypeBox, in the code, covered by tests), so Ajv
 * need not check them against the meta-schema, whose compilation costs 30–60 ms of every start.
 * Schemas that come from a user's spec keep the check.
 */
export function createAjv(options: { ownSchemas?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // The failing schema with each error: an unknown field is told from a typo of a known one.
    verbose: true,
    strict: false,
    // Only a value's own members count: a record without an optional field `toString` lacks it,
    // whatever Object.prototype has.
    ownProperties: true,
    // A multiple within rounding: 0.15 / 0.05 is 2.9999999999999996 in binary, and 0.15 is a
    // multiple of 0.05 to the person who wrote both.
    multipleOfPrecision: 9,
    validateSchema: options.ownSchemas !== true,
    // A spec's `pattern` is matched in linear time: a request value must not hold the thread.
    code: { regExp: linearRegExpEngine },
  });
  addFormats.default(ajv);
  return ajv;
}
