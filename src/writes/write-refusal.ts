/** @module The problems a write is refused with, each naming what to change. */
import type { ErrorObject } from 'ajv';
import { ProblemError, type ParameterIssue } from '../problems/problem-error.ts';
import { WRITE_PROBLEMS } from '../problems/problem-types.ts';
import { describeAjvError } from '../source/describe-ajv-error.ts';

/**
 * One fault of a body: where, as a JSON Pointer into the body (or into the record it makes, for a
 * merge), and what.
 */
export type BodyFault = ParameterIssue & { readonly in: 'body' };

/** A refused body: the status the spec declares (400 or 422), and each fault. */
export function bodyRefusal(status: 400 | 422, faults: readonly BodyFault[]): ProblemError {
  const count = faults.length;
  return ProblemError.from(
    { ...WRITE_PROBLEMS.INVALID_BODY, status },
    count === 1 ? 'The request body has 1 fault.' : `The request body has ${String(count)} faults.`,
    { errors: faults },
  );
}

/** Each ajv error as a fault at its place: a missing or unknown member is in its pointer. */
export function faultsOf(errors: readonly ErrorObject[]): BodyFault[] {
  return errors.map((error) => {
    // The member a fault is about, named: it is the caller's own body.
    const params = error.params as { missingProperty?: unknown; additionalProperty?: unknown };
    const member = params.missingProperty ?? params.additionalProperty;
    const pointer =
      typeof member === 'string'
        ? `${error.instancePath}/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`
        : error.instancePath;
    return { parameter: pointer, in: 'body', message: describeAjvError(error) };
  });
}
