/** @module The flags that `serve` and `validate` share: they feed the config's top layer. */
import type { ConfigLayer } from '../config/load-config.ts';
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
  const configFile = text('config');
  return configFile === undefined ? { flags } : { configFile, flags };
}
