import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/contract/reporters/json.ts';
import { renderJunit } from '../../src/contract/reporters/junit.ts';
import { renderText, summaryLine } from '../../src/contract/reporters/text.ts';
import type { Report } from '../../src/contract/run-contract.ts';
import { PRODUCT_SETTINGS } from '../../src/contract/stand-in.ts';

const report: Report = {
  target: 'http://127.0.0.1:4010',
  seed: 42,
  requests: 3,
  ms: 1234,
  level: 'interface',
  standIn: PRODUCT_SETTINGS,
  passed: 1,
  failed: 1,
  differs: 1,
  skipped: 1,
  results: [
    {
      id: 'pagination.stock.links',
      title: 'links agree',
      level: 'interface',
      source: 'interface: List envelope',
      ms: 12,
      outcome: { kind: 'passed' },
    },
    {
      id: 'filters.status',
      title: 'status filter',
      level: 'interface',
      source: 'interface: GET /v1/stock, `status`',
      ms: 30,
      outcome: {
        kind: 'failed',
        failures: [
          {
            message:
              'The filter {"status":"available"} does not keep <exactly> the matching items & more',
            request: 'GET http://127.0.0.1:4010/v1/stock?status=available&limit=100 (status token)',
            expected: '3 items',
            actual: '5 items\u0000',
          },
        ],
      },
    },
    {
      id: 'access.levels-agree',
      title: 'levels agree',
      level: 'interface',
      source: 'interface: Authentication',
      ms: 0,
      outcome: { kind: 'skipped', reason: 'needs a quantity token' },
    },
    {
      id: 'pagination.stock.past-the-end-empty',
      title: 'a page past the end is 200 and empty',
      level: 'stand-in',
      source: 'PRODUCT.md: page past the end',
      ms: 3,
      outcome: {
        kind: 'differs',
        failures: [
          {
            message: 'A page past the end is not what the stand-in answers',
            request: 'GET http://127.0.0.1:4010/v1/stock?limit=4&page=9 (status token)',
            actual: '404 (application/problem+json) {"status":404}',
          },
        ],
      },
    },
  ],
};

describe('JUnit report', () => {
  const xml = renderJunit(report);
  it('is well-formed XML', () => {
    expect(SyntaxValidator.validate(xml)).toBe(true);
    expect(() => SyntaxValidator.validate(`${xml}<unclosed>`)).toThrow();
  });
  it('has one testsuite per check group and one testcase per check, with failure and skipped elements', () => {
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(xml) as {
      testsuites: {
        tests: string;
        failures: string;
        skipped: string;
        testsuite: { name: string; testcase: Record<string, unknown>[] }[];
      };
    };
    const { testsuites } = parsed;
    expect([testsuites.tests, testsuites.failures, testsuites.skipped]).toEqual(['4', '1', '1']);
    expect(testsuites.testsuite.map((suite) => suite.name)).toEqual([
      'pagination',
      'filters',
      'access',
    ]);
    const filters = testsuites.testsuite[1]?.testcase[0];
    // The name carries the check's sentence; every testcase tells its level and source.
    expect(filters?.['name']).toBe('filters.status: status filter');
    const passed = testsuites.testsuite[0]?.testcase[0];
    expect(passed?.['name']).toBe('pagination.stock.links: links agree');
    expect(passed?.['system-out']).toBe('[interface: interface: List envelope]');
    expect(JSON.stringify(filters?.['failure'])).toContain('[interface: interface: GET /v1/stock');
    expect(filters?.['classname']).toBe('stockmock.contract.filters');
    expect(JSON.stringify(filters?.['failure'])).toContain(
      'request:  GET http://127.0.0.1:4010/v1/stock?status=available',
    );
    expect(testsuites.testsuite[2]?.testcase[0]?.['skipped']).toEqual({
      message: 'needs a quantity token',
    });
    expect(JSON.stringify(filters?.['properties'])).toContain('"value":"interface"');
    expect(JSON.stringify(filters?.['properties'])).toContain('interface: GET /v1/stock');
    // A difference from the stand-in is told in the output, not failed.
    const differs = testsuites.testsuite[0]?.testcase[1];
    expect(differs?.['failure']).toBeUndefined();
    expect(JSON.stringify(differs?.['system-out'])).toContain('differs from the stand-in');
    expect(JSON.stringify(differs?.['properties'])).toContain('PRODUCT.md: page past the end');
  });
});

describe('text report', () => {
  const text = renderText(report);
  it('groups by check, shows the request, expected and actual of each failure', () => {
    expect(text).toContain('filters\n  ✗ filters.status');
    expect(text).toContain(
      'request:  GET http://127.0.0.1:4010/v1/stock?status=available&limit=100 (status token)',
    );
    expect(text).toContain('expected: 3 items');
    expect(text).toContain('- access.levels-agree  skipped: needs a quantity token');
    expect(text).toContain('[interface: interface: GET /v1/stock, `status`]');
  });
  it('gives each group one heading, with all its checks, however the checks ran', () => {
    const headings = text.split('\n').filter((line) => /^[a-z]+$/.test(line));
    expect(headings).toEqual(['pagination', 'filters', 'access']);
    expect(text).toMatch(
      /pagination\n {2}✓ pagination\.stock\.links[^\n]*\n {2}~ pagination\.stock\.past-the-end-empty/,
    );
  });
  it('leaves the section of differences out when there are none', () => {
    const none = renderText({
      ...report,
      differs: 0,
      results: report.results.filter((result) => result.outcome.kind !== 'differs'),
    });
    expect(none).not.toContain('Differs from the stand-in');
    expect(none).not.toContain('differs from the stand-in');
  });
  it('reports differences from the stand-in in their own section, with the answer', () => {
    const section = text.slice(text.indexOf('Differs from the stand-in'));
    expect(section).toContain('~ pagination.stock.past-the-end-empty');
    expect(section).toContain('[PRODUCT.md: page past the end]');
    expect(section).toContain('actual:   404 (application/problem+json)');
    expect(text).toContain(
      '1 check differs from the stand-in (not failures at the interface level)',
    );
  });
  it('ends with the line CI reads', () => {
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed, 1 skipped');
    expect(summaryLine({ ...report, skipped: 0 })).toBe('1 passed, 1 failed');
  });
});

describe('JSON report', () => {
  it('is the report, parseable', () => {
    expect(JSON.parse(renderJson(report))).toEqual(JSON.parse(JSON.stringify(report)));
  });
});
