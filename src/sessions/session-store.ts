/**
 * @module Sessions: each holds only its own writes over the loaded data, which stays immutable
 * and shared (copy-on-write), so a session costs nothing until it writes. A session's reads see
 * its scenario's data with its writes layered over it: its records are indexed once after each
 * change, and kept until the next; the loaded collection is never copied.
 */
import type { RecordInput } from '../dataset/build-collection.ts';
import type { CollectionChanges, Dataset } from '../dataset/dataset.ts';
import { recordAt } from '../dataset/record-at.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { WRITE_PROBLEMS } from '../problems/problem-types.ts';
import { compareKeys, keyAt, type Key } from '../query/keys.ts';
import type { SessionRecords } from '../writes/session-records.ts';
import { indexedCollectionOf, type LoadPlan } from '../scenarios/load-scenarios.ts';

/** The header a request names its session in, and the cookie of the same name (browsers). */
export const SESSION_HEADER = 'stockmock-session';

/** The session of every request that names none, shared as json-server's data is. */
export const DEFAULT_SESSION = 'default';

/** The bounds of sessions (docs/writes-and-sessions.md): past one, a write is refused. */
export interface SessionLimits {
  /** Sessions that hold writes at once. */
  readonly sessions: number;
  /** Writes one session holds. */
  readonly writes: number;
  /** Bytes of records one session holds, as JSON text. */
  readonly bytes: number;
  /** A session unused this long ends, and its writes with it. */
  readonly idleSeconds: number;
}

export const SESSION_LIMITS: SessionLimits = {
  sessions: 1000,
  writes: 10_000,
  bytes: 16 * 1024 * 1024,
  idleSeconds: 3600,
};

/** The limits a config's `sessions` sets, each unset one at its default. */
export function sessionLimitsOf(
  configured: {
    max?: number;
    writes?: number;
    bytes?: number;
    idleSeconds?: number;
  } = {},
): SessionLimits {
  return {
    ...SESSION_LIMITS,
    ...(configured.max === undefined ? {} : { sessions: configured.max }),
    ...(configured.writes === undefined ? {} : { writes: configured.writes }),
    ...(configured.bytes === undefined ? {} : { bytes: configured.bytes }),
    ...(configured.idleSeconds === undefined ? {} : { idleSeconds: configured.idleSeconds }),
  };
}

/**
 * How many sessions' layered data are kept at once: each holds its records indexed, and the
 * layers of the lists it read; a session read after its layers went indexes its records again.
 */
const KEPT_VIEWS = 32;

/** A record's new state: null once deleted. */
export type RecordChange = RecordInput | null;

/** What a session holds of one scenario: its changes by collection and key. */
interface ScenarioChanges {
  readonly collections: Map<string, Map<Key, RecordChange>>;
  version: number;
  view: { readonly base: number; readonly version: number; readonly dataset: Dataset } | undefined;
}

interface Session {
  readonly scenarios: Map<string, ScenarioChanges>;
  writes: number;
  bytes: number;
  lastUsed: number;
}

/** What is known of an open session. */
export interface SessionSummary {
  readonly name: string;
  readonly writes: number;
  readonly bytes: number;
  readonly idleSeconds: number;
}

export interface SessionStore {
  readonly limits: SessionLimits;
  /** The data a session's request sees: the scenario's, with the session's writes. */
  view(session: string, scenario: string, base: Dataset): Dataset;
  /** A collection's records as the session sees them, for a write to read: no copy is made. */
  records(session: string, scenario: string, base: Dataset, collection: string): SessionRecords;
  /** How many writes a session holds: what seeds the values its next create makes. */
  writesOf(session: string): number;
  /** Keeps a write's result; a SESSION_LIMIT problem past a bound, and nothing kept. */
  commit(
    session: string,
    scenario: string,
    collection: string,
    key: Key,
    record: RecordChange,
  ): void;
  /** Ends one session, or every one; how many held writes. */
  reset(session?: string): number;
  list(): SessionSummary[];
  /** A session's data over a scenario, as a fixture holds it: every collection's records. */
  data(session: string, scenario: string, base: Dataset): Record<string, RecordInput[]>;
}

export function createSessionStore(
  plan: LoadPlan,
  limits: SessionLimits = SESSION_LIMITS,
  clock: () => number = Date.now,
): SessionStore {
  const sessions = new Map<string, Session>();
  const sessionPlan = sessionPlanOf(plan);
  // The rebuilt data of the sessions read last, oldest first: each is a copy of the collections
  // its session changed, so only so many are kept; another is rebuilt when read again.
  const viewed = new Set<ScenarioChanges>();
  const idle = (session: Session, now: number) =>
    now - session.lastUsed > limits.idleSeconds * 1000;
  const end = (name: string): boolean => {
    for (const changes of sessions.get(name)?.scenarios.values() ?? []) viewed.delete(changes);
    return sessions.delete(name);
  };
  const sweep = (now: number) => {
    for (const [name, session] of sessions) if (idle(session, now)) end(name);
  };
  const live = (name: string): Session | undefined => {
    const session = sessions.get(name);
    if (session === undefined) return undefined;
    const now = clock();
    if (idle(session, now)) {
      end(name);
      return undefined;
    }
    session.lastUsed = now;
    return session;
  };
  const view = (name: string, scenario: string, base: Dataset): Dataset => {
    const changes = live(name)?.scenarios.get(scenario);
    if (changes === undefined) return base;
    viewed.delete(changes);
    viewed.add(changes);
    const kept = changes.view;
    if (kept?.base === base.serial && kept.version === changes.version) return kept.dataset;
    const dataset = withChanges(base, changes.collections, sessionPlan);
    changes.view = { base: base.serial, version: changes.version, dataset };
    for (const oldest of viewed) {
      if (viewed.size <= KEPT_VIEWS) break;
      oldest.view = undefined;
      viewed.delete(oldest);
    }
    return dataset;
  };
  return {
    limits,
    view,
    writesOf: (name) => live(name)?.writes ?? 0,
    records(name, scenario, base, collection) {
      const declaration = plan.collections.find((one) => one.name === collection);
      if (declaration === undefined) throw new Error(`No collection is named ${collection}`);
      const { records: loaded } = base.loaded(collection);
      const changed = live(name)?.scenarios.get(scenario)?.collections.get(collection);
      return {
        get(key) {
          if (changed?.has(key) === true) return changed.get(key) ?? undefined;
          const position = loaded.positionOf(key);
          return position < 0 ? undefined : recordAt(loaded, declaration, position);
        },
        highestKey() {
          let highest = loaded.size === 0 ? undefined : keyAt(loaded.keys, loaded.size - 1);
          for (const key of changed?.keys() ?? []) {
            if (highest === undefined || compareKeys(key, highest) > 0) highest = key;
          }
          return highest;
        },
      };
    },
    commit(name, scenario, collection, key, record) {
      const now = clock();
      let session = live(name);
      if (session === undefined) {
        sweep(now);
        if (sessions.size >= limits.sessions) {
          throw limitReached(
            `${String(limits.sessions)} sessions hold writes, the most there may be: end one (DELETE /__admin/sessions/NAME, or reset() in the programmatic API) or let one stay idle for ${String(limits.idleSeconds)} s`,
          );
        }
        session = { scenarios: new Map(), writes: 0, bytes: 0, lastUsed: now };
      }
      const bytes = record === null ? 0 : JSON.stringify(record).length;
      if (session.writes + 1 > limits.writes) {
        throw limitReached(
          `the session ${name} holds ${String(limits.writes)} writes, the most one may: reset it to write again`,
        );
      }
      if (session.bytes + bytes > limits.bytes) {
        throw limitReached(
          `the session ${name} would hold more than ${String(limits.bytes)} bytes of records, the most one may: reset it to write again`,
        );
      }
      sessions.set(name, session);
      session.writes += 1;
      session.bytes += bytes;
      let changes = session.scenarios.get(scenario);
      if (changes === undefined) {
        changes = { collections: new Map(), version: 0, view: undefined };
        session.scenarios.set(scenario, changes);
      }
      let changed = changes.collections.get(collection);
      if (changed === undefined) {
        changed = new Map();
        changes.collections.set(collection, changed);
      }
      changed.set(key, record);
      changes.version += 1;
    },
    reset(name) {
      if (name === undefined) {
        const count = sessions.size;
        sessions.clear();
        viewed.clear();
        return count;
      }
      return end(name) ? 1 : 0;
    },
    list() {
      const now = clock();
      sweep(now);
      return [...sessions].map(([name, session]) => ({
        name,
        writes: session.writes,
        bytes: session.bytes,
        idleSeconds: Math.floor((now - session.lastUsed) / 1000),
      }));
    },
    data(name, scenario, base) {
      const dataset = view(name, scenario, base);
      return Object.fromEntries(
        plan.collections.map((declaration) => {
          const served = dataset.collection(declaration.name);
          const byKey = served.list([], [{ field: declaration.key, descending: false }], false);
          return [
            declaration.name,
            byKey
              .slice(0, byKey.total)
              .map((position) =>
                served.at(position, (records, at) => recordAt(records, declaration, at)),
              ),
          ];
        }),
      );
    },
  };
}

function limitReached(detail: string): ProblemError {
  return ProblemError.from(WRITE_PROBLEMS.SESSION_LIMIT, `Not written: ${detail}.`);
}

/**
 * How a session's records are indexed: as a load indexes them, but without whole orders, which
 * save a million-record sort at the first request and cost a few thousand records more than
 * they save (each change indexes the session's records again).
 */
function sessionPlanOf(plan: LoadPlan): LoadPlan {
  return {
    ...plan,
    indexes: Object.fromEntries(
      Object.entries(plan.indexes).map(([name, indexes]) => [name, { ...indexes, orders: [] }]),
    ),
  };
}

/** The loaded data with each changed collection's records layered over it. */
function withChanges(
  base: Dataset,
  collections: ReadonlyMap<string, ReadonlyMap<Key, RecordChange>>,
  plan: LoadPlan,
): Dataset {
  const changes = new Map<string, CollectionChanges>();
  for (const [name, changed] of collections) {
    const declaration = plan.collections.find((one) => one.name === name);
    if (declaration === undefined) throw new Error(`No collection is named ${name}`);
    const records = [...changed.values()].filter((record) => record !== null);
    const { source } = base.loaded(name).records;
    const label = declaration.label;
    changes.set(name, {
      written: indexedCollectionOf(declaration, source, records, plan),
      touched: new Set(changed.keys()),
      rules: {
        key: declaration.key,
        ranked: plan.indexes[name]?.ranked ?? {},
        ...(plan.labelCollation === undefined || label === undefined
          ? {}
          : { label: { field: label, collation: plan.labelCollation } }),
      },
    });
  }
  return base.withChanges(changes);
}
