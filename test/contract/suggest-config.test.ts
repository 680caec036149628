/** What a suggestion makes of what the checker saw: values that read back, settings that exist. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { decideProblemTypes } from '../../src/contract/checks/problem-types.ts';
import { renderSuggestion } from '../../src/contract/suggest-config.ts';

describe('a suggested block', () => {
  it('reads back every value as written, whatever its characters', () => {
    const values = ['shop', 'stock api', 'yes', 'say "hi"', '# not a comment', '123'];
    for (const value of values) {
      const text = renderSuggestion({
        settings: [{ setting: 'realm', value, seen: 'the bearer realm' }],
        uncovered: [],
      });
      expect(parse(text), value).toEqual({ compatibility: { realm: value } });
    }
  });
});

/** Problem types as a run sees them: each type with the status of the answer it came in. */
const seen = (...types: (readonly [string, number])[]) =>
  new Map(types.map(([type, status]) => [type, new Set([status])]));

describe('problem types as a setting', () => {
  it('names the setting that reproduces the types seen', () => {
    expect(decideProblemTypes(seen(['about:blank', 404]))).toMatchObject({ value: 'about:blank' });
    expect(
      decideProblemTypes(
        seen(
          ['urn:problem-type:stockmock:not-found', 404],
          ['urn:problem-type:stockmock:unauthorized', 401],
        ),
      ),
    ).toMatchObject({ value: 'stockmock' });
    expect(
      decideProblemTypes(
        seen(
          ['https://e.example/p/not-found', 404],
          ['https://e.example/p/invalid-parameters', 400],
        ),
      ),
    ).toMatchObject({ value: 'https://e.example/p/' });
    expect(decideProblemTypes(new Map())).toBeUndefined();
  });

  it('names one URI per problem where there is no common base, by the status each came with', () => {
    expect(
      decideProblemTypes(
        seen(['https://a.example/bad-request', 400], ['tag:example.com,2026:not-found', 404]),
      ),
    ).toMatchObject({
      value: {
        'invalid-parameters': 'https://a.example/bad-request',
        'not-found': 'tag:example.com,2026:not-found',
      },
    });
  });

  it('suggests nothing stockmock could not take: relative types, two types for one problem', () => {
    expect(
      decideProblemTypes(seen(['/errors/not-found', 404], ['/errors/unauthorized', 401])),
    ).toHaveProperty('uncovered');
    expect(
      decideProblemTypes(seen(['https://a.example/missing', 404], ['https://b.example/gone', 404])),
    ).toHaveProperty('uncovered');
    expect(
      decideProblemTypes(new Map([['https://a.example/oops', new Set([400, 404])]])),
    ).toHaveProperty('uncovered');
  });

  it('writes a URI per problem as a YAML mapping that reads back as the setting', () => {
    const value = {
      'not-found': 'tag:example.com,2026:not-found',
      unauthorized: 'https://b.example/auth',
    };
    const text = renderSuggestion({
      settings: [{ setting: 'problemTypes', value, seen: 'one problem type per problem' }],
      uncovered: [],
    });
    expect(parse(text)).toEqual({ compatibility: { problemTypes: value } });
  });
});
