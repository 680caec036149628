/** @module Reading flag values for the commands: a string, or a whole number within bounds. */
import type { ParsedArgs } from './command.ts';
import { UsageError } from './usage-error.ts';

/** The flag's value when it was given as a string (not a boolean or a list). */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}

export interface IntegerFlagOptions {
  /** Used when the flag is absent; without it, the flag is required. */
  readonly fallback?: number;
  readonly min?: number;
  readonly max?: number;
  /** Starts the message, as `contract: `. */
  readonly prefix?: string;
}

/** A whole number in [min, max]; anything else is a usage error naming the flag and the range. */
export function integerFlag(args: ParsedArgs, name: string, options: IntegerFlagOptions): number {
  const { fallback, min = 0, max = Number.MAX_SAFE_INTEGER, prefix = '' } = options;
  const text = stringFlag(args, name);
  if (text === undefined && fallback !== undefined) return fallback;
  const value = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || value < min || value > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER
        ? `≥ ${String(min)}`
        : `from ${String(min)} to ${String(max)}`;
    const given = text === undefined ? '' : `, not "${text}"`;
    throw new UsageError(`${prefix}--${name} must be a whole number ${range}${given}`);
  }
  return value;
}
