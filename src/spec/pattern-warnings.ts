/** @module The spec's patterns that RE2 cannot run, told with file and line. */
import type { SourceIssue } from '../problems/source-error.ts';
import { formatField } from '../source/describe-ajv-error.ts';
import { BOUNDED_MATCH_MS, patternsBeyondLinear } from '../source/linear-pattern.ts';
import type { LoadedSpec } from './load-spec.ts';

/**
 * One warning per pattern that needs a lookaround or a backreference: served, not refused (a
 * team's password rule is a lookahead, and a stand-in that refuses its spec has failed it), but
 * matched under a bound, which the warning names.
 */
export function boundedPatternWarnings(spec: LoadedSpec, limit = TOLD): SourceIssue[] {
  const found = patternsBeyondLinear(spec.document);
  const told = found.slice(0, limit).map(({ path, pattern }) => ({
    file: spec.file,
    at: spec.locate(path),
    field: formatField(path),
    message: `${JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 77)}...` : pattern)} needs a lookaround or a backreference, which no linear-time engine runs: each value is matched by JavaScript's RegExp with a ${String(BOUNDED_MATCH_MS)} ms bound, and one that runs out of time is refused`,
  }));
  // A spec with hundreds of them gets the first few, and a count, not a screen of each.
  return found.length <= limit
    ? told
    : [
        ...told,
        {
          file: spec.file,
          field: '',
          message: `and ${String(found.length - limit)} more patterns that need the bounded engine (\`stockmock validate\` names each)`,
        },
      ];
}

/** How many are told one by one at start (`validate` tells every one). */
const TOLD = 20;
