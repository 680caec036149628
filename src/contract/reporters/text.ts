/** @module The readable summary: grouped by check, each failure with request, expected and actual. */
import type { Failure } from '../check.ts';
import type { Report } from '../run-contract.ts';

/** At most this many failures are printed per check; the count says how many there were. */
const SHOWN_PER_CHECK = 5;

export function renderText(report: Report): string {
  const lines: string[] = [`stockmock contract ${report.target} (seed ${String(report.seed)})`, ''];
  let group = '';
  for (const result of report.results) {
    const head = result.id.split('.')[0] ?? result.id;
    if (head !== group) {
      group = head;
      lines.push(head);
    }
    const { outcome } = result;
    if (outcome.kind === 'passed') lines.push(`  ✓ ${result.id}  ${result.title}`);
    if (outcome.kind === 'skipped') lines.push(`  - ${result.id}  skipped: ${outcome.reason}`);
    if (outcome.kind === 'failed') {
      lines.push(`  ✗ ${result.id}  ${result.title}`);
      for (const failure of outcome.failures.slice(0, SHOWN_PER_CHECK))
        lines.push(...renderFailure(failure));
      const hidden = outcome.failures.length - SHOWN_PER_CHECK;
      if (hidden > 0) lines.push(`      … and ${String(hidden)} more`);
    }
  }
  lines.push('', `${String(report.requests)} requests in ${String(report.ms)} ms`);
  lines.push(summaryLine(report), '');
  return lines.join('\n');
}

/** `N passed, M failed` (`, K skipped` where some were): the line CI systems read. */
export function summaryLine(report: Report): string {
  const line = `${String(report.passed)} passed, ${String(report.failed)} failed`;
  return report.skipped > 0 ? `${line}, ${String(report.skipped)} skipped` : line;
}

function renderFailure(failure: Failure): string[] {
  const lines = [`      ${failure.message}`];
  if (failure.request !== undefined) lines.push(`        request:  ${failure.request}`);
  if (failure.expected !== undefined) lines.push(`        expected: ${failure.expected}`);
  if (failure.actual !== undefined) lines.push(`        actual:   ${failure.actual}`);
  return lines;
}
