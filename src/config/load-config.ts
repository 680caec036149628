/** @module Config from named layers: defaults < file < environment < flags, validated once. */
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceError, type SourceIssue } from '../problems/source-error.ts';
import { createAjv } from '../source/create-ajv.ts';
import { describeAjvError, fieldPathOf, formatField } from '../source/describe-ajv-error.ts';
import {
  marksOf,
  readSourceText,
  type FileMark,
  type ReadOptions,
} from '../source/read-source-text.ts';
import { readYamlSource, refuseOnIssues, schemaIssues } from '../source/read-yaml-source.ts';
import type { ErrorObject } from 'ajv';
import { COMPATIBILITY_ENV, DEFAULT_COMPATIBILITY } from '../compatibility/compatibility.ts';
import { ConfigLayerSchema, ConfigSchema, DEFAULT_SCENARIO, type Config } from './config-schema.ts';
import { deepFreeze } from '../util/deep-freeze.ts';

/** A partial config, as one layer gives it. */
export type ConfigLayer = Partial<{
  -readonly [K in keyof Config]: K extends 'compatibility' ? Partial<Config[K]> : Config[K];
}>;

/** The command line's share: a config file to read, and the values it sets. */
export interface ConfigRequest {
  /** Directory that relative paths of the environment and flags resolve against. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * `--config FILE`; else `STOCKMOCK_CONFIG`; else `stockmock.config.yaml` in `cwd` if present.
   * `false`: no config file, not even one found in `cwd`.
   */
  readonly configFile?: string | false;
  readonly flags?: ConfigLayer;
  /** Who set `flags`: the command line (fields are named as flags) or the programmatic API. */
  readonly flagsFrom?: 'command line' | 'startStockmock';
  /** Told of what is accepted but should change (a deprecated key), with where it is. */
  readonly onWarning?: (issue: SourceIssue) => void;
  /** Read the config file only once it has settled (a reload; see readSourceText). */
  readonly settleMs?: number;
  /** How files looked when last read whole: such a file needs no settling (read-source-text.ts). */
  readonly lastRead?: Readonly<Record<string, FileMark>>;
}

/** The name of the config file looked for in the working directory. */
export const DEFAULT_CONFIG_FILE = 'stockmock.config.yaml';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The demo tokens of a spec's access levels: `LEVEL-demo-token` each, public by design. */
export function demoTokensFor(levels: readonly string[]): Config['tokens'] {
  return levels.map((level) => ({ token: `${level}-demo-token`, level }));
}

/** Whether a token is the demo token of its level (README, "Try it"). */
export function isDemoToken(grant: { readonly token: string; readonly level: string }): boolean {
  return grant.token === `${grant.level}-demo-token`;
}

/**
 * A config that sets no tokens takes the demo tokens of the spec it serves: the defaults are the
 * shipped spec's (status, quantity), and a spec whose views name other levels (clerk, manager)
 * gets a demo token for each of those instead. Tokens set anywhere are kept as they are.
 */
export function withDemoTokensFor(config: Config, levels: readonly string[]): Config {
  const defaults = JSON.stringify(DEFAULTS.tokens);
  if (levels.length === 0 || JSON.stringify(config.tokens) !== defaults) return config;
  return { ...config, tokens: demoTokensFor(levels) };
}

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
  tokens: demoTokensFor(['status', 'quantity']),
  cors: { origins: '*' },
  compatibility: DEFAULT_COMPATIBILITY,
  watch: false,
  strict: false,
  // chokidar's default for the same check (awaitWriteFinish.stabilityThreshold).
  reloadSettleMs: 2000,
  maxFixtureBytes: 256 * 1024 * 1024,
  loadCache: true,
  logLevel: 'info',
  logFormat: 'auto',
};

const PATH_FIELDS = ['spec', 'fixtures'] as const;
const ajv = createAjv({ ownSchemas: true });
const validateLayer = ajv.compile(ConfigLayerSchema);
const validateConfig = ajv.compile<Config>(ConfigSchema);

/**
 * One layer of the config and how to point at a field it sets: a file's line, an environment
 * variable's name, a flag.
 */
interface NamedLayer {
  readonly layer: ConfigLayer;
  readonly where: (path: readonly (string | number)[]) => Omit<SourceIssue, 'message'>;
}

/** Merges the layers, resolves paths and validates the result; the result is deep-frozen. */
export async function loadConfig(request: ConfigRequest): Promise<Config> {
  const layers = await configLayers(request);
  const merged = Object.assign({}, ...layers.map(({ layer }) => layer)) as Record<string, unknown>;
  // `admin`, `compatibility` and `sessions` merge one level deep: an environment variable or
  // a file that sets one member keeps the others.
  for (const key of ['admin', 'compatibility', 'sessions'] as const) {
    const parts = layers.flatMap(({ layer }) => (layer[key] === undefined ? [] : [layer[key]]));
    if (parts.length > 0) merged[key] = Object.assign({}, ...parts) as unknown;
  }
  moveDeprecatedKeys(merged, layers, request.onWarning);
  if (!validateConfig(merged)) {
    throw new SourceError(
      ajvIssues(validateConfig.errors, (path) => ({ file: 'config', field: formatField(path) })),
    );
  }
  // Each of these comes whole from the last layer that sets it: that layer is where to point.
  const setter = (field: keyof Config): NamedLayer =>
    layers.findLast(({ layer }) => layer[field] !== undefined) ?? (layers[0] as NamedLayer);
  refuseOnIssues([
    ...duplicateTokens(merged.tokens, setter('tokens')),
    ...adminTokenIssues(merged, layers),
    ...(await missingFiles(merged, setter)),
  ]);
  const { scenario, scenarios } = merged;
  if (
    scenario !== undefined &&
    scenario !== DEFAULT_SCENARIO &&
    !Object.hasOwn(scenarios, scenario)
  ) {
    const known = [DEFAULT_SCENARIO, ...Object.keys(scenarios)].join(', ');
    throw new SourceError([
      {
        ...setter('scenario').where(['scenario']),
        message: `unknown scenario "${scenario}" (known: ${known})`,
      },
    ]);
  }
  return deepFreeze(merged);
}

/**
 * Where the config's value of a field was set, to report an issue that only a later step can
 * find (a token level that the spec declares no view for): the file and line of the layer that
 * set it, or the environment or the flags.
 */
export async function whereConfigSets(
  request: ConfigRequest,
  field: keyof Config,
): Promise<NamedLayer['where']> {
  const layers = await configLayers(request);
  const from = layers.findLast(({ layer }) => layer[field] !== undefined) ?? layers[0];
  return (from as NamedLayer).where;
}

/** The layers of a config, lowest first: defaults, file, environment, flags. */
async function configLayers(request: ConfigRequest): Promise<NamedLayer[]> {
  const configFile = await findConfigFile(request);
  const layers: NamedLayer[] = [
    { layer: DEFAULTS, where: (path) => ({ file: 'defaults', field: formatField(path) }) },
  ];
  if (configFile !== undefined) {
    layers.push(
      await readConfigFile(configFile, {
        settleMs: request.settleMs ?? 0,
        lastRead: request.lastRead ?? {},
      }),
    );
  }
  const { cwd } = request;
  layers.push(unlocated('environment', envLayer(request.env), cwd, envPath));
  const flagsFrom = request.flagsFrom ?? 'command line';
  const flagPath =
    flagsFrom === 'command line'
      ? ([field = '', ...rest]: readonly (string | number)[]) => [
          `--${kebabCase(String(field))}`,
          ...rest,
        ]
      : (path: readonly (string | number)[]) => path;
  layers.push(unlocated(flagsFrom, request.flags ?? {}, cwd, flagPath));
  return layers;
}

/**
 * `unknownQueryParameters` moved under `compatibility`, beside the other open points. At its
 * old place it is still read, with a warning, unless a layer sets the new place too.
 */
function moveDeprecatedKeys(
  merged: Record<string, unknown>,
  layers: readonly NamedLayer[],
  onWarning: ConfigRequest['onWarning'],
): void {
  const legacy = merged['unknownQueryParameters'];
  if (legacy === undefined) return;
  delete merged['unknownQueryParameters'];
  const from = layers.findLast(({ layer }) => layer.unknownQueryParameters !== undefined);
  if (from !== undefined) {
    onWarning?.({
      ...from.where(['unknownQueryParameters']),
      message: 'is deprecated: set compatibility.unknownQueryParameters instead',
    });
  }
  const setsNewPlace = layers
    .slice(1)
    .some(({ layer }) => layer.compatibility?.unknownQueryParameters !== undefined);
  if (!setsNewPlace) {
    merged['compatibility'] = {
      ...(merged['compatibility'] as object),
      unknownQueryParameters: legacy,
    };
  }
}

/**
 * A token listed twice is refused, at one level or two: the table would grant the first and
 * hide the second, a mistake that would otherwise pass. The token itself is never repeated in
 * the message, which may be logged.
 */
function duplicateTokens(tokens: Config['tokens'], from: NamedLayer): SourceIssue[] {
  const firstIndex = new Map<string, number>();
  return tokens.flatMap((grant, index) => {
    const first = firstIndex.get(grant.token);
    if (first === undefined) {
      firstIndex.set(grant.token, index);
      return [];
    }
    const again = `the token of tokens[${String(first)}] again; a token is listed once, with one level`;
    return [{ ...from.where(['tokens', index, 'token']), message: again }];
  });
}

/** The files the config names that do not exist, each pointed at where it is named. */
async function missingFiles(
  config: Config,
  setter: (field: keyof Config) => NamedLayer,
): Promise<SourceIssue[]> {
  const named: [path: (string | number)[], file: string, from: NamedLayer][] = [
    [['spec'], config.spec, setter('spec')],
    [['fixtures'], config.fixtures, setter('fixtures')],
    ...Object.entries(config.scenarios).flatMap(([name, source]) =>
      typeof source === 'string'
        ? [[['scenarios', name], source, setter('scenarios')] as [string[], string, NamedLayer]]
        : [],
    ),
  ];
  const issues = await Promise.all(
    named.map(async ([path, file, from]) => {
      const problem = await fileProblem(file);
      return problem === undefined ? [] : [{ ...from.where(path), message: problem }];
    }),
  );
  return issues.flat();
}

/** Why a named file cannot be read as one: missing, or a folder; undefined when it is a file. */
async function fileProblem(file: string): Promise<string | undefined> {
  const found = await stat(file).catch(() => undefined);
  if (found === undefined) return `no such file: ${file}`;
  return found.isFile() ? undefined : `not a file: ${file}`;
}

/**
 * The admin token must be a secret of its own: one that is also a stock token would let every
 * client holding it reload data, switch scenarios and read the journal.
 */
function adminTokenIssues(config: Config, layers: readonly NamedLayer[]): SourceIssue[] {
  const admin = config.admin?.token;
  if (admin === undefined || !config.tokens.some((grant) => grant.token === admin)) return [];
  const from = layers.findLast(({ layer }) => layer.admin?.token !== undefined) ?? layers[0];
  return [
    {
      ...(from as NamedLayer).where(['admin', 'token']),
      message: 'is also a stock token; the admin API needs a token of its own',
    },
  ];
}

/**
 * A layer without lines (environment, command line), validated, its paths resolved against the
 * working directory; a field is named as its variable or flag.
 */
function unlocated(
  file: string,
  layer: ConfigLayer,
  cwd: string,
  nameOf: (path: readonly (string | number)[]) => readonly (string | number)[],
): NamedLayer {
  const where: NamedLayer['where'] = (path) => ({ file, field: formatField(nameOf(path)) });
  if (!validateLayer(layer)) throw new SourceError(ajvIssues(validateLayer.errors, where));
  return { layer: resolvePaths(layer, cwd), where };
}

function ajvIssues(
  errors: readonly ErrorObject[] | null | undefined,
  where: NamedLayer['where'],
): SourceIssue[] {
  return (errors ?? []).map((error) => ({
    ...where(fieldPathOf(error)),
    message: describeAjvError(error),
  }));
}

/** The config file a request names or finds; undefined when there is none. */
/**
 * The config, and how its file looked just before it was read: a reload may take a file that
 * still looks so as read whole (read-source-text.ts). Taken before the read, never after, so
 * that a write in place begun after the read is not taken for the version read.
 */
export async function loadConfigMarked(
  request: ConfigRequest,
): Promise<{ config: Config; marks: Record<string, FileMark> }> {
  const file = await findConfigFile(request);
  const marks = await marksOf(file === undefined ? [] : [file]);
  return { config: await loadConfig(request), marks };
}

export async function findConfigFile(request: ConfigRequest): Promise<string | undefined> {
  if (request.configFile === false) return undefined;
  const named = request.configFile ?? request.env['STOCKMOCK_CONFIG'];
  if (named !== undefined) return resolve(request.cwd, named);
  const candidate = resolve(request.cwd, DEFAULT_CONFIG_FILE);
  return (await exists(candidate)) ? candidate : undefined;
}

/** A config file's layer: validated with lines; its relative paths resolve against its folder. */
async function readConfigFile(file: string, options: ReadOptions = {}): Promise<NamedLayer> {
  const source = readYamlSource(file, await readSourceText(file, options));
  const where: NamedLayer['where'] = (path) => ({
    file,
    at: source.locate(path),
    field: formatField(path),
  });
  if (source.value === null || source.value === undefined) return { layer: {}, where };
  refuseOnIssues(schemaIssues(source, validateLayer));
  return { layer: resolvePaths(source.value, dirname(file)), where };
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
  if (typeof layer.loadCache === 'string') resolved.loadCache = resolve(base, layer.loadCache);
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
export const ENV_FIELDS = {
  STOCKMOCK_HOST: 'host',
  STOCKMOCK_PORT: 'port',
  STOCKMOCK_BASE_URL: 'baseUrl',
  STOCKMOCK_SPEC: 'spec',
  STOCKMOCK_FIXTURES: 'fixtures',
  STOCKMOCK_SCENARIO: 'scenario',
  STOCKMOCK_TOKENS: 'tokens',
  STOCKMOCK_CORS_ORIGINS: 'cors',
  STOCKMOCK_LOG_LEVEL: 'logLevel',
  STOCKMOCK_LOG_FORMAT: 'logFormat',
  STOCKMOCK_ADMIN_TOKEN: 'admin',
  STOCKMOCK_WATCH: 'watch',
  STOCKMOCK_STRICT: 'strict',
  STOCKMOCK_RELOAD_SETTLE_MS: 'reloadSettleMs',
  STOCKMOCK_MAX_FIXTURE_BYTES: 'maxFixtureBytes',
  STOCKMOCK_LOAD_CACHE: 'loadCache',
} as const satisfies Record<string, keyof Config>;

const ENV_NAME_OF: Record<string, string> = Object.fromEntries(
  Object.entries(ENV_FIELDS).map(([name, field]) => [field, name]),
);

const ENV_NAME_OF_COMPATIBILITY: Record<string, string> = Object.fromEntries(
  Object.entries(COMPATIBILITY_ENV).map(([name, member]) => [member, name]),
);

/** A field of the environment's layer, named as the variable that set it. */
function envPath([field = '', ...rest]: readonly (string | number)[]): (string | number)[] {
  const [member, ...more] = rest;
  const compatibilityName =
    field === 'compatibility' ? ENV_NAME_OF_COMPATIBILITY[String(member)] : undefined;
  if (compatibilityName !== undefined) return [compatibilityName, ...more];
  return [ENV_NAME_OF[String(field)] ?? field, ...rest];
}

function envLayer(env: ConfigRequest['env']): ConfigLayer {
  const layer: Record<string, unknown> = {};
  const port = env['STOCKMOCK_PORT'] ?? env['PORT'];
  for (const [name, field] of Object.entries(ENV_FIELDS)) {
    const text = name === 'STOCKMOCK_PORT' ? port : env[name];
    if (text === undefined || text === '') continue;
    layer[field] = fromEnvText(field, text);
  }
  // Each compatibility setting has a variable of its own; together they make one object.
  const compatibility: Record<string, string> = {};
  for (const [name, member] of Object.entries(COMPATIBILITY_ENV)) {
    const text = env[name];
    if (text !== undefined && text !== '') compatibility[member] = text;
  }
  if (Object.keys(compatibility).length > 0) layer['compatibility'] = compatibility;
  return layer;
}

/** Env values are text: numbers, lists and token grants are read from their written forms. */
function fromEnvText(field: keyof Config, text: string): unknown {
  switch (field) {
    case 'port':
    case 'reloadSettleMs':
    case 'maxFixtureBytes':
      return /^\d+$/.test(text) ? Number(text) : text;
    case 'admin':
      return { token: text };
    case 'watch':
    case 'strict':
    case 'loadCache':
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
