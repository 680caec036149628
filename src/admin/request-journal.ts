/** @module A bounded journal of served requests, so a client team can assert what its client called. */
import type { FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import type { AccessLevel } from '../access/access-level.ts';
import { MASKED, type SecretQuery } from '../http/secret-query.ts';
import { namedSession } from '../http/session-of.ts';
import { DEFAULT_SESSION } from '../sessions/session-store.ts';

export interface JournalEntry {
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** The level the token gave; `none` for no token or an unknown one. Never the token. */
  readonly level: AccessLevel;
  readonly status: number;
  readonly ms: number;
  /** Set when the request chose a scenario with Prefer. */
  readonly scenario?: string;
  /** Set when the request named its session (`Stockmock-Session`): else the default one. */
  readonly session?: string;
}

export interface JournalFilter {
  readonly method?: string;
  /** A path prefix. */
  readonly path?: string;
  readonly status?: number;
  readonly level?: JournalEntry['level'];
  /** Only the requests of this session. */
  readonly session?: string;
}

export interface RequestJournal {
  record(entry: JournalEntry): void;
  /** Matching entries, oldest first. */
  list(filter?: JournalFilter): JournalEntry[];
  clear(): void;
}

/** A ring buffer: at most `size` entries; the oldest is dropped when a new one comes. */
export function createRequestJournal(size: number): RequestJournal {
  const ring: (JournalEntry | undefined)[] = new Array<JournalEntry | undefined>(size);
  let next = 0;
  let count = 0;
  return {
    record(entry) {
      ring[next] = entry;
      next = (next + 1) % size;
      count = Math.min(count + 1, size);
    },
    list(filter = {}) {
      const start = (next - count + size) % size;
      const entries: JournalEntry[] = [];
      for (let i = 0; i < count; i++) {
        const entry = ring[(start + i) % size];
        if (entry !== undefined && matches(entry, filter)) entries.push(entry);
      }
      return entries;
    },
    clear() {
      ring.fill(undefined);
      next = 0;
      count = 0;
    },
  };
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  return (
    (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
    (filter.path === undefined || entry.path.startsWith(filter.path)) &&
    (filter.status === undefined || entry.status === filter.status) &&
    (filter.level === undefined || entry.level === filter.level) &&
    (filter.session === undefined || (entry.session ?? DEFAULT_SESSION) === filter.session)
  );
}

/**
 * The hook that journals every answered request but the admin API's own and the docs': to be
 * added at the app's root, so that it sees every route.
 */
export function journalHook(journal: RequestJournal, secret: SecretQuery): onResponseHookHandler {
  return (request, reply, done) => {
    if (!request.url.startsWith('/__admin') && !request.url.startsWith('/docs')) {
      journal.record(journalEntry(request, reply, secret));
    }
    done();
  };
}

/** What the journal keeps of a request: never its token, only the level the token gave. */
function journalEntry(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: SecretQuery,
): JournalEntry {
  const applied = reply.getHeader('preference-applied');
  const scenario = typeof applied === 'string' ? /^scenario=(.+)$/.exec(applied)?.[1] : undefined;
  const entry: JournalEntry = {
    time: new Date().toISOString(),
    method: request.method,
    path: request.url.split('?', 1)[0] ?? '',
    query: Object.fromEntries(
      Object.entries(request.query as Record<string, string | string[]>).map(([name, value]) => [
        name,
        secret.isSecret(name) ? MASKED : value,
      ]),
    ),
    level: request.accessLevel ?? 'none',
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 100) / 100,
  };
  const session = namedSession(request);
  return {
    ...entry,
    ...(scenario === undefined ? {} : { scenario }),
    ...(session === undefined ? {} : { session }),
  };
}
