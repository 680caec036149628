/** @module `stockmock contract <BASE_URL>`: check a running implementation against the spec. */
import { resolve } from 'node:path';
import type { Level } from '../../contract/check.ts';
import { DEFAULT_RUN_LIMITS } from '../../contract/run-limits.ts';
import { loadSpec } from '../../spec/load-spec.ts';
import type { Command } from '../command.ts';
import { integerFlag, stringFlag } from '../flag-values.ts';
import { parseOrigins, parseTokens, specLocation } from '../target-flags.ts';
import { UsageError } from '../usage-error.ts';
import { replaceFileWithText } from '../../util/replace-file.ts';

const AS = { prefix: 'contract: ' } as const;

export const contractCommand: Command = {
  name: 'contract',
  summary: 'Check a running implementation against the spec and the interface rules',
  usage:
    'stockmock contract <BASE_URL> --token LEVEL=TOKEN ... [--level interface|stand-in]\n' +
    '                   [--spec FILE|URL] [--junit FILE] [--json]\n' +
    '                   [--seed N] [--runs N] [--timeout MS] [--concurrency N]\n' +
    '                   [--deadline MS] [--max-requests N] [--max-bytes N]\n' +
    '                   [--trust-origin ORIGIN ...] [--suggest-config [FILE]] [--pin-problem-types]\n' +
    '                   [--writes]\n' +
    "  --token LEVEL=TOKEN: LEVEL is status, quantity, or a level the spec's views declare; any\n" +
    '      name (letters, digits, _ and -) where the spec names no level; TOKEN as env:VAR or\n' +
    '      file:PATH reads it from there, off the command line, where other local users see it\n' +
    '  --level interface (default) fails only what breaks the interface or HTTP, and reports\n' +
    '    differences from the stand-in; --level stand-in fails those too\n' +
    "  --pin-problem-types fails problem `type` URIs that differ from the stand-in's at the\n" +
    '    stand-in level; without it they are reported only (the interface leaves them free)\n' +
    '  --spec takes a file or a URL (e.g. BASE_URL/openapi.json to judge the variant being served)\n' +
    "  --trust-origin lets links lead to another origin (a gateway's) and carry the tokens there;\n" +
    "    without it, only BASE_URL's origin is ever requested\n" +
    '  --writes sends the writes the spec declares (POST, PUT, PATCH, DELETE), with its examples,\n' +
    '    and judges their answers: they change data, so only against a stand-in or a service\n' +
    '    whose data may change; without it, the checker only reads\n' +
    '  --deadline (default 600000), --max-requests (100000), --max-bytes (1 GiB) bound the run;\n' +
    '    a run that reaches one, or gives up on a target that stops answering, exits 2\n' +
    '  --suggest-config prints, after the report, the compatibility: block that makes stockmock\n' +
    '    answer like the target; with FILE it writes it there as YAML instead',
  flags: {
    token: { type: 'string', multiple: true },
    level: { type: 'string' },
    spec: { type: 'string' },
    junit: { type: 'string' },
    json: { type: 'boolean' },
    seed: { type: 'string' },
    runs: { type: 'string' },
    timeout: { type: 'string' },
    concurrency: { type: 'string' },
    deadline: { type: 'string' },
    'max-requests': { type: 'string' },
    'max-bytes': { type: 'string' },
    'trust-origin': { type: 'string', multiple: true },
    'suggest-config': { type: 'boolean' },
    'pin-problem-types': { type: 'boolean' },
    writes: { type: 'boolean' },
  },
  async run(args, io) {
    const suggest = args.flags['suggest-config'] === true;
    // `--suggest-config FILE`: the file is the one positional after BASE_URL.
    const [baseUrl, suggestionFile, ...extra] = args.positionals;
    if (baseUrl === undefined || extra.length > 0 || (suggestionFile !== undefined && !suggest))
      throw new UsageError('contract: give exactly one BASE_URL');
    if (!/^https?:\/\/[^/]/.test(baseUrl))
      throw new UsageError(`contract: "${baseUrl}" is not an http(s) URL`);
    const spec = await loadSpec(specLocation(stringFlag(args, 'spec'), io.cwd));
    const options = {
      baseUrl,
      tokens: parseTokens(args, spec, 'contract', io),
      level: parseLevel(stringFlag(args, 'level')),
      pinProblemTypes: args.flags['pin-problem-types'] === true,
      spec,
      // Without --seed a fresh one is drawn, and printed, so that any run can be replayed.
      seed: integerFlag(args, 'seed', { ...AS, fallback: Math.floor(Math.random() * 2 ** 31) }),
      runs: integerFlag(args, 'runs', { ...AS, fallback: 100, min: 1 }),
      timeoutMs: integerFlag(args, 'timeout', { ...AS, fallback: 5000, min: 1 }),
      concurrency: integerFlag(args, 'concurrency', { ...AS, fallback: 4, min: 1 }),
      limits: {
        ...DEFAULT_RUN_LIMITS,
        deadlineMs: integerFlag(args, 'deadline', {
          ...AS,
          fallback: DEFAULT_RUN_LIMITS.deadlineMs,
          min: 1,
        }),
        maxRequests: integerFlag(args, 'max-requests', {
          ...AS,
          fallback: DEFAULT_RUN_LIMITS.maxRequests,
          min: 1,
        }),
        maxBytes: integerFlag(args, 'max-bytes', {
          ...AS,
          fallback: DEFAULT_RUN_LIMITS.maxBytes,
          min: 1,
        }),
      },
      trustedOrigins: parseOrigins(args, 'contract'),
      writes: args.flags['writes'] === true,
      ...(io.progress === undefined
        ? {}
        : {
            onProgress: (done: number, total: number, id: string) => {
              io.progress?.(done === total ? '' : `[${String(done + 1)}/${String(total)}] ${id}`);
            },
          }),
    };
    // Loaded on use: the checker pulls in Prism, which `serve` should not pay for at start.
    const { runContract, TargetUnusable } = await import('../../contract/run-contract.ts');
    const { renderJson } = await import('../../contract/reporters/json.ts');
    const { renderJunit } = await import('../../contract/reporters/junit.ts');
    const { renderText } = await import('../../contract/reporters/text.ts');
    const junit = stringFlag(args, 'junit');
    io.watch?.({
      target: baseUrl,
      deadlineMs: options.limits.deadlineMs,
      ...(junit === undefined ? {} : { junit }),
    });
    let report;
    try {
      report = await runContract(options);
    } catch (error) {
      if (error instanceof TargetUnusable) {
        io.error(`${error.message}\n`);
        // A CI page still gets its report: one error, the reason.
        if (junit !== undefined) {
          const { renderUnusableJunit } = await import('../../contract/reporters/junit.ts');
          await replaceFileWithText(
            resolve(io.cwd, junit),
            renderUnusableJunit(baseUrl, error.reason),
          );
        }
        return 2;
      }
      throw error;
    }
    if (junit !== undefined) await replaceFileWithText(resolve(io.cwd, junit), renderJunit(report));
    io.write(args.flags['json'] === true ? renderJson(report) : renderText(report));
    if (suggest) {
      const { suggestConfig, renderSuggestion } = await import('../../contract/suggest-config.ts');
      const yaml = renderSuggestion(suggestConfig(report));
      if (suggestionFile === undefined) io.write(`\n${yaml}`);
      else {
        await replaceFileWithText(resolve(io.cwd, suggestionFile), yaml);
        io.write(`wrote the suggested compatibility block to ${suggestionFile}\n`);
      }
    }
    if (report.stopped !== undefined) {
      io.error(`contract: stopped before the end: ${report.stopped}\n`);
      return 2;
    }
    return report.failed === 0 ? 0 : 1;
  },
};

/** `--level`: which rules fail the run. */
function parseLevel(given: string | undefined): Level {
  if (given === undefined) return 'interface';
  if (given === 'interface' || given === 'stand-in') return given;
  throw new UsageError(`contract: --level takes interface or stand-in, not "${given}"`);
}
