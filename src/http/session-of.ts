/**
 * @module The session a request names: its `Stockmock-Session` header, else the cookie of that
 * name (a browser's), else the default session everyone without one shares.
 */
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
import { DEFAULT_SESSION, SESSION_HEADER } from '../sessions/session-store.ts';

/** Letters, digits and `._:-`, up to 128: a test's name or a UUID, safe in a log line. */
const SESSION_NAME = /^[\w.:-]{1,128}$/;

const COOKIE = new RegExp(`(?:^|;)\\s*${SESSION_HEADER}=([^;]*)`, 'i');

/**
 * The session a request names, or the default one; a 400 problem for a name that cannot be one
 * (it would reach logs and the journal).
 */
export function sessionOf(request: FastifyRequest): string {
  const header = request.headers[SESSION_HEADER];
  let name = typeof header === 'string' ? header : undefined;
  let from: 'header' | 'cookie' = 'header';
  if (name === undefined) {
    const cookie = request.headers.cookie;
    // Most requests carry no cookie: nothing is matched for them.
    const found = cookie === undefined ? null : COOKIE.exec(cookie);
    if (found === null) return DEFAULT_SESSION;
    name = decodeCookie(found[1] ?? '');
    from = 'cookie';
  }
  if (!SESSION_NAME.test(name)) {
    throw ProblemError.from(PROBLEMS.INVALID_PARAMETERS, '1 parameter is invalid.', {
      errors: [
        // A cookie travels in a header: specs declare problems' `in` as query, path or header.
        {
          parameter: from === 'header' ? SESSION_HEADER : 'Cookie',
          in: 'header',
          message: `${from === 'header' ? '' : `its ${SESSION_HEADER} `}must be 1 to 128 letters, digits or ._:-`,
        },
      ],
    });
  }
  return name;
}

function decodeCookie(value: string): string {
  try {
    return decodeURIComponent(value.trim());
  } catch {
    return value;
  }
}

/** The session a request names, where it names a valid one: for the journal, which never throws. */
export function namedSession(request: FastifyRequest): string | undefined {
  if (request.headers[SESSION_HEADER] === undefined && request.headers.cookie === undefined) {
    return undefined;
  }
  try {
    const name = sessionOf(request);
    return name === DEFAULT_SESSION ? undefined : name;
  } catch {
    return undefined;
  }
}
