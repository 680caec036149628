/** @module JUnit XML, as CI systems (GitLab, Jenkins, GitHub reporters) read it. */
import type { Report } from '../run-contract.ts';

/**
 * One testsuite per check group (`pagination`, `filters`, …), one testcase per check. A CI page
 * shows a testcase's name and its text, rarely its properties: so the name carries the check's
 * sentence after its id, and every testcase's text says its level and source, whatever it came to.
 */
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
      const open = `    <testcase classname="stockmock.contract.${escape(group)}" name="${escape(`${result.id}: ${result.title}`)}" time="${(result.ms / 1000).toFixed(3)}">`;
      const about = `[${result.level}: ${result.source}]${result.observed === undefined ? '' : `\nobserved: ${result.observed}`}`;
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
      const told = `      <system-out>${escape(about)}</system-out>`;
      if (outcome.kind === 'passed') return [open, properties, told, close].join('\n');
      if (outcome.kind === 'skipped')
        return [
          open,
          properties,
          `      <skipped message="${escape(outcome.reason)}"/>`,
          told,
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
      // A difference from the stand-in passes at the interface level: it is told, not failed.
      const body =
        outcome.kind === 'differs'
          ? `      <system-out>${escape(`differs from the stand-in ${about}\n${text}`)}</system-out>`
          : `      <failure message="${escape(message)}" type="contract">${escape(`${about}\n${text}`)}</failure>`;
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

/** The report of a target that could not be checked at all: one testcase, in error. */
export function renderUnusableJunit(target: string, reason: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="stockmock contract ${escape(target)}" tests="1" failures="0" errors="1" skipped="0" time="0">`,
    '  <testsuite name="contract" tests="1" failures="0" errors="1" skipped="0" time="0">',
    '    <testcase classname="stockmock.contract.contract" name="contract.target-usable: The target answers HTTP and takes the given tokens" time="0">',
    `      <error message="${escape(`Cannot check ${target}: ${reason}`)}" type="unusable-target"/>`,
    '    </testcase>',
    '  </testsuite>',
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
