/** @module The config that serves a recording as the service answered: its files, tokens, settings. */
import { relative } from 'node:path';

export interface RecordedConfig {
  /** The folder the config is written to: its paths are relative to it, as configs read them. */
  readonly at: string;
  readonly fixture?: string;
  readonly spec?: string;
  /** The levels recorded: each gets a demo token of the stand-in's own. */
  readonly levels: readonly string[];
  /** The `compatibility:` block `contract --suggest-config` renders. */
  readonly compatibility: string;
}

export function renderRecordedConfig(config: RecordedConfig): string {
  const path = (file: string) => {
    const shown = relative(config.at, file);
    return JSON.stringify(shown.startsWith('.') ? shown : `./${shown}`);
  };
  return [
    '# Written by `stockmock record --suggest-config`: serve the recorded fixture as the service',
    '# answered.',
    ...(config.fixture === undefined ? [] : [`fixtures: ${path(config.fixture)}`]),
    ...(config.spec === undefined ? [] : [`spec: ${path(config.spec)}`]),
    ...(config.levels.length === 0
      ? []
      : [
          "# The stand-in's own tokens, one per level recorded: not the service's, which no file holds.",
          'tokens:',
          // Level names are letters, digits, `_` and `-` (--token checks them): plain YAML.
          ...config.levels.map((level) => `  - { token: ${level}-demo-token, level: ${level} }`),
        ]),
    config.compatibility,
  ].join('\n');
}
