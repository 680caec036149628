/** @module The flags that `serve` and `validate` share: they feed the config's top layer. */
import { DEFAULTS, ENV_FIELDS, type ConfigLayer } from '../config/load-config.ts';
import type { FlagSpec, ParsedArgs } from './command.ts';
import { integerFlag, stringFlag } from './flag-values.ts';

export const CONFIG_FLAGS = {
  config: { type: 'string' },
  fixtures: { type: 'string' },
  scenario: { type: 'string' },
  spec: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'base-url': { type: 'string' },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  strict: { type: 'boolean' },
} as const satisfies FlagSpec;

/** The config layer the flags give, and the config file they name. */
export function configFlags(args: ParsedArgs): { configFile?: string; flags: ConfigLayer } {
  const text = (name: keyof typeof CONFIG_FLAGS): string | undefined => stringFlag(args, name);
  const flags: Record<string, unknown> = {};
  if (text('port') !== undefined) flags['port'] = integerFlag(args, 'port', { max: 65_535 });
  const copy = {
    fixtures: 'fixtures',
    scenario: 'scenario',
    spec: 'spec',
    host: 'host',
    'base-url': 'baseUrl',
    'log-level': 'logLevel',
    'log-format': 'logFormat',
  } as const;
  for (const [flag, field] of Object.entries(copy)) {
    const value = text(flag as keyof typeof copy);
    if (value !== undefined) flags[field] = value;
  }
  if (args.flags['strict'] === true) flags['strict'] = true;
  const configFile = text('config');
  return configFile === undefined ? { flags } : { configFile, flags };
}

/** What each config flag does, and its default where a word says it better than the value. */
const FLAG_HELP: readonly {
  readonly flag: keyof typeof CONFIG_FLAGS | 'watch';
  readonly arg: string;
  readonly what: string;
  readonly field?: keyof typeof DEFAULTS;
  readonly otherwise?: string;
}[] = [
  {
    flag: 'config',
    arg: 'FILE',
    what: 'a config file',
    otherwise: './stockmock.config.yaml if there is one',
  },
  {
    flag: 'fixtures',
    arg: 'FILE',
    what: 'the fixture file',
    field: 'fixtures',
    otherwise: 'the shipped catalogue',
  },
  {
    flag: 'scenario',
    arg: 'NAME',
    what: 'the scenario served at start',
    field: 'scenario',
    otherwise: 'default',
  },
  {
    flag: 'spec',
    arg: 'FILE',
    what: 'the OpenAPI spec',
    field: 'spec',
    otherwise: 'the shipped spec',
  },
  { flag: 'port', arg: 'N', what: 'the port; 0 picks a free one', field: 'port' },
  { flag: 'host', arg: 'H', what: 'the address to listen on', field: 'host' },
  {
    flag: 'base-url',
    arg: 'URL',
    what: 'where absolute links point',
    field: 'baseUrl',
    otherwise: "the request's own origin",
  },
  {
    flag: 'log-level',
    arg: 'LEVEL',
    what: 'trace, debug, info, warn, error, fatal or silent',
    field: 'logLevel',
  },
  {
    flag: 'log-format',
    arg: 'F',
    what: 'json, pretty, or auto (pretty on a terminal)',
    field: 'logFormat',
  },
  {
    flag: 'strict',
    arg: '',
    what: 'refuse operations without x-stockmock data instead of answering from examples, and faults of one schema or path template instead of warning of them',
    field: 'strict',
    otherwise: 'off',
  },
  {
    flag: 'watch',
    arg: '',
    what: 'reload when the config or a fixture file changes',
    field: 'watch',
    otherwise: 'off',
  },
];

/** The environment variable that sets a field, where one does. */
function envOf(field: string | undefined): string | undefined {
  if (field === 'config') return 'STOCKMOCK_CONFIG';
  const found = Object.entries(ENV_FIELDS).find(([, name]) => name === field)?.[0];
  return found === 'STOCKMOCK_PORT' ? 'STOCKMOCK_PORT or PORT' : found;
}

/** The help lines of the config flags (and `--watch` where the command takes it). */
export function configFlagHelp(withWatch: boolean): string {
  const rows = FLAG_HELP.filter((row) => withWatch || row.flag !== 'watch').map((row) => {
    const value = row.field === undefined ? undefined : DEFAULTS[row.field];
    const fallback =
      row.otherwise ??
      (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
    const env = envOf(row.field ?? row.flag);
    const notes = [`default: ${fallback}`, ...(env === undefined ? [] : [env])].join('; ');
    return [
      `  --${row.flag}${row.arg === '' ? '' : ` ${row.arg}`}`,
      `${row.what} (${notes})`,
    ] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `${left.padEnd(width)}${right}`).join('\n');
}
