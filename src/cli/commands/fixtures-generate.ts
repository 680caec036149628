/**
 * @module `stockmock fixtures generate`: seeded, realistic data as a fixture file, for the
 * shipped catalogue or for every collection a spec declares.
 */
import { resolve } from 'node:path';
import { once } from 'node:events';
import type { GeneratedRecord } from '../../generate/generate-collections.ts';
import { SourceError } from '../../problems/source-error.ts';
import {
  COLLECTIONS_KEYWORD,
  readDeclarations,
  type CollectionDeclaration,
  type Declarations,
} from '../../resources/declarations.ts';
import { formatField } from '../../source/describe-ajv-error.ts';
import { loadSpec, SHIPPED_SPEC, type LoadedSpec } from '../../spec/load-spec.ts';
import type { Command, ParsedArgs } from '../command.ts';
import { integerFlag, stringFlag } from '../flag-values.ts';
import type { CliIo } from '../io.ts';
import { UsageError } from '../usage-error.ts';
import { replaceFile } from '../../util/replace-file.ts';

/**
 * The most products a generation makes unless told: a million are 174 MB of YAML, about what a
 * server reads at its default `maxFixtureBytes`; a hundred million ran for hours into 17 GB.
 */
const DEFAULT_MAX_COUNT = 1_000_000;

export const fixturesGenerateCommand: Command = {
  name: 'fixtures',
  summary: 'fixtures generate: write a seeded, realistic catalogue',
  usage:
    'stockmock fixtures generate --count N [--count NAME=N]... [--seed S] [--out FILE] [--spec FILE [--collection NAME]...]\n' +
    '  --count N          how many records of each collection (required unless each has its own)\n' +
    '  --count NAME=N     how many of the collection NAME (repeat for others)\n' +
    '  --seed S           the same seed gives the same data (default: 1)\n' +
    '  --out FILE         write the fixture there; without it, it goes to standard output\n' +
    '  --spec FILE        generate the collections this spec declares (default: the shipped catalogue)\n' +
    '  --collection NAME  only this collection and those it references (repeat for more; default: every one declared)\n' +
    `  --max-count N      the most --count may ask (default: ${String(DEFAULT_MAX_COUNT)}, 174 MB of YAML)`,
  flags: {
    count: { type: 'string', multiple: true },
    seed: { type: 'string' },
    out: { type: 'string' },
    spec: { type: 'string' },
    collection: { type: 'string', multiple: true },
    'max-count': { type: 'string' },
  },
  async run(args, io) {
    const [action, ...extra] = args.positionals;
    if (action !== 'generate' || extra.length > 0)
      throw new UsageError('fixtures: the only action is "generate"');
    const maxCount = integerFlag(args, 'max-count', {
      prefix: 'fixtures generate: ',
      fallback: DEFAULT_MAX_COUNT,
      min: 1,
    });
    const seed = integerFlag(args, 'seed', { prefix: 'fixtures generate: ', fallback: 1 });
    const outFlag = stringFlag(args, 'out');
    const out = outFlag === undefined ? undefined : resolve(io.cwd, outFlag);
    const countFlags = countsOf(args, maxCount);
    const specFlag = stringFlag(args, 'spec');
    const spec = await loadSpec(specFlag === undefined ? SHIPPED_SPEC : resolve(io.cwd, specFlag));
    const declarations = readDeclarations(spec);
    const named = chosenCollections(declarations, collectionFlags(args));
    const collections = withReferenced(declarations, named);
    const added = collections.filter((collection) => !named.includes(collection));
    if (added.length > 0) {
      io.error(
        `fixtures generate: also generating ${added.map((c) => c.name).join(', ')}, which ${named.length === 1 ? 'it references' : 'they reference'}: the file then serves\n`,
      );
    }
    const counts = countsFor(collections, countFlags);
    const records = await generatedRecords(spec, collections, counts, seed);
    await writeFixture(collections, records, counts, out, io);
    if (out !== undefined) {
      const made = collections.map((c) => `${String(counts.get(c.name) ?? 0)} ${c.name}`);
      io.error(`Wrote ${made.join(', ')} (seed ${String(seed)}) to ${out}\n`);
    }
    return 0;
  },
};

function collectionFlags(args: ParsedArgs): string[] {
  const value = args.flags['collection'];
  return Array.isArray(value) ? value.filter((name) => typeof name === 'string') : [];
}

/** `--count N`, for every collection, and `--count NAME=N`, for one, each within --max-count. */
function countsOf(
  args: ParsedArgs,
  maxCount: number,
): { readonly all: number | undefined; readonly each: ReadonlyMap<string, number> } {
  const value = args.flags['count'];
  const texts = (Array.isArray(value) ? value : [value]).filter((text) => typeof text === 'string');
  let all: number | undefined;
  const each = new Map<string, number>();
  for (const text of texts) {
    const found = /^(?:([^=]+)=)?(\d+)$/.exec(text);
    if (found === null) {
      throw new UsageError(
        `fixtures generate: --count must be a whole number N or NAME=N, not "${text}"`,
      );
    }
    const [, name, digits = ''] = found;
    const count = Number(digits);
    if (count > maxCount) {
      throw new UsageError(
        `fixtures generate: --count ${text} is past the ${String(maxCount)} records generated at most (a million products are 174 MB of YAML, the most a default server reads); --max-count raises it`,
      );
    }
    if (name === undefined) all = count;
    else each.set(name, count);
  }
  return { all, each };
}

/** Each collection's count: its own `--count NAME=N`, else `--count N`. */
function countsFor(
  collections: readonly CollectionDeclaration[],
  flags: ReturnType<typeof countsOf>,
): Map<string, number> {
  for (const name of flags.each.keys()) {
    if (!collections.some((collection) => collection.name === name)) {
      throw new UsageError(
        `fixtures generate: --count ${name}=… names no collection generated here (${collections.map((c) => c.name).join(', ')})`,
      );
    }
  }
  return new Map(
    collections.map((collection) => {
      const count = flags.each.get(collection.name) ?? flags.all;
      if (count === undefined) {
        throw new UsageError(
          `fixtures generate: --count N is required (or --count ${collection.name}=N for ${collection.name})`,
        );
      }
      return [collection.name, count];
    }),
  );
}

/**
 * The collections named and, after them, every collection they reference, so that each
 * reference holds a key the file has: a file without its events would not serve its tickets.
 */
function withReferenced(
  declarations: Declarations,
  named: readonly CollectionDeclaration[],
): CollectionDeclaration[] {
  const chosen = [...named];
  for (let i = 0; i < chosen.length; i++) {
    for (const target of (chosen[i] as CollectionDeclaration).references.values()) {
      const referred = declarations.collections.get(target);
      if (referred !== undefined && !chosen.includes(referred)) chosen.push(referred);
    }
  }
  return chosen;
}

/** The collections named, or every one declared; a name the spec does not declare is refused. */
function chosenCollections(
  declarations: Declarations,
  names: readonly string[],
): CollectionDeclaration[] {
  const declared = [...declarations.collections.values()];
  if (declared.length === 0) {
    throw new UsageError(
      'fixtures generate: the spec declares no collections (x-stockmock-collections)',
    );
  }
  if (names.length === 0) return declared;
  return names.map((name) => {
    const found = declarations.collections.get(name);
    if (found === undefined) {
      throw new UsageError(
        `fixtures generate: --collection ${name} is not declared by the spec (declared: ${[...declarations.collections.keys()].join(', ') || 'none'})`,
      );
    }
    return found;
  });
}

/** The records of each collection, or a SourceError naming the fields that cannot be made. */
async function generatedRecords(
  spec: LoadedSpec,
  collections: readonly CollectionDeclaration[],
  counts: ReadonlyMap<string, number>,
  seed: number,
): Promise<(name: string) => Iterable<GeneratedRecord>> {
  // Loaded on use, so that other commands do not load faker at start.
  const { generateCollections } = await import('../../generate/generate-collections.ts');
  const result = generateCollections(collections, counts, seed);
  if ('records' in result) return result.records;
  throw new SourceError(
    result.issues.map((issue) => {
      const path = [COLLECTIONS_KEYWORD, issue.collection, 'record', ...issue.path];
      return {
        file: spec.file,
        at: spec.locate(path),
        field: formatField(path),
        message: issue.message,
      };
    }),
  );
}

/** About how much text is written at a time. */
const CHUNK_CHARACTERS = 64 * 1024;

/**
 * Streams the YAML to the file (written beside it and renamed over it, util/replace-file.ts) or
 * to stdout, in chunks; a progress bar on a terminal.
 */
async function writeFixture(
  collections: readonly CollectionDeclaration[],
  records: (name: string) => Iterable<GeneratedRecord>,
  counts: ReadonlyMap<string, number>,
  out: string | undefined,
  io: CliIo,
): Promise<void> {
  if (out !== undefined) {
    await replaceFile(out, (stream) =>
      writeRecords(collections, records, counts, io, async (text) => {
        if (!stream.write(text)) await once(stream, 'drain');
      }),
    );
    return;
  }
  await writeRecords(collections, records, counts, io, async (text) => {
    io.write(text);
  });
}

async function writeRecords(
  collections: readonly CollectionDeclaration[],
  records: (name: string) => Iterable<GeneratedRecord>,
  counts: ReadonlyMap<string, number>,
  io: CliIo,
  write: (text: string) => Promise<void>,
): Promise<void> {
  const { formatFixtureLine } = await import('../../generate/format-fixture.ts');
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const step = Math.max(1, Math.floor(total / 100));
  let done = 0;
  for (const collection of collections) {
    const count = counts.get(collection.name) ?? 0;
    await write(count === 0 ? `${collection.name}: []\n` : `${collection.name}:\n`);
    let chunk = '';
    for (const record of records(collection.name)) {
      chunk += formatFixtureLine(record);
      done += 1;
      // Written in small chunks: lines held longer are moved to the old generation, and a
      // million records' worth of them raised the peak memory by tens of megabytes.
      if (chunk.length >= CHUNK_CHARACTERS) {
        await write(chunk);
        chunk = '';
      }
      if (done % step === 0 || done === total) io.progress?.(progressBar(done, total));
    }
    await write(chunk);
  }
  io.progress?.('');
}

function progressBar(done: number, total: number): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done)}/${String(total)} records`;
}
