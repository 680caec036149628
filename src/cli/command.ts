/** @module A command as data: its name, usage, flags and what it runs. */
import type { ParseArgsConfig } from 'node:util';
import type { CliIo } from './io.ts';

export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  readonly flags: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly flags: FlagSpec;
  /** Resolves to the exit status. */
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}
