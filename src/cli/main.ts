/** @module The command line: argv in, exit status out. Only this folder knows argv and stdout. */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SourceError } from '../problems/source-error.ts';
import type { Command } from './command.ts';
import { describeFailure } from './describe-failure.ts';
import type { CliIo } from './io.ts';
import { UsageError } from './usage-error.ts';
import { typoOf } from '../util/typo-of.ts';

/**
 * Each command's module, by its name, imported only when it runs: `serve` begins its load before
 * it imports the server's modules, and the other commands' modules would come first (60 ms).
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  serve: async () => (await import('./commands/serve.ts')).serveCommand,
  contract: async () => (await import('./commands/contract.ts')).contractCommand,
  validate: async () => (await import('./commands/validate.ts')).validateCommand,
  fixtures: async () => (await import('./commands/fixtures-generate.ts')).fixturesGenerateCommand,
  record: async () => (await import('./commands/record.ts')).recordCommand,
};

async function usage(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  return [
    'Usage: stockmock <command> [options]   (stockmock --version: the version)',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(10)} ${command.summary}`),
    '',
    ...commands.map((command) => command.usage),
    '',
  ].join('\n');
}

/**
 * Runs one command line and returns its exit status: 0 success, 1 failed checks or invalid
 * files, 2 a usage error.
 *
 * @example
 * process.exitCode = await runMain(process.argv.slice(2), processIo());
 */
export async function runMain(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.write(await usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.write(`stockmock ${packageVersion()}\n`);
    return 0;
  }
  try {
    const command = Object.hasOwn(COMMANDS, name) ? await COMMANDS[name]?.() : undefined;
    if (command === undefined) throw new UsageError(`Unknown command "${name}".`);
    if (asksForHelp(rest)) {
      io.write(`${command.summary}\n\n${command.usage}\n`);
      return 0;
    }
    const parsed = parseCommandArgs(command, rest);
    return await command.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.error(`${error.message}\n\n${await usage()}`);
      return error.exitCode;
    }
    if (error instanceof SourceError) {
      io.error(`Refused:\n${error.message}\n`);
      return 1;
    }
    io.error(`stockmock ${name}: ${describeFailure(error)}\n`);
    return 1;
  }
}

/** `--help` or `-h` anywhere before a `--` that ends the options. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const options = end < 0 ? args : args.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}

/** The version the package.json beside src/ and dist/ names. */
function packageVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function parseCommandArgs(command: Command, args: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: command.flags,
      strict: true,
      allowPositionals: true,
    });
    return { flags: values, positionals };
  } catch (error) {
    throw new UsageError(
      `${command.name}: ${unknownOption(command, error) ?? describeFailure(error)}`,
    );
  }
}

/** An unknown option in words, with the option meant where it is a likely typo. */
function unknownOption(command: Command, error: unknown): string | undefined {
  if ((error as { code?: unknown }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  const given = /'(-{1,2}[^']*)'/.exec((error as Error).message)?.[1];
  if (given === undefined) return undefined;
  const meant = typoOf(given.replace(/^-+/, ''), Object.keys(command.flags));
  const hint = meant === undefined ? '' : ` (did you mean --${meant}?)`;
  return `unknown option ${given}${hint}; stockmock ${command.name} --help lists them`;
}
