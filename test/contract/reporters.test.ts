import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/contract/reporters/json.ts';
import { renderJunit } from '../../src/contract/reporters/junit.ts';
import { renderText, summaryLine } from '../../src/contract/reporters/text.ts';
import type { Report } from '../../src/contract/run-contract.ts';

const report: Report = {
  target: 'http://127.0.0.1:4010',
  seed: 42,
  requests: 3,
  ms: 1234,
  passed: 1,
  failed: 1,
  skipped: 1,
  results: [
    { id: 'pagination.stock.links', title: 'links agree', ms: 12, outcome: { kind: 'passed' } },
    {
      id: 'filters.status',
      title: 'status filter',
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
      ms: 0,
      outcome: { kind: 'skipped', reason: 'needs a quantity token' },
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
    expect([testsuites.tests, testsuites.failures, testsuites.skipped]).toEqual(['3', '1', '1']);
    expect(testsuites.testsuite.map((suite) => suite.name)).toEqual([
      'pagination',
      'filters',
      'access',
    ]);
    const filters = testsuites.testsuite[1]?.testcase[0];
    expect(filters?.['name']).toBe('filters.status');
    expect(filters?.['classname']).toBe('stockmock.contract.filters');
    expect(JSON.stringify(filters?.['failure'])).toContain(
      'request:  GET http://127.0.0.1:4010/v1/stock?status=available',
    );
    expect(testsuites.testsuite[2]?.testcase[0]?.['skipped']).toEqual({
      message: 'needs a quantity token',
    });
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
