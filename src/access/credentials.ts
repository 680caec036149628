/**
 * @module The credentials the server takes, by security scheme: each configured token is a
 * credential of the scheme it names, or of every scheme when it names none (a bearer token, an
 * API key, or `user:password` for HTTP basic). Compared in constant time (token-table.ts).
 */
import type { AccessLevel } from './access-level.ts';
import { createTokenTable, type TokenTable } from './token-table.ts';

export interface CredentialGrant {
  readonly token: string;
  readonly level: AccessLevel;
  /** The security scheme it is a credential of; every scheme when absent. */
  readonly scheme?: string;
  /** A demo credential (`LEVEL-demo-token`): it names a level, and configures no check. */
  readonly demo: boolean;
}

export interface Credentials {
  /** The level a credential presented for the scheme grants; undefined when none is known. */
  levelOf(scheme: string, presented: string): AccessLevel | undefined;
  /**
   * Whether a credential other than a demo one was configured for the scheme: then only those
   * configured pass, even where no level is needed.
   */
  configuredFor(scheme: string): boolean;
  /** The demo credentials the scheme takes, to name in a 401 and at start. */
  demoFor(scheme: string): readonly string[];
}

export function createCredentials(grants: readonly CredentialGrant[]): Credentials {
  const tables = new Map<string, TokenTable>();
  const grantsOf = (scheme: string) =>
    grants.filter((grant) => grant.scheme === undefined || grant.scheme === scheme);
  const tableOf = (scheme: string): TokenTable => {
    let table = tables.get(scheme);
    if (table === undefined) {
      table = createTokenTable(grantsOf(scheme));
      tables.set(scheme, table);
    }
    return table;
  };
  return {
    levelOf: (scheme, presented) => tableOf(scheme).levelOf(presented),
    configuredFor: (scheme) => grantsOf(scheme).some((grant) => !grant.demo),
    demoFor: (scheme) =>
      grantsOf(scheme)
        .filter((grant) => grant.demo)
        .map((grant) => grant.token),
  };
}
