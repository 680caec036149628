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

describe('problem types as a setting', () => {
  it('names the setting that reproduces the types seen', () => {
    expect(decideProblemTypes(['about:blank'])).toMatchObject({ value: 'about:blank' });
    expect(
      decideProblemTypes([
        'urn:problem-type:stockmock:not-found',
        'urn:problem-type:stockmock:unauthorized',
      ]),
    ).toMatchObject({ value: 'stockmock' });
    expect(
      decideProblemTypes([
        'https://e.example/p/not-found',
        'https://e.example/p/invalid-parameters',
      ]),
    ).toMatchObject({ value: 'https://e.example/p/' });
    expect(decideProblemTypes([])).toBeUndefined();
  });

  it('suggests no base that stockmock could not take: relative, or two of them', () => {
    expect(decideProblemTypes(['/errors/not-found', '/errors/unauthorized'])).toHaveProperty(
      'uncovered',
    );
    expect(
      decideProblemTypes(['https://a.example/not-found', 'https://b.example/unauthorized']),
    ).toHaveProperty('uncovered');
  });
});
