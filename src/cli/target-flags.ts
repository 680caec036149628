/** @module The flags of the commands that talk to a running service: its spec, tokens and origins. */
import { resolve } from 'node:path';
import { readDeclared, servesInterface } from '../contract/declared.ts';
import { TOKEN_LEVELS } from '../contract/target-client.ts';
import { SHIPPED_SPEC, type LoadedSpec } from '../spec/load-spec.ts';
import { isUrlLocation } from '../spec/spec-references.ts';
import type { ParsedArgs } from './command.ts';
import type { CliIo } from './io.ts';
import { readSecret } from './secret-flag.ts';
import { UsageError } from './usage-error.ts';

/** `--trust-origin https://api.example.com`: origins only, so that no path or query is implied. */
export function parseOrigins(args: ParsedArgs, command: string): string[] {
  const given = args.flags['trust-origin'];
  return (Array.isArray(given) ? given : []).map((value) => {
    const text = String(value);
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (url === undefined || !/^https?:$/.test(url.protocol) || url.href !== `${url.origin}/`) {
      throw new UsageError(
        `${command}: --trust-origin takes an origin such as https://api.example.com, not "${text}"`,
      );
    }
    return url.origin;
  });
}

/** `--spec` is a file, or a URL such as the target's own `/openapi.json`; default: the shipped spec. */
export function specLocation(given: string | undefined, cwd: string): string {
  if (given === undefined) return SHIPPED_SPEC;
  return isUrlLocation(given) ? given : resolve(cwd, given);
}

/**
 * `--token status=abc --token quantity=env:QUANTITY_TOKEN`: level first, so a token may contain
 * `=`; the token as given or read from the environment or a file (secret-flag.ts). A level is
 * one of the interface's two, one that the spec's views declare (`public`, `staff`), or any
 * name: a spec whose one view is everyone's, or whose operations declare no data, names none.
 */
/** A level's name: what the config's tokens allow (ACCESS_LEVEL_PATTERN). */
const LEVEL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function parseTokens(
  args: ParsedArgs,
  spec: LoadedSpec,
  command: string,
  io: Pick<CliIo, 'cwd' | 'env'>,
): Readonly<Record<string, string>> {
  const given = args.flags['token'];
  const declared = readDeclared(spec.dereferenced).levels;
  const known = [...new Set([...TOKEN_LEVELS, ...declared])];
  // Where the spec names levels, a name it does not know is a typo, not a level of its own.
  const allowed = (level: string): boolean =>
    declared.length === 0 && !servesInterface(spec)
      ? LEVEL_NAME.test(level)
      : known.includes(level);
  const tokens: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const grant of Array.isArray(given) ? given : []) {
    const text = String(grant);
    const at = text.indexOf('=');
    const level = text.slice(0, at);
    if (at < 1 || !allowed(level) || at === text.length - 1) {
      throw new UsageError(
        `${command}: --token takes LEVEL=TOKEN with LEVEL ${known.join(', ')}, not "${text.replace(/=.*/, '=…')}"`,
      );
    }
    tokens[level] = readSecret(text.slice(at + 1), `${command}: --token ${level}`, io);
  }
  return tokens;
}
