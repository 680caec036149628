/**
 * stockmock.config.schema.json: made from the config's own schema, shipped, named by the
 * shipped config, and true to every config in the repository, as an editor would check them
 * (plain draft-07 Ajv, the meta-schema checked too).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import {
  CONFIG_JSON_SCHEMA_FILE,
  configJsonSchemaText,
} from '../../src/config/config-json-schema.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): Promise<string> => readFile(`${root}${file}`, 'utf8');

let validate: (config: unknown) => boolean;
let schemaText: string;
beforeAll(async () => {
  schemaText = await read(CONFIG_JSON_SCHEMA_FILE);
  const ajv = new Ajv({ allErrors: true });
  addFormats.default(ajv);
  validate = ajv.compile(JSON.parse(schemaText) as object);
});

/** Every config the repository holds: the shipped one, the docs' example, the Kubernetes one. */
async function repositoryConfigs(): Promise<[string, unknown][]> {
  const page = await read('docs/configuration.md');
  const pageConfig = /```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  const [configMap] = parseAllDocuments(await read('deploy/kubernetes/stockmock.yaml'));
  const mapped = (configMap?.toJS() as { data: Record<string, string> }).data;
  return [
    ['stockmock.config.yaml', parse(await read('stockmock.config.yaml'))],
    ['docs/configuration.md', parse(pageConfig)],
    ['deploy/kubernetes ConfigMap', parse(mapped['stockmock.config.yaml'] ?? '')],
  ];
}

describe('the config JSON Schema', () => {
  it('is what the config schema makes (run `npm run config-schema` after changing it)', () => {
    expect(schemaText).toBe(configJsonSchemaText());
  });

  it('accepts every config in the repository', async () => {
    const configs = await repositoryConfigs();
    for (const [where, config] of configs) {
      expect(config, where).toBeTypeOf('object');
      expect(validate(config), where).toBe(true);
    }
  });

  it('refuses what stockmock refuses: an unknown key, a wrong type, a level that is no word', () => {
    expect(validate({ prot: 4010 })).toBe(false);
    expect(validate({ port: 'high' })).toBe(false);
    // Which levels exist, the spec's views say: that is checked at start, not by the schema.
    expect(validate({ tokens: [{ token: 't', level: 'ad min' }] })).toBe(false);
    expect(validate({ tokens: [] })).toBe(false);
  });

  it('is named by the shipped config and shipped in the package', async () => {
    const [firstLine] = (await read('stockmock.config.yaml')).split('\n');
    expect(firstLine).toBe(`# yaml-language-server: $schema=./${CONFIG_JSON_SCHEMA_FILE}`);
    const { files } = JSON.parse(await read('package.json')) as { files: string[] };
    expect(files).toContain(CONFIG_JSON_SCHEMA_FILE);
  });
});
