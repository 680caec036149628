/**
 * @module The config file's JSON Schema, for editors: made from the schema that validates a
 * config file (`ConfigLayerSchema`), so that the two cannot differ. `npm run config-schema`
 * writes it to `stockmock.config.schema.json`, which the package ships and the shipped config
 * names on its first line (`# yaml-language-server: $schema=…`); a test fails when the file
 * is not what this makes.
 */
import { ConfigLayerSchema } from './config-schema.ts';

export const CONFIG_JSON_SCHEMA_FILE = 'stockmock.config.schema.json';

export function configJsonSchema(): Record<string, unknown> {
  // Draft-07: the draft every YAML and JSON editor plugin reads. JSON text drops TypeBox's
  // symbols, leaving plain JSON Schema.
  return JSON.parse(
    JSON.stringify({
      $schema: 'http://json-schema.org/draft-07/schema#',
      title: 'stockmock configuration',
      description:
        'A stockmock.config.yaml. Every key is optional; relative paths resolve against the file. See docs/configuration.md.',
      ...ConfigLayerSchema,
    }),
  ) as Record<string, unknown>;
}

/** The file's text: two-space JSON and a final newline, as Prettier leaves it. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
