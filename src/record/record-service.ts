/**
 * @module A running service's records, read through its declared lists and items at every level
 * with a token, and assembled into the collections a fixture holds.
 */
import { describeRequest } from '../contract/describe-exchange.ts';
import {
  holderOf,
  levelName,
  type Credentials,
  type Exchange,
  type TargetClient,
} from '../contract/target-client.ts';
import {
  memberAt,
  walkPages,
  type ListEnvelope as WalkEnvelope,
  type ListPage,
} from '../contract/walk.ts';
import type { ItemEnvelope, ListEnvelope } from '../resources/envelope.ts';
import { readView } from './read-view.ts';
import type { CollectionRead, ItemRead, ListRead, Reader, RecordingPlan } from './record-plan.ts';
import {
  createRecordedCollection,
  type Disagreement,
  type Key,
  type RecordedCollection,
} from './recorded-collection.ts';

/** Something that makes the recording unlike the service: the fixture is not written for it. */
export interface RecordProblem {
  readonly message: string;
  /** The request it came from, less the token: `GET http://…/v1/stock?page=3 (quantity token)`. */
  readonly request?: string;
}

export interface Recording {
  readonly collections: readonly RecordedCollection[];
  /** The first problems met, and how many there were in all. */
  readonly problems: readonly RecordProblem[];
  readonly problemCount: number;
  /** What was left out on purpose: a level without a token, a walk stopped at `maxItems`. */
  readonly warnings: readonly string[];
  /** Requests made. */
  readonly requests: number;
}

/** A token the service refused (401 or 403), or a service that does not answer: nothing more is asked. */
export class RecordStopped extends Error {}

export interface RecordOptions {
  readonly plan: RecordingPlan;
  /** Records in all, across collections, after which the walk stops with a warning. */
  readonly maxItems: number;
  readonly onProgress?: (progress: { pages: number; items: number; records: number }) => void;
}

/** At most this many problems are kept: the first say what is wrong. */
const MAX_PROBLEMS = 100;
/** Item reads asked at once: the client's own concurrency bounds what is in flight. */
const ITEM_BATCH = 256;

/**
 * Reads every list of the plan at each of its levels, then the items whose views show more, and
 * assembles each key's record. Throws RecordStopped where a token is refused.
 */
export async function recordService(
  client: TargetClient,
  options: RecordOptions,
): Promise<Recording> {
  const problems: RecordProblem[] = [];
  const warnings = [...options.plan.warnings];
  const progress = { pages: 0, items: 0, records: 0 };
  let requests = 0;
  let refused: string | undefined;
  const watched = async (request: Parameters<TargetClient['request']>[0]) => {
    const exchange = await client.request(request);
    requests += 1;
    if (requests === 1 && exchange.kind === 'no-response') {
      refused ??= `record: ${exchange.url}: no answer: ${exchange.reason}`;
    }
    const status = exchange.kind === 'response' ? exchange.response.status : undefined;
    if ((status === 401 || status === 403) && request.as !== 'none' && request.as !== 'wrong') {
      refused ??= `record: the service answered ${String(status)} to the ${levelName(request.as)} token at ${exchange.url}: check the token and its level`;
    }
    return exchange;
  };
  const watchedClient: TargetClient = { ...client, request: watched };
  let problemCount = 0;
  const problem = (message: string, request?: string) => {
    problemCount += 1;
    if (problems.length < MAX_PROBLEMS) {
      problems.push({ message, ...(request === undefined ? {} : { request }) });
    }
  };
  const collections: RecordedCollection[] = [];
  const stop: { at?: string } = {};
  // Read through a call: the walk's callback sets it, which narrowing cannot see.
  const stopped = (): boolean => stop.at !== undefined;
  for (const read of options.plan.collections) {
    const recorded = createRecordedCollection(read.collection);
    collections.push(recorded);
    for (const list of read.lists) {
      const firstKeys = new Set<Key>();
      for (const [index, reader] of list.readers.entries()) {
        if (stopped()) break;
        const tally: WalkTally = { seen: new Set(), repeated: [], keyless: [] };
        const walked = await walkPages(
          watchedClient,
          list.path,
          credentialsOf(reader),
          // An honest list gives each page but its last a record not seen in the walk, so a
          // walk longer than this is a service whose links never end (empty or repeated pages).
          { envelope: walkEnvelope(list.envelope), maxPages: options.maxItems + 1 },
          (page) => {
            progress.pages += 1;
            progress.items += page.data.length;
            const full = takePage(page, reader, recorded, tally, problem, () => {
              if (progress.records >= options.maxItems) return false;
              progress.records += 1;
              return true;
            });
            options.onProgress?.(progress);
            if (full) stop.at = page.exchange.url;
            return full ? 'stop' : undefined;
          },
        );
        if (refused !== undefined) throw new RecordStopped(refused);
        for (const failure of walked.failures) problem(failure.message, failure.request);
        if (!walked.complete && !stopped()) {
          problem(`${list.operation} was not walked to its end: it has more pages than records`);
        }
        reportTally(tally, reader, recorded.declaration, problem);
        if (index === 0) for (const key of tally.seen) firstKeys.add(key);
        else if (!stopped()) compareWalks(list, reader, firstKeys, tally.seen, problem);
      }
    }
    for (const item of read.items) {
      await readItems(watchedClient, read, item, recorded, problem, () => {
        progress.items += 1;
        if (progress.items % 100 === 0) options.onProgress?.(progress);
      });
      if (refused !== undefined) throw new RecordStopped(refused);
    }
    if (stopped()) break;
  }
  if (stop.at !== undefined) {
    warnings.push(
      `stopped at --max-items ${String(options.maxItems)}: the last page read was ${stop.at}; the records after it are not recorded`,
    );
  }
  return { collections, problems, problemCount, warnings, requests };
}

/** The credentials a reader sends: its level's token, or none. */
function credentialsOf(reader: Reader): Credentials {
  return reader.level === undefined ? 'none' : holderOf(reader.level);
}

/** The walk's reading of a declared list envelope. */
function walkEnvelope(envelope: ListEnvelope): WalkEnvelope {
  if (envelope.kind === 'none') return { kind: 'none' };
  const parts = new Map(envelope.parts);
  const { items = ['data'], links, total, page, limit, pages } = Object.fromEntries(parts);
  return {
    kind: 'object',
    items,
    ...(links === undefined ? {} : { links }),
    ...(total === undefined ? {} : { total }),
    ...(page === undefined ? {} : { page }),
    ...(limit === undefined ? {} : { limit }),
    ...(pages === undefined ? {} : { pages }),
  };
}

type ProblemSink = (message: string, request?: string) => void;

/** What one walk of a list met: its keys, those met again, and the items without one. */
interface WalkTally {
  readonly seen: Set<Key>;
  /** Each key met a second time, with the request of the page it came again on. */
  readonly repeated: { readonly key: Key; readonly request: string }[];
  /** The request of each page with an item that shows no key. */
  readonly keyless: string[];
}

/**
 * Adds a page's items to the collection; true where `room` says no more records fit. A key met
 * twice in one walk, or an item without one, is tallied: the list moved while it was walked.
 */
function takePage(
  page: ListPage,
  reader: Reader,
  recorded: RecordedCollection,
  tally: WalkTally,
  problem: ProblemSink,
  room: () => boolean,
): boolean {
  const request = describeRequest(page.exchange);
  const { declaration } = recorded;
  for (const item of page.data) {
    const fields = readView(item, reader.view, declaration);
    const key = recorded.keyOf(fields);
    if (key === undefined) {
      tally.keyless.push(request);
      continue;
    }
    if (tally.seen.has(key)) {
      tally.repeated.push({ key, request });
      continue;
    }
    tally.seen.add(key);
    if (!recorded.has(key) && !room()) return true;
    report(recorded.add(key, fields), problem, request);
  }
  return false;
}

/** A line for the keys a walk met twice, and one for its items without a key: not one each. */
function reportTally(
  tally: WalkTally,
  reader: Reader,
  declaration: RecordedCollection['declaration'],
  problem: ProblemSink,
): void {
  const member =
    reader.view.fields.find(([, field]) => field === declaration.key)?.[0] ?? declaration.key;
  const [repeated] = tally.repeated;
  if (repeated !== undefined) {
    const keys = [...new Set(tally.repeated.map(({ key }) => String(key)))];
    const shown = `${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}`;
    problem(
      `${member} ${shown} came again in one walk of the list (${String(tally.repeated.length)} ${tally.repeated.length === 1 ? 'time' : 'times'} in all): it changed while it was read, or its pages overlap`,
      repeated.request,
    );
  }
  const [keyless] = tally.keyless;
  if (keyless !== undefined) {
    problem(
      `${String(tally.keyless.length)} items have no ${member} of the key's type (${declaration.keyType}), so they cannot be recorded`,
      keyless,
    );
  }
}

function report(
  disagreement: Disagreement | undefined,
  problem: ProblemSink,
  request: string,
): void {
  if (disagreement === undefined) return;
  const { key, field, kept, other } = disagreement;
  problem(
    `${field} of ${String(key)} is ${JSON.stringify(other)} here but ${JSON.stringify(kept)} in an earlier read: a record must read alike at every level and in every list`,
    request,
  );
}

/** Keys that one level's walk of a list met and another's did not. */
function compareWalks(
  list: ListRead,
  reader: Reader,
  first: ReadonlySet<Key>,
  seen: ReadonlySet<Key>,
  problem: ProblemSink,
): void {
  const missing = [...first].filter((key) => !seen.has(key));
  const extra = [...seen].filter((key) => !first.has(key));
  const level = reader.level ?? 'no token';
  if (missing.length > 0) {
    problem(
      `${list.operation} at the level ${level} lacks ${String(missing.length)} records the fullest level listed (first: ${missing.slice(0, 5).join(', ')})`,
    );
  }
  if (extra.length > 0) {
    problem(
      `${list.operation} at the level ${level} lists ${String(extra.length)} records the fullest level did not (first: ${extra.slice(0, 5).join(', ')})`,
    );
  }
}

/** Reads each recorded key through an item operation, at the levels whose view shows more. */
async function readItems(
  client: TargetClient,
  read: CollectionRead,
  item: ItemRead,
  recorded: RecordedCollection,
  problem: ProblemSink,
  onItem: () => void,
): Promise<void> {
  const keys = [...recorded.keys()];
  for (const reader of item.readers) {
    for (let start = 0; start < keys.length; start += ITEM_BATCH) {
      const batch = keys.slice(start, start + ITEM_BATCH);
      await Promise.all(
        batch.map(async (key) => {
          const path = item.path.replace(`{${item.parameter}}`, encodeURIComponent(String(key)));
          const exchange = await client.request({ path, as: credentialsOf(reader) });
          onItem();
          takeItem(exchange, item, reader, read, recorded, key, problem);
        }),
      );
    }
  }
}

function takeItem(
  exchange: Exchange,
  item: ItemRead,
  reader: Reader,
  read: CollectionRead,
  recorded: RecordedCollection,
  key: Key,
  problem: ProblemSink,
): void {
  const request = describeRequest(exchange);
  if (exchange.kind === 'no-response') {
    problem(`no answer: ${exchange.reason}`, request);
    return;
  }
  const { status, body } = exchange.response;
  if (status !== 200) {
    problem(
      `${item.operation} answered ${String(status)} for a record its list named: it changed while it was read`,
      request,
    );
    return;
  }
  const record = itemOf(body, item.envelope);
  if (record === undefined) {
    problem(
      `${item.operation} answered no record object${item.envelope.kind === 'object' ? ` at ${item.envelope.path.join('.')}` : ''}`,
      request,
    );
    return;
  }
  const fields = readView(record, reader.view, read.collection);
  const shown = recorded.keyOf(fields);
  if (shown !== key) {
    problem(
      `${item.operation} for ${String(key)} answered the record of ${String(shown)}`,
      request,
    );
    return;
  }
  report(recorded.add(key, fields), problem, request);
}

function itemOf(
  body: unknown,
  envelope: ItemEnvelope,
): Readonly<Record<string, unknown>> | undefined {
  const record = envelope.kind === 'none' ? body : memberAt(body, envelope.path);
  return typeof record === 'object' && record !== null && !Array.isArray(record)
    ? (record as Record<string, unknown>)
    : undefined;
}
