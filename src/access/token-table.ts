/** @module Bearer token → access level, compared in constant time. */
import { hash, timingSafeEqual } from 'node:crypto';
import type { AccessLevel } from './access-level.ts';

export interface TokenGrant<Level extends string = AccessLevel> {
  readonly token: string;
  readonly level: Level;
}

/** Looks a presented token up. Holds digests only, so no token can leak from it. */
export interface TokenTable<Level extends string = AccessLevel> {
  /** The level of the token, or undefined when no configured token matches. */
  levelOf(presented: string): Level | undefined;
  readonly size: number;
}

/**
 * Tokens are compared as SHA-256 digests with `timingSafeEqual`: the digests have equal length
 * whatever the token's length, and every configured token is compared on every lookup, so the
 * time taken says nothing about how close a guess was or which entry matched.
 */
export function createTokenTable<Level extends string = AccessLevel>(
  grants: readonly TokenGrant<Level>[],
): TokenTable<Level> {
  const entries = grants.map((grant) => ({ digest: digest(grant.token), level: grant.level }));
  return {
    size: entries.length,
    levelOf(presented) {
      const candidate = digest(presented);
      let level: Level | undefined;
      for (const entry of entries) {
        if (timingSafeEqual(entry.digest, candidate) && level === undefined) level = entry.level;
      }
      return level;
    },
  };
}

/** One-shot hashing: a fraction of the cost of a Hash object for strings this short. */
function digest(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}
