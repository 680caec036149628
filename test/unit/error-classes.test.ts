/** The two error classes as a log or a terminal shows them: by name, then the message. */
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../src/problems/problem-error.ts';
import { PROBLEMS } from '../../src/problems/problem-types.ts';
import { SourceError } from '../../src/problems/source-error.ts';

describe('SourceError', () => {
  it('shows every issue on a line of its own, with file, line, column and field', () => {
    const error = new SourceError([
      { file: 'a.yaml', at: { line: 3, column: 5 }, field: 'products[1].id', message: 'is 0' },
      { file: 'b.yaml', field: '', message: 'is empty' },
    ]);
    expect(String(error)).toBe('SourceError: a.yaml:3:5 products[1].id: is 0\nb.yaml is empty');
    expect(error.issues).toHaveLength(2);
  });
});

describe('ProblemError', () => {
  it('shows its detail under its name', () => {
    const error = ProblemError.from(PROBLEMS.NOT_FOUND, 'Nothing here.');
    expect(String(error)).toBe('ProblemError: Nothing here.');
    expect(error.problem).toBe(PROBLEMS.NOT_FOUND);
  });
});
