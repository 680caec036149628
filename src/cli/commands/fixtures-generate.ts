/** @module `stockmock fixtures generate`: a seeded, realistic catalogue as a fixture file. */
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { once } from 'node:events';
import type { Command } from '../command.ts';
import { integerFlag, stringFlag } from '../flag-values.ts';
import type { CliIo } from '../io.ts';
import { UsageError } from '../usage-error.ts';

/**
 * The most products a generation makes unless told: a million are 174 MB of YAML, about what a
 * server reads at its default `maxFixtureBytes`; a hundred million ran for hours into 17 GB.
 */
const DEFAULT_MAX_COUNT = 1_000_000;

export const fixturesGenerateCommand: Command = {
  name: 'fixtures',
  summary: 'fixtures generate: write a seeded, realistic catalogue',
  usage:
    'stockmock fixtures generate --count N [--seed S] [--out FILE]\n' +
    '  --count N    how many products (required)\n' +
    '  --seed S     the same seed gives the same catalogue (default: 1)\n' +
    '  --out FILE   write the fixture there; without it, it goes to standard output\n' +
    `  --max-count N  the most --count may ask (default: ${String(DEFAULT_MAX_COUNT)}, 174 MB of YAML)`,
  flags: {
    count: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
    'max-count': { type: 'string' },
  },
  async run(args, io) {
    const [action, ...extra] = args.positionals;
    if (action !== 'generate' || extra.length > 0)
      throw new UsageError('fixtures: the only action is "generate"');
    const count = integerFlag(args, 'count', { prefix: 'fixtures generate: ' });
    const maxCount = integerFlag(args, 'max-count', {
      prefix: 'fixtures generate: ',
      fallback: DEFAULT_MAX_COUNT,
      min: 1,
    });
    if (count > maxCount) {
      throw new UsageError(
        `fixtures generate: --count ${String(count)} is past the ${String(maxCount)} products generated at most (a million are 174 MB of YAML, the most a default server reads); --max-count raises it`,
      );
    }
    const seed = integerFlag(args, 'seed', { prefix: 'fixtures generate: ', fallback: 1 });
    const outFlag = stringFlag(args, 'out');
    const out = outFlag === undefined ? undefined : resolve(io.cwd, outFlag);
    await writeCatalog({ count, seed }, out, io);
    if (out !== undefined)
      io.error(`Wrote ${String(count)} products (seed ${String(seed)}) to ${out}\n`);
    return 0;
  },
};

/** Streams the YAML to the file or to stdout, in chunks; a progress bar on a terminal. */
async function writeCatalog(
  options: { count: number; seed: number },
  out: string | undefined,
  io: CliIo,
): Promise<void> {
  // Loaded on use, so that other commands do not load faker at start.
  const { FIXTURE_HEADER, formatFixtureLine } = await import('../../generate/format-fixture.ts');
  const { generateProducts } = await import('../../generate/generate-products.ts');
  const stream = out === undefined ? undefined : createWriteStream(out);
  const write = async (text: string) => {
    if (stream === undefined) io.write(text);
    else if (!stream.write(text)) await once(stream, 'drain');
  };
  await write(FIXTURE_HEADER);
  let chunk = '';
  let done = 0;
  const step = Math.max(1, Math.floor(options.count / 100));
  for (const product of generateProducts(options)) {
    chunk += formatFixtureLine(product);
    done += 1;
    if (done % step === 0 || done === options.count) {
      await write(chunk);
      chunk = '';
      io.progress?.(progressBar(done, options.count));
    }
  }
  await write(chunk);
  io.progress?.('');
  if (stream !== undefined) {
    stream.end();
    await once(stream, 'finish');
  }
}

function progressBar(done: number, total: number): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done)}/${String(total)} products`;
}
