/**
 * bench/mutation-summary.ts, the judge of `npm run mutate`, on small reports written here: it
 * passes a run whose mutants were all killed, and fails one with a survivor nobody listed or a
 * survivor whose run skipped some of the tests that cover it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../bench/mutation-summary.ts', import.meta.url));
const SOURCE = 'export const half = (n: number): number => n / 2;\n';

/** One mutant of SOURCE: `n / 2` (line 1, columns 44 to 49) made `n * 2`. */
function mutant(status: string, testsCompleted: number, coveredBy: readonly string[]) {
  return {
    id: '1',
    mutatorName: 'ArithmeticOperator',
    replacement: 'n * 2',
    status,
    testsCompleted,
    coveredBy,
    location: { start: { line: 1, column: 44 }, end: { line: 1, column: 49 } },
  };
}

async function summarise(
  mutants: readonly ReturnType<typeof mutant>[],
): Promise<{ status: number | null; markdown: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-summary-'));
  const report = join(dir, 'report.json');
  const out = join(dir, 'mutation.md');
  // A file no entry of bench/mutation-equivalents.yaml names: every survivor here is unlisted.
  await writeFile(
    report,
    JSON.stringify({ files: { 'src/half.ts': { source: SOURCE, mutants } } }),
  );
  const run = spawnSync(process.execPath, [script, report, out], { encoding: 'utf8' });
  return { status: run.status, markdown: await readFile(out, 'utf8') };
}

describe('the mutation summary', () => {
  it('passes a run whose every mutant was killed, and counts it', async () => {
    const { status, markdown } = await summarise([mutant('Killed', 1, ['t1', 't2'])]);
    expect(status).toBe(0);
    expect(markdown).toContain('| `src/half.ts` | 1 | 1 | 0 | 0 | 0 | 0 | 100.0 % | 100.0 % |');
    expect(markdown).toContain('New survivors: 0.');
  });

  it('fails a survivor that no entry lists, naming its text and replacement', async () => {
    const { status, markdown } = await summarise([mutant('Survived', 2, ['t1', 't2'])]);
    expect(status).toBe(1);
    expect(markdown).toContain('New survivors: 1.');
    expect(markdown).toContain('- src/half.ts:1 Survived ArithmeticOperator: `n / 2` → `n * 2`');
    expect(markdown).not.toContain('skipped covering tests');
  });

  it('calls a survivor that ran fewer tests than cover it no measurement', async () => {
    const { status, markdown } = await summarise([mutant('Survived', 1, ['t1', 't2', 't3'])]);
    expect(status).toBe(1);
    expect(markdown).toContain('Survivors whose run skipped covering tests');
    expect(markdown).toContain('(ran 1 of 3 tests)');
  });
});
