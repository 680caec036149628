/** @module Config from named layers: defaults < file < environment < flags, validated once. */
import { access, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import { SourceError, type SourceIssue } from '../problems/source-error.ts';
import { createAjv } from '../source/create-ajv.ts';
import { describeAjvError, fieldPathOf, formatField } from '../source/describe-ajv-error.ts';
import { readYamlSource, refuseOnIssues, schemaIssues } from '../source/read-yaml-source.ts';
import { DEFAULT_COMPATIBILITY } from '../access/compatibility.ts';
import { DEFAULT_SCENARIO } from '../scenarios/scenario-store.ts';
import { ConfigSchema, type Config } from './config-schema.ts';
import { deepFreeze } from '../util/deep-freeze.ts';

/** A partial config, as one layer gives it. */
export type ConfigLayer = Partial<{ -readonly [K in keyof Config]: Config[K] }>;

/** The command line's share: a config file to read, and the values it sets. */
export interface ConfigRequest {
  /** Directory that relative paths of the environment and flags resolve against. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--config FILE`; else `STOCKMOCK_CONFIG`; else `stockmock.config.yaml` in `cwd` if present. */
  readonly configFile?: string;
  readonly flags?: ConfigLayer;
}

/** The name of the config file looked for in the working directory. */
export const DEFAULT_CONFIG_FILE = 'stockmock.config.yaml';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Built-in defaults: the shipped spec, catalogue and demo tokens, so that `stockmock serve`
 * answers usefully anywhere. The demo tokens are public; a config that sets `tokens` replaces them.
 */
export const DEFAULTS: Config = {
  host: '127.0.0.1',
  port: 4010,
  spec: resolve(packageRoot, 'spec/openapi.yaml'),
  fixtures: resolve(packageRoot, 'fixtures/products.yaml'),
  scenarios: {},
  tokens: [
    { token: 'status-demo-token', level: 'status' },
    { token: 'quantity-demo-token', level: 'quantity' },
  ],
  unknownQueryParameters: 'reject',
  cors: { origins: '*' },
  compatibility: DEFAULT_COMPATIBILITY,
  watch: false,
  logLevel: 'info',
};

const PATH_FIELDS = ['spec', 'fixtures'] as const;
const ajv = createAjv({ ownSchemas: true });
const validateLayer = ajv.compile(Type.Partial(ConfigSchema));
const validateConfig = ajv.compile<Config>(ConfigSchema);

/** Merges the layers, resolves paths and validates the result; the result is deep-frozen. */
export async function loadConfig(request: ConfigRequest): Promise<Config> {
  const configFile = await findConfigFile(request);
  const layers: { name: string; layer: ConfigLayer }[] = [{ name: 'defaults', layer: DEFAULTS }];
  if (configFile !== undefined)
    layers.push({ name: configFile, layer: await readConfigFile(configFile) });
  const env = checked('environment', envLayer(request.env), (field) => ENV_NAME_OF[field] ?? field);
  const flags = checked('command line', request.flags ?? {}, (field) => `--${kebabCase(field)}`);
  layers.push({ name: 'environment', layer: resolvePaths(env, request.cwd) });
  layers.push({ name: 'command line', layer: resolvePaths(flags, request.cwd) });

  const merged = Object.assign({}, ...layers.map(({ layer }) => layer)) as Record<string, unknown>;
  // `admin` and `compatibility` merge one level deep: an environment variable or a file that
  // sets one member keeps the others.
  for (const key of ['admin', 'compatibility'] as const) {
    const parts = layers.flatMap(({ layer }) => (layer[key] === undefined ? [] : [layer[key]]));
    if (parts.length > 0) merged[key] = Object.assign({}, ...parts) as unknown;
  }
  if (!validateConfig(merged)) {
    throw new SourceError(
      (validateConfig.errors ?? []).map((error) => ({
        file: 'config',
        field: formatField(fieldPathOf(error)),
        message: describeAjvError(error),
      })),
    );
  }
  const { scenario, scenarios } = merged;
  if (scenario !== undefined && scenario !== DEFAULT_SCENARIO && !(scenario in scenarios)) {
    const known = [DEFAULT_SCENARIO, ...Object.keys(scenarios)].join(', ');
    throw new SourceError([
      {
        file: 'config',
        field: 'scenario',
        message: `unknown scenario "${scenario}" (known: ${known})`,
      },
    ]);
  }
  return deepFreeze(merged);
}

/** The config file a request names or finds; undefined when there is none. */
export async function findConfigFile(request: ConfigRequest): Promise<string | undefined> {
  const named = request.configFile ?? request.env['STOCKMOCK_CONFIG'];
  if (named !== undefined) return resolve(request.cwd, named);
  const candidate = resolve(request.cwd, DEFAULT_CONFIG_FILE);
  return (await exists(candidate)) ? candidate : undefined;
}

/** A config file's layer: validated with lines; its relative paths resolve against its folder. */
async function readConfigFile(file: string): Promise<ConfigLayer> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SourceError([
      { file, field: '', message: `cannot be read (${(error as Error).message})` },
    ]);
  }
  const source = readYamlSource(file, text);
  if (source.value === null || source.value === undefined) return {};
  refuseOnIssues(schemaIssues(source, validateLayer));
  return resolvePaths(source.value, dirname(file));
}

/** Validates a layer that has no lines (environment, command line), naming the variable or flag. */
function checked(
  source: string,
  layer: ConfigLayer,
  nameOf: (field: string) => string,
): ConfigLayer {
  if (!validateLayer(layer)) {
    const issues: SourceIssue[] = (validateLayer.errors ?? []).map((error) => {
      const [field = '', ...rest] = fieldPathOf(error);
      return {
        file: source,
        field: formatField([nameOf(String(field)), ...rest]),
        message: describeAjvError(error),
      };
    });
    throw new SourceError(issues);
  }
  return layer;
}

function kebabCase(field: string): string {
  return field.replaceAll(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function resolvePaths(layer: ConfigLayer, base: string): ConfigLayer {
  const resolved: ConfigLayer = { ...layer };
  for (const field of PATH_FIELDS) {
    const value = layer[field];
    if (value !== undefined) resolved[field] = resolve(base, value);
  }
  if (layer.scenarios !== undefined) {
    resolved.scenarios = Object.fromEntries(
      Object.entries(layer.scenarios).map(([name, source]) => [
        name,
        typeof source === 'string' ? resolve(base, source) : source,
      ]),
    );
  }
  return resolved;
}

/** Environment variable → config field. `PORT` is honoured too, below `STOCKMOCK_PORT`. */
const ENV_FIELDS = {
  STOCKMOCK_HOST: 'host',
  STOCKMOCK_PORT: 'port',
  STOCKMOCK_BASE_URL: 'baseUrl',
  STOCKMOCK_SPEC: 'spec',
  STOCKMOCK_FIXTURES: 'fixtures',
  STOCKMOCK_SCENARIO: 'scenario',
  STOCKMOCK_TOKENS: 'tokens',
  STOCKMOCK_UNKNOWN_QUERY_PARAMETERS: 'unknownQueryParameters',
  STOCKMOCK_CORS_ORIGINS: 'cors',
  STOCKMOCK_LOG_LEVEL: 'logLevel',
  STOCKMOCK_ADMIN_TOKEN: 'admin',
  STOCKMOCK_WATCH: 'watch',
  STOCKMOCK_STOCK_FIELD: 'compatibility',
  STOCKMOCK_PRODUCT_ID_TYPE: 'compatibility',
} as const satisfies Record<string, keyof Config>;

const ENV_NAME_OF: Record<string, string> = Object.fromEntries(
  Object.entries(ENV_FIELDS).map(([name, field]) => [field, name]),
);

function envLayer(env: ConfigRequest['env']): ConfigLayer {
  const layer: Record<string, unknown> = {};
  const port = env['STOCKMOCK_PORT'] ?? env['PORT'];
  for (const [name, field] of Object.entries(ENV_FIELDS)) {
    const text = name === 'STOCKMOCK_PORT' ? port : env[name];
    if (text === undefined || text === '') continue;
    const value = fromEnvText(field, text);
    const member = COMPATIBILITY_MEMBER[name];
    layer[field] =
      member === undefined ? value : { ...(layer[field] as object | undefined), [member]: text };
  }
  return layer;
}

/** The two compatibility settings come from two variables into one object. */
const COMPATIBILITY_MEMBER: Record<string, string | undefined> = {
  STOCKMOCK_STOCK_FIELD: 'stockField',
  STOCKMOCK_PRODUCT_ID_TYPE: 'productIdType',
};

/** Env values are text: numbers, lists and token grants are read from their written forms. */
function fromEnvText(field: keyof Config, text: string): unknown {
  switch (field) {
    case 'port':
      return /^\d+$/.test(text) ? Number(text) : text;
    case 'admin':
      return { token: text };
    case 'watch':
      return text === 'true' || text === '1'
        ? true
        : text === 'false' || text === '0'
          ? false
          : text;
    case 'cors':
      return { origins: text.trim() === '*' ? '*' : splitList(text) };
    case 'tokens':
      // `status=abc,quantity=def`: level first, so that a token may itself contain `=`.
      return splitList(text).map((grant) => {
        const at = grant.indexOf('=');
        return { level: grant.slice(0, at), token: grant.slice(at + 1) };
      });
    default:
      return text;
  }
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
