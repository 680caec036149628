/** @module `stockmock record <BASE_URL>`: a running service's records, as a fixture stockmock serves. */
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { DEFAULT_RUN_LIMITS } from '../../contract/run-limits.ts';
import { credentialPlaces } from '../../contract/credential-places.ts';
import { createTargetClient } from '../../contract/target-client.ts';
import { readDeclarations } from '../../resources/declarations.ts';
import type { RecordedCollection } from '../../record/recorded-collection.ts';
import type { Recording } from '../../record/record-service.ts';
import { loadSpec } from '../../spec/load-spec.ts';
import type { Command } from '../command.ts';
import { integerFlag, stringFlag } from '../flag-values.ts';
import type { CliIo } from '../io.ts';
import { parseOrigins, parseTokens, specLocation } from '../target-flags.ts';
import { readSecret } from '../secret-flag.ts';
import { UsageError } from '../usage-error.ts';
import { replaceFile, replaceFileWithText } from '../../util/replace-file.ts';

const AS = { prefix: 'record: ' } as const;

/** Polite to a real service by default: 20 requests a second. */
const DEFAULT_RATE = 20;
const DEFAULT_MAX_ITEMS = 1_000_000;
/** A 429 or 503 is asked again this many times, after its Retry-After. */
const RETRIES = 5;

export const recordCommand: Command = {
  name: 'record',
  summary: "Record a running service's records as a fixture that stockmock serves",
  usage:
    'stockmock record <BASE_URL> --token LEVEL=TOKEN ... [--out FILE] [--spec FILE|URL]\n' +
    '                 [--suggest-config [FILE]] [--rate N] [--concurrency N] [--timeout MS]\n' +
    '                 [--max-items N] [--allow-partial] [--trust-origin ORIGIN ...]\n' +
    '                 [--redact FIELD ...] [--redact-key TEXT]\n' +
    '  walks every list the spec declares by its links, at each level with a token, reads the\n' +
    '    items whose views show more, and writes one record per key (default: to stdout)\n' +
    '  --rate (default 20) requests a second, 0 for no pacing; --concurrency (default 4)\n' +
    '  --max-items (default 1000000) stops the walk there, with a warning\n' +
    '  --allow-partial writes the fixture even where the service read inconsistently\n' +
    '  --redact FIELD (or COLLECTION.FIELD) replaces its values by generated ones of its schema,\n' +
    '    the same for the same value; --redact-key keeps that mapping from run to run\n' +
    '  a TOKEN or --redact-key as env:VAR or file:PATH is read from there, off the command line\n' +
    '  --suggest-config also checks the service as `contract` does, and writes a config that\n' +
    '    serves the fixture with the compatibility settings seen (default FILE: next to --out,\n' +
    '    NAME.config.yaml)',
  flags: {
    token: { type: 'string', multiple: true },
    spec: { type: 'string' },
    out: { type: 'string' },
    'suggest-config': { type: 'boolean' },
    rate: { type: 'string' },
    concurrency: { type: 'string' },
    timeout: { type: 'string' },
    'max-items': { type: 'string' },
    'allow-partial': { type: 'boolean' },
    'trust-origin': { type: 'string', multiple: true },
    redact: { type: 'string', multiple: true },
    'redact-key': { type: 'string' },
  },
  async run(args, io) {
    const suggest = args.flags['suggest-config'] === true;
    const [baseUrl, configFile, ...extra] = args.positionals;
    if (baseUrl === undefined || extra.length > 0 || (configFile !== undefined && !suggest))
      throw new UsageError('record: give exactly one BASE_URL');
    if (!/^https?:\/\/[^/]/.test(baseUrl))
      throw new UsageError(`record: "${baseUrl}" is not an http(s) URL`);
    const out = stringFlag(args, 'out');
    if (suggest && configFile === undefined && out === undefined) {
      throw new UsageError('record: --suggest-config needs --out, or a FILE of its own');
    }
    const specGiven = stringFlag(args, 'spec');
    const spec = await loadSpec(specLocation(specGiven, io.cwd));
    const declarations = readDeclarations(spec);
    const tokens = parseTokens(args, spec, 'record', io);
    const rate = integerFlag(args, 'rate', { ...AS, fallback: DEFAULT_RATE, min: 0 });
    const concurrency = integerFlag(args, 'concurrency', { ...AS, fallback: 4, min: 1 });
    const timeoutMs = integerFlag(args, 'timeout', { ...AS, fallback: 5000, min: 1 });
    const maxItems = integerFlag(args, 'max-items', {
      ...AS,
      fallback: DEFAULT_MAX_ITEMS,
      min: 1,
    });
    const trustedOrigins = parseOrigins(args, 'record');
    const client = createTargetClient({
      baseUrl,
      tokens,
      timeoutMs,
      concurrency,
      rate,
      retries: RETRIES,
      trustedOrigins,
      placeOf: credentialPlaces(spec),
      // The walk is bounded by --max-items; a service that stops answering still ends it.
      limits: {
        ...DEFAULT_RUN_LIMITS,
        deadlineMs: Number.POSITIVE_INFINITY,
        maxRequests: Number.POSITIVE_INFINITY,
        maxBytes: Number.POSITIVE_INFINITY,
      },
    });
    const { planRecording } = await import('../../record/record-plan.ts');
    const { recordService, RecordStopped } = await import('../../record/record-service.ts');
    const plan = planRecording(spec, declarations, Object.keys(tokens));
    const { redactorsFor, RedactionRefused, unheldNames } = await import('../../record/redact.ts');
    const redactNames = (Array.isArray(args.flags['redact']) ? args.flags['redact'] : []).map(
      String,
    );
    const givenKey = stringFlag(args, 'redact-key');
    // Drawn afresh unless given: a guessed original cannot be confirmed by redacting again.
    const redactKey =
      givenKey === undefined
        ? randomBytes(32).toString('hex')
        : readSecret(givenKey, 'record: --redact-key', io);
    let redactors;
    try {
      redactors = redactorsFor(
        plan.collections.map(({ collection }) => collection),
        redactNames,
        redactKey,
      );
    } catch (error) {
      if (!(error instanceof RedactionRefused)) throw error;
      io.error(`record: --redact: ${error.message}\n`);
      return 2;
    }
    const started = performance.now();
    let recording;
    try {
      recording = await recordService(client, {
        plan,
        maxItems,
        ...(io.progress === undefined
          ? {}
          : {
              onProgress: ({ pages, items, records }) => {
                io.progress?.(
                  `record: ${String(pages)} pages, ${String(items)} items, ${String(records)} records`,
                );
              },
            }),
      });
    } catch (error) {
      if (error instanceof RecordStopped) {
        io.progress?.('');
        io.error(`${error.message}\n`);
        return 2;
      }
      throw error;
    }
    io.progress?.('');
    reportRecording(recording, io);
    const stopped = client.stopped();
    if (stopped !== undefined) {
      io.error(`record: stopped before the end: ${stopped}\n`);
      return 2;
    }
    if (recording.problemCount > 0 && args.flags['allow-partial'] !== true) {
      io.error(
        'record: no fixture written: the service read inconsistently (above); --allow-partial writes what was read\n',
      );
      return 1;
    }
    if (recording.problemCount > 0) {
      io.error('record: warning: the fixture holds what was read, inconsistencies and all\n');
    }
    const unheld = unheldNames(recording.collections, redactNames);
    if (unheld.length > 0) {
      io.error(
        `record: --redact ${unheld.join(', ')}: no record holds it, so nothing would be redacted; no fixture written\n`,
      );
      return 2;
    }
    const { writeFixture } = await import('../../record/write-fixture.ts');
    const redacted = (collection: RecordedCollection) => redactors.get(collection.declaration.name);
    const heading = [
      `Recorded by \`stockmock record\` from ${new URL(baseUrl).origin} on ${new Date().toISOString()}.`,
      `Levels read: ${Object.keys(tokens).join(', ') || 'none'}.`,
      ...(redactNames.length === 0 ? [] : [`Redacted: ${redactNames.join(', ')}.`]),
    ];
    const written =
      out === undefined
        ? await writeFixture(recording.collections, stdoutOf(io), heading, redacted)
        : await replaceFile(resolve(io.cwd, out), (stream) =>
            writeFixture(recording.collections, stream, heading, redacted),
          );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    io.error(
      `record: ${String(written)} records from ${String(recording.requests)} requests in ${seconds} s${out === undefined ? '' : ` → ${out}`}\n`,
    );
    if (!suggest) return 0;
    return suggestConfig({
      io,
      baseUrl,
      tokens,
      spec,
      specGiven,
      concurrency,
      rate,
      timeoutMs,
      trustedOrigins,
      fixture: out === undefined ? undefined : resolve(io.cwd, out),
      file: resolve(io.cwd, configFile ?? configFileBeside(out as string)),
    });
  },
};

/** The warnings and problems of a recording, a line each; its token never among them. */
function reportRecording(recording: Recording, io: CliIo): void {
  for (const warning of recording.warnings) io.error(`record: warning: ${warning}\n`);
  for (const { message, request } of recording.problems) {
    io.error(`record: ${request === undefined ? '' : `${request}: `}${message}\n`);
  }
  const shown = recording.problems.length;
  if (recording.problemCount > shown) {
    io.error(`record: … and ${String(recording.problemCount - shown)} more problems\n`);
  }
}

/** `fixtures/recorded.yaml` → `fixtures/recorded.config.yaml`. */
function configFileBeside(out: string): string {
  return join(dirname(out), `${basename(out).replace(/\.ya?ml$/i, '')}.config.yaml`);
}

/** Standard output as a stream the fixture writer can wait on. */
function stdoutOf(io: CliIo): Writable {
  return {
    write: (text: string) => {
      io.write(text);
      return true;
    },
  } as unknown as Writable;
}

interface SuggestInput {
  readonly io: CliIo;
  readonly baseUrl: string;
  readonly tokens: Readonly<Record<string, string>>;
  readonly spec: Awaited<ReturnType<typeof loadSpec>>;
  readonly specGiven: string | undefined;
  readonly concurrency: number;
  readonly rate: number;
  readonly timeoutMs: number;
  readonly trustedOrigins: readonly string[];
  readonly fixture: string | undefined;
  readonly file: string;
}

/**
 * Checks the service as `contract --suggest-config` does, at the same pace, and writes a config
 * that serves the fixture with the settings seen. Its tokens are not written: the stand-in's
 * own come from the config's `tokens`, which the user adds.
 */
async function suggestConfig(input: SuggestInput): Promise<number> {
  const { io } = input;
  const { runContract, TargetUnusable } = await import('../../contract/run-contract.ts');
  const { suggestConfig: suggestion, renderSuggestion } =
    await import('../../contract/suggest-config.ts');
  let report;
  // The check's deadline holds while judging holds the thread (cli/watchdog.ts); the fixture
  // is written by then.
  input.io.watch?.({ target: input.baseUrl, deadlineMs: DEFAULT_RUN_LIMITS.deadlineMs });
  try {
    report = await runContract({
      baseUrl: input.baseUrl,
      tokens: input.tokens,
      level: 'interface',
      pinProblemTypes: false,
      spec: input.spec,
      seed: Math.floor(Math.random() * 2 ** 31),
      runs: 100,
      timeoutMs: input.timeoutMs,
      concurrency: input.concurrency,
      rate: input.rate,
      limits: DEFAULT_RUN_LIMITS,
      trustedOrigins: input.trustedOrigins,
      writes: false,
    });
  } catch (error) {
    if (error instanceof TargetUnusable) {
      io.error(`record: --suggest-config: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { renderRecordedConfig } = await import('../../record/recorded-config.ts');
  const specFile = await specFileFor(input);
  const text = renderRecordedConfig({
    at: dirname(input.file),
    ...(input.fixture === undefined ? {} : { fixture: input.fixture }),
    ...(specFile === undefined ? {} : { spec: specFile }),
    levels: Object.keys(input.tokens),
    compatibility: renderSuggestion(suggestion(report)),
  });
  await replaceFileWithText(input.file, text);
  io.error(`record: wrote the suggested config to ${relative(io.cwd, input.file)}\n`);
  return 0;
}

/**
 * The spec file the suggested config names: the `--spec` file; a spec read from a URL saved
 * beside the config (`NAME.openapi.json`, as the service served it) where it is one document;
 * none for the shipped spec. A spec whose `$ref`s reach other documents is not saved: a warning
 * says so, since the stand-in would serve its shipped spec instead.
 */
async function specFileFor(input: SuggestInput): Promise<string | undefined> {
  const given = input.specGiven;
  if (given === undefined) return undefined;
  if (!/^https?:/i.test(given)) return resolve(input.io.cwd, given);
  if (input.spec.references.length > 0) {
    input.io.error(
      `record: warning: the spec read from ${given} refers to other documents; save them beside the fixture and name the spec in the config's \`spec:\`\n`,
    );
    return undefined;
  }
  const file = input.file.replace(/\.config\.ya?ml$|\.ya?ml$/i, '') + '.openapi.json';
  await replaceFileWithText(file, `${JSON.stringify(input.spec.document, null, 2)}\n`);
  input.io.error(`record: saved the spec read from ${given} to ${relative(input.io.cwd, file)}\n`);
  return file;
}
