/**
 * @module How problem bodies are written for the compatibility settings: which `type` URIs, and
 * whether a 400 lists its bad parameters. The problems themselves (problem-types.ts) are
 * stockmock's; a service that names them otherwise is matched here, in one place.
 */
import { STATUS_CODES } from 'node:http';
import type { Compatibility } from '../compatibility/compatibility.ts';
import type { ProblemBody } from './problem-error.ts';

export type ProblemStyle = Pick<Compatibility, 'problemTypes' | 'parameterErrors'>;

const STOCKMOCK_TYPES = 'urn:problem-type:stockmock:';

/** The body as the style writes it; stockmock's style leaves it as it is. */
export function styleProblem(body: ProblemBody, style: ProblemStyle): ProblemBody {
  const { errors, ...members } = body;
  const listed = style.parameterErrors === 'listed' && errors !== undefined ? { errors } : {};
  if (style.problemTypes === 'stockmock' || !body.type.startsWith(STOCKMOCK_TYPES)) {
    return { ...members, ...listed };
  }
  const name = body.type.slice(STOCKMOCK_TYPES.length);
  if (typeof style.problemTypes === 'object') {
    // One URI per problem; a problem the map does not name keeps stockmock's.
    const type = style.problemTypes[name] ?? body.type;
    return { ...members, type, ...listed };
  }
  if (style.problemTypes === 'about:blank') {
    // RFC 9457 §4.2.1: with about:blank, the title is the HTTP status phrase.
    const title = STATUS_CODES[body.status] ?? body.title;
    return { ...members, type: 'about:blank', title, ...listed };
  }
  return { ...members, type: `${style.problemTypes}${name}`, ...listed };
}
