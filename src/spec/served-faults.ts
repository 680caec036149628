/**
 * @module Faults confined to one schema or one path template: served around, with a warning
 * (`serve` at start, `validate`), or refused under `--strict`.
 */
import type { SourceIssue } from '../problems/source-error.ts';

/** A fault found at load, with what is served in spite of it. */
export interface ServedFault extends SourceIssue {
  /** What is served instead: `the schema is served without it`. */
  readonly served: string;
}

/**
 * The warnings of a spec's faults, the first `limit` one by one, then a count: a spec converted
 * with a fault in each of its hundreds of schemas gets a screen, not thousands of lines.
 */
export function faultWarnings(faults: readonly ServedFault[], limit = TOLD): SourceIssue[] {
  const told = faults.slice(0, limit).map(({ served, ...fault }) => ({
    ...fault,
    message: `${fault.message}; ${served} (--strict refuses it)`,
  }));
  const [first] = faults;
  if (first === undefined || faults.length <= limit) return told;
  return [
    ...told,
    {
      file: first.file,
      field: '',
      message: `and ${String(faults.length - limit)} more faults served around (\`stockmock validate\` names each)`,
    },
  ];
}

/** How many are told one by one at start (`validate` tells every one). */
const TOLD = 20;

/** The same faults as `--strict` refuses them. */
export function strictRefusals(faults: readonly ServedFault[]): SourceIssue[] {
  return faults.map(({ served, ...fault }) => ({
    ...fault,
    message: `${fault.message}; --strict refuses it (without --strict: ${served}, with a warning)`,
  }));
}
