/** @module SourceError: a bad file, named down to its line and field. */

/** A place in a text file. Lines and columns count from 1. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Where something is wrong: a file and a position, or a source without lines (`environment`). */
export interface SourceIssue {
  readonly file: string;
  readonly at?: Position;
  /** A dotted path to the field, e.g. `products[3].quantity`; empty for the whole file. */
  readonly field: string;
  readonly message: string;
}

/** Renders one issue the way compilers do, so editors and CI logs link to it. */
export function formatSourceIssue(issue: SourceIssue): string {
  const where =
    issue.at === undefined ? issue.file : `${issue.file}:${issue.at.line}:${issue.at.column}`;
  return issue.field === ''
    ? `${where} ${issue.message}`
    : `${where} ${issue.field}: ${issue.message}`;
}

/** A file that was refused. It carries every issue found, not just the first. */
export class SourceError extends Error {
  readonly issues: readonly SourceIssue[];

  constructor(issues: readonly SourceIssue[]) {
    super(issues.map(formatSourceIssue).join('\n'));
    this.name = 'SourceError';
    this.issues = issues;
  }
}
