/** @module The one JSON Schema validator setup, for files and parameters alike. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Ajv for JSON Schema 2020-12 (the dialect of OpenAPI 3.1), reporting every error, not
 * just the first, so that a file or a request is answered with all that is wrong at once.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv;
}
