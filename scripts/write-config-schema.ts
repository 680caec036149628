/** `npm run config-schema`: writes stockmock.config.schema.json from the config's own schema. */
import { writeFileSync } from 'node:fs';
import { CONFIG_JSON_SCHEMA_FILE, configJsonSchemaText } from '../src/config/config-json-schema.ts';

const file = new URL(`../${CONFIG_JSON_SCHEMA_FILE}`, import.meta.url);
writeFileSync(file, configJsonSchemaText());
process.stdout.write(`wrote ${CONFIG_JSON_SCHEMA_FILE}\n`);
