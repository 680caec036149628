/**
 * @module A secret given to a flag without putting it on the command line.
 *
 * Any local user reads a process's arguments (`/proc/PID/cmdline`, `ps`) for as long as it runs,
 * and CI systems hand secrets to jobs as environment variables or files. So a secret flag takes,
 * as OpenSSL's `-passin` does, `env:NAME` (the variable's value), `file:PATH` (the file's first
 * line) or `pass:TEXT` (the text itself, for a secret that begins with `env:` or `file:`);
 * anything else is the secret as given.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliIo } from './io.ts';
import { UsageError } from './usage-error.ts';

/** A secret file is a token or a key, not a document: larger is a mistake. */
const MAX_SECRET_FILE_BYTES = 64 * 1024;

/** The secret `value` names; `what` says which flag, for the one-line refusal. */
export function readSecret(value: string, what: string, io: Pick<CliIo, 'cwd' | 'env'>): string {
  if (value.startsWith('pass:')) return value.slice('pass:'.length);
  if (value.startsWith('env:')) {
    const name = value.slice('env:'.length);
    const secret = io.env[name];
    if (secret === undefined || secret === '') {
      throw new UsageError(`${what}: the environment variable ${name} is not set or is empty`);
    }
    return secret;
  }
  if (value.startsWith('file:')) {
    const path = resolve(io.cwd, value.slice('file:'.length));
    let text: string;
    try {
      const bytes = readFileSync(path);
      if (bytes.length > MAX_SECRET_FILE_BYTES) {
        throw new UsageError(
          `${what}: ${path} is larger than ${String(MAX_SECRET_FILE_BYTES)} bytes, not a secret`,
        );
      }
      text = bytes.toString('utf8');
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(
        `${what}: ${path} cannot be read (${(error as { code?: string }).code ?? 'error'})`,
      );
    }
    // The first line, as a secret file written by `echo` or a CI system ends in a newline.
    const secret = text.split(/\r?\n/, 1)[0] ?? '';
    if (secret === '') throw new UsageError(`${what}: ${path} is empty`);
    return secret;
  }
  return value;
}
