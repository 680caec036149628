/** @module The readable summary: grouped by check, each failure with request, expected and actual. */
import type { CheckResult, Failure } from '../check.ts';
import type { Report } from '../run-contract.ts';

/** At most this many failures are printed per check; the count says how many there were. */
const SHOWN_PER_CHECK = 5;

export function renderText(report: Report): string {
  const lines: string[] = [
    `stockmock contract ${report.target} (seed ${String(report.seed)}; judged at the ${report.level} level)`,
    '',
  ];
  for (const [head, results] of groupsOf(report.results)) {
    lines.push(head);
    for (const result of results) lines.push(...renderResult(result));
  }
  const differing = report.results.filter((result) => result.outcome.kind === 'differs');
  if (differing.length > 0) {
    lines.push(
      '',
      'Differs from the stand-in: the interface allows these, but a client built against stockmock',
      'will meet them (where the stand-in has a compatibility setting for one, see its docs/testers-toolbox.md).',
      ...differing.flatMap(renderDifference),
    );
  }
  lines.push('', `${String(report.requests)} requests in ${String(report.ms)} ms`);
  if (differing.length > 0) {
    const count =
      differing.length === 1 ? '1 check differs' : `${String(differing.length)} checks differ`;
    lines.push(`${count} from the stand-in (not failures at the interface level)`);
  }
  lines.push(summaryLine(report), '');
  return lines.join('\n');
}

/**
 * Results by the head of their id (`access`, `pagination`, …), each head once, in the order heads
 * first appear: checks run in an order of their own (a cross-level check first), not by head.
 */
function groupsOf(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) {
    const head = result.id.split('.')[0] ?? result.id;
    const group = groups.get(head);
    if (group === undefined) groups.set(head, [result]);
    else group.push(result);
  }
  return groups;
}

function renderResult(result: CheckResult): string[] {
  const { outcome } = result;
  const lines: string[] = [];
  if (outcome.kind === 'passed') lines.push(`  ✓ ${result.id}  ${result.title}`);
  if (outcome.kind === 'skipped') lines.push(`  - ${result.id}  skipped: ${outcome.reason}`);
  if (outcome.kind === 'differs') lines.push(`  ~ ${result.id}  differs from the stand-in (below)`);
  if (outcome.kind === 'failed') {
    lines.push(`  ✗ ${result.id}  ${result.title}`, `      [${result.level}: ${result.source}]`);
    lines.push(...renderFailures(outcome.failures));
  }
  if (result.observed !== undefined) lines.push(`      seen: ${result.observed}`);
  return lines;
}

function renderDifference(result: CheckResult): string[] {
  const failures = result.outcome.kind === 'differs' ? result.outcome.failures : [];
  return [
    `  ~ ${result.id}  ${result.title}`,
    `      [${result.source}]`,
    ...renderFailures(failures),
  ];
}

/** `N passed, M failed` (`, K skipped` where some were): the line CI systems read. */
export function summaryLine(report: Report): string {
  const line = `${String(report.passed)} passed, ${String(report.failed)} failed`;
  return report.skipped > 0 ? `${line}, ${String(report.skipped)} skipped` : line;
}

function renderFailures(failures: readonly Failure[]): string[] {
  const lines = failures.slice(0, SHOWN_PER_CHECK).flatMap(renderFailure);
  const hidden = failures.length - SHOWN_PER_CHECK;
  if (hidden > 0) lines.push(`      … and ${String(hidden)} more`);
  return lines;
}

function renderFailure(failure: Failure): string[] {
  const lines = [`      ${failure.message}`];
  if (failure.request !== undefined) lines.push(`        request:  ${failure.request}`);
  if (failure.expected !== undefined) lines.push(`        expected: ${failure.expected}`);
  if (failure.actual !== undefined) lines.push(`        actual:   ${failure.actual}`);
  return lines;
}
