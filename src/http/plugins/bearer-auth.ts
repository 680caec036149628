/**
 * @module Bearer tokens (RFC 6750): the one reading of an `Authorization: Bearer` header, and
 * the lookup of a realm's tokens (the admin API's; the spec's routes: route-security.ts).
 */
import type { TokenTable } from '../../access/token-table.ts';
import { ProblemError } from '../../problems/problem-error.ts';
import { PROBLEMS } from '../../problems/problem-types.ts';

/** A protection space (RFC 7235 §2.2): its tokens, its realm, and what a refused client reads. */
export interface BearerRealm<Level extends string> {
  readonly tokens: TokenTable<Level>;
  readonly realm: string;
  /** The detail of a 401 without a token: which token to send. */
  readonly missing: string;
}

/** The token of an `Authorization: Bearer <token>` header; the scheme is case-insensitive. */
export function presentedToken(header: string | undefined): string | undefined {
  const match = /^bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The level an `Authorization` header's bearer token grants in a realm; else the 401 problem
 * with the realm's challenge (`error="invalid_token"` when a token was given): the admin API's.
 */
export function authenticate<Level extends string>(
  realm: BearerRealm<Level>,
  header: string | undefined,
): Level {
  const challenge = `Bearer realm="${realm.realm}"`;
  const token = presentedToken(header);
  if (token === undefined) {
    throw ProblemError.from(PROBLEMS.UNAUTHORIZED, realm.missing, {
      headers: { 'www-authenticate': challenge },
    });
  }
  const level = realm.tokens.levelOf(token);
  if (level === undefined) {
    // The token itself is never echoed or logged.
    throw ProblemError.from(
      PROBLEMS.UNAUTHORIZED,
      'The bearer token is not known to this server.',
      {
        headers: { 'www-authenticate': `${challenge}, error="invalid_token"` },
      },
    );
  }
  return level;
}
