/** @module ProblemError: an error that renders itself as an RFC 9457 problem body. */
import type { ProblemType } from './problem-types.ts';

/** Where a bad parameter was found. */
export type ParameterLocation = 'query' | 'path' | 'header' | 'body';

/** One bad parameter of a 400 answer. */
export interface ParameterIssue {
  readonly parameter: string;
  readonly in: ParameterLocation;
  readonly message: string;
}

/** The JSON body of a problem answer. */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly errors?: readonly ParameterIssue[];
  /** Further extension members (RFC 9457 §3.2), such as `issues` of a refused reload. */
  readonly [extension: string]: unknown;
}

/**
 * Thrown by handlers and hooks; the problem handler renders it.
 *
 * @example
 * throw ProblemError.from(PROBLEMS.NOT_FOUND, 'No product has the id 7.');
 */
export class ProblemError extends Error {
  readonly problem: ProblemType;
  readonly detail: string;
  readonly errors: readonly ParameterIssue[] | undefined;
  readonly extensions: Readonly<Record<string, unknown>>;
  /** Response headers the problem needs (`WWW-Authenticate`, `Allow`). */
  readonly headers: Readonly<Record<string, string>>;

  private constructor(
    problem: ProblemType,
    detail: string,
    errors: readonly ParameterIssue[] | undefined,
    headers: Readonly<Record<string, string>>,
    extensions: Readonly<Record<string, unknown>>,
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.problem = problem;
    this.detail = detail;
    this.errors = errors;
    this.headers = headers;
    this.extensions = extensions;
  }

  static from(
    problem: ProblemType,
    detail: string,
    extras: {
      errors?: readonly ParameterIssue[];
      headers?: Record<string, string>;
      extensions?: Record<string, unknown>;
    } = {},
  ): ProblemError {
    return new ProblemError(
      problem,
      detail,
      extras.errors,
      extras.headers ?? {},
      extras.extensions ?? {},
    );
  }

  get status(): number {
    return this.problem.status;
  }

  toJSON(): ProblemBody {
    const body = {
      ...this.extensions,
      type: this.problem.type,
      title: this.problem.title,
      status: this.problem.status,
      detail: this.detail,
    };
    return this.errors === undefined ? body : { ...body, errors: this.errors };
  }
}
