/**
 * The second half of `npm run mutate`: reads StrykerJS's JSON report, sets the survivors listed
 * as equivalent in `bench/mutation-equivalents.yaml` apart, and writes the score of each core file
 * to `bench/mutation.md`. Exits 1 when a survivor is not on that list or a file scores under 90 %,
 * so that the next run shows only what is new. Arguments name another report to read and another
 * file to write.
 * A survivor whose run did not complete every test covering it is no measurement (the vitest
 * runner has lost runs under load before): it also exits 1, whether listed or not.
 *
 * A mutant is matched to the list by file, mutator, the source text it replaces and its
 * replacement, or by the stretch of source it lies in, never by line: an edit elsewhere in the
 * file must not unlist it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

interface Position {
  readonly line: number;
  readonly column: number;
}
interface ReportMutant {
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly testsCompleted?: number;
  readonly coveredBy?: readonly string[];
  readonly location: { readonly start: Position; readonly end: Position };
}
interface ReportFile {
  readonly source: string;
  readonly mutants: readonly ReportMutant[];
}
/**
 * A survivor no behaviour can tell apart: one mutant, by the text it replaces and its
 * replacement; or every survivor within a stretch of source (`within`, which must occur once in
 * the file), for code whose every choice leaves the answers the same.
 */
type Equivalent = { readonly file: string; readonly reason: string } & (
  | { readonly mutator: string; readonly original: string; readonly replacement: string }
  | { readonly within: string }
);

const TARGET = 0.9;
const root = fileURLToPath(new URL('..', import.meta.url));
const reportFile = process.argv[2] ?? join(root, 'bench/results/mutation/report.json');
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
  readonly files: Readonly<Record<string, ReportFile>>;
};
const equivalents = (parse(readFileSync(join(root, 'bench/mutation-equivalents.yaml'), 'utf8')) ??
  []) as readonly Equivalent[];

/** Where in the source a mutant's text starts and ends (the report counts lines and columns from 1). */
function offsetsOf(source: string, { start, end }: ReportMutant['location']): [number, number] {
  const lines = source.split('\n');
  const lineStart = (line: number) =>
    lines.slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0);
  return [lineStart(start.line) + start.column - 1, lineStart(end.line) + end.column - 1];
}

/** Whether a listed entry covers a surviving mutant of a file. */
function covers(
  entry: Equivalent,
  file: string,
  source: string,
  mutant: ReportMutant,
  original: string,
  replacement: string,
): boolean {
  if (entry.file !== file) return false;
  if ('within' in entry) {
    const start = source.indexOf(entry.within);
    // Absent or not unique: the entry covers nothing, and shows as stale.
    if (start < 0 || source.includes(entry.within, start + 1)) return false;
    const [from, to] = offsetsOf(source, mutant.location);
    return from >= start && to <= start + entry.within.length;
  }
  return (
    entry.mutator === mutant.mutatorName &&
    oneLine(entry.original) === original &&
    oneLine(entry.replacement) === replacement
  );
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const used = new Set<Equivalent>();
const rows: string[] = [];
const newSurvivors: string[] = [];
const unmeasured: string[] = [];
let below = 0;
for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) =>
  a.localeCompare(b),
)) {
  let detected = 0;
  let undetected = 0;
  let equivalent = 0;
  let compileErrors = 0;
  let ignored = 0;
  for (const mutant of mutants) {
    if (mutant.status === 'Killed' || mutant.status === 'Timeout') detected++;
    else if (mutant.status === 'CompileError') compileErrors++;
    else if (mutant.status === 'Ignored') ignored++;
    else if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
      const original = oneLine(source.slice(...offsetsOf(source, mutant.location)));
      const replacement = oneLine(mutant.replacement ?? '');
      const shown =
        `${file}:${String(mutant.location.start.line)} ${mutant.status} ${mutant.mutatorName}: ` +
        `\`${original.slice(0, 80)}\` → \`${replacement.slice(0, 80)}\``;
      const covering = mutant.coveredBy?.length ?? 0;
      if (mutant.status === 'Survived' && (mutant.testsCompleted ?? 0) < covering)
        unmeasured.push(
          `${shown} (ran ${String(mutant.testsCompleted ?? 0)} of ${String(covering)} tests)`,
        );
      const listed = equivalents.find((entry) =>
        covers(entry, file, source, mutant, original, replacement),
      );
      if (listed) {
        used.add(listed);
        equivalent++;
      } else {
        undetected++;
        newSurvivors.push(shown);
      }
    }
  }
  const counted = detected + undetected + equivalent;
  const raw = counted === 0 ? undefined : detected / counted;
  const net = counted - equivalent === 0 ? undefined : detected / (counted - equivalent);
  if (net !== undefined && net < TARGET) below++;
  const percent = (value: number | undefined): string =>
    value === undefined ? '—' : `${(value * 100).toFixed(1)} %`;
  rows.push(
    `| \`${file}\` | ${String(counted)} | ${String(detected)} | ${String(undetected)} | ` +
      `${String(equivalent)} | ${String(compileErrors)} | ${String(ignored)} | ${percent(raw)} | ` +
      `${percent(net)} |`,
  );
}
// Only files this report mutated: a run over some files says nothing of the others' entries.
const stale = equivalents.filter((entry) => entry.file in report.files && !used.has(entry));

const markdown = [
  '# Mutation testing',
  '',
  'Written by `npm run mutate` (StrykerJS, see `stryker.config.json`); the full report is in',
  '`bench/results/mutation/index.html`. Counted: mutants that compile. Score: killed or timed',
  'out, over counted; "without equivalents" leaves out the survivors listed in',
  '`bench/mutation-equivalents.yaml`. Static mutants (module-level, `ignoreStatic`) are not run.',
  '',
  '| file | counted | killed | survived | equivalent | compile errors | static | score | without equivalents |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows,
  '',
  `New survivors: ${String(newSurvivors.length)}.`,
  ...newSurvivors.map((line) => `- ${line}`),
  ...(unmeasured.length === 0
    ? []
    : [
        '',
        `Survivors whose run skipped covering tests (no measurement; run again): ${String(unmeasured.length)}.`,
        ...unmeasured.map((line) => `- ${line}`),
      ]),
  '',
].join('\n');
writeFileSync(process.argv[3] ?? join(root, 'bench/mutation.md'), markdown);
process.stdout.write(markdown);
for (const entry of stale)
  process.stdout.write(
    `Listed but no longer surviving: ${entry.file} ${oneLine('within' in entry ? entry.within : entry.original).slice(0, 80)}\n`,
  );
process.exitCode = newSurvivors.length > 0 || unmeasured.length > 0 || below > 0 ? 1 : 0;
