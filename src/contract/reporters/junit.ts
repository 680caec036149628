/** @module JUnit XML, as CI systems (GitLab, Jenkins, GitHub reporters) read it. */
import type { Report } from '../run-contract.ts';

/** One testsuite per check group (`pagination`, `filters`, …), one testcase per check. */
export function renderJunit(report: Report): string {
  const groups = new Map<string, typeof report.results>();
  for (const result of report.results) {
    const group = result.id.split('.')[0] ?? result.id;
    groups.set(group, [...(groups.get(group) ?? []), result]);
  }
  const suites = [...groups].map(([group, results]) => {
    const failures = results.filter((r) => r.outcome.kind === 'failed').length;
    const skipped = results.filter((r) => r.outcome.kind === 'skipped').length;
    const time = results.reduce((sum, r) => sum + r.ms, 0) / 1000;
    const cases = results.map((result) => {
      const open = `    <testcase classname="stockmock.contract.${escape(group)}" name="${escape(result.id)}" time="${(result.ms / 1000).toFixed(3)}">`;
      // Level and source as properties (JUnit 5 and most CI readers show them), and in the text.
      const properties = [
        '      <properties>',
        `        <property name="level" value="${escape(result.level)}"/>`,
        `        <property name="source" value="${escape(result.source)}"/>`,
        ...(result.observed === undefined
          ? []
          : [`        <property name="observed" value="${escape(result.observed)}"/>`]),
        '      </properties>',
      ].join('\n');
      const close = '    </testcase>';
      const { outcome } = result;
      if (outcome.kind === 'passed') return [open, properties, close].join('\n');
      if (outcome.kind === 'skipped')
        return [
          open,
          properties,
          `      <skipped message="${escape(outcome.reason)}"/>`,
          close,
        ].join('\n');
      const text = outcome.failures
        .map((f) =>
          [
            f.message,
            f.request && `request:  ${f.request}`,
            f.expected && `expected: ${f.expected}`,
            f.actual && `actual:   ${f.actual}`,
          ]
            .filter(Boolean)
            .join('\n'),
        )
        .join('\n\n');
      const message = outcome.failures[0]?.message ?? 'failed';
      const source = `[${result.level}: ${result.source}]`;
      // A difference from the stand-in passes at the interface level: it is told, not failed.
      const body =
        outcome.kind === 'differs'
          ? `      <system-out>${escape(`differs from the stand-in ${source}\n${text}`)}</system-out>`
          : `      <failure message="${escape(message)}" type="contract">${escape(`${source}\n${text}`)}</failure>`;
      return [open, properties, body, close].join('\n');
    });
    return [
      `  <testsuite name="${escape(group)}" tests="${String(results.length)}" failures="${String(failures)}" errors="0" skipped="${String(skipped)}" time="${time.toFixed(3)}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="stockmock contract ${escape(report.target)}" tests="${String(report.results.length)}" failures="${String(report.failed)}" errors="0" skipped="${String(report.skipped)}" time="${(report.ms / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** XML text and attribute escaping; characters XML 1.0 cannot hold at all are dropped. */
function escape(text: string): string {
  return text
    .replaceAll(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}
