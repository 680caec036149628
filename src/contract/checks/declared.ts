/**
 * @module The checks of the lists and items a spec declares (`x-stockmock`) beyond the
 * interface's: the stand-in's paging and case decisions the interface's lists get, what each
 * level's view shows, the single item against the list item, and health counts. Every
 * expectation comes from the declaration, read by the checker (../declared.ts), and from the
 * unfiltered walks.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { found } from '../check.ts';
import {
  memberOf,
  viewFor,
  type Declared,
  type DeclaredHealth,
  type DeclaredItem,
  type DeclaredList,
  type DeclaredRecord,
  type DeclaredView,
  type UnwalkedList,
  listOfItem,
} from '../declared.ts';
import { describeRequest, failureOf, statusOf } from '../describe-exchange.ts';
import { standInSpellingChecks } from './stand-in-spellings.ts';
import { everyOctet } from './text-values.ts';
import { guarded, sourceOf } from './declared-guard.ts';
import { readerName, readersOf, type LearnedList } from '../learn.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';
import type { Credentials, Exchange } from '../target-client.ts';
import { memberAt, idOf, sample, sized, withQuery, type Item, type Id } from '../walk.ts';
import { caseChecksOf } from './filters.ts';
import { paginationChecksOf } from './pagination.ts';
import { pagingChecksOf } from './paging-shapes.ts';
import { nestedChecksOf } from './nested.ts';
import { generatedDeclaredChecks } from './generated.ts';
import { LIMIT_PARAMETER, PAGE_PARAMETER } from '../../spec/pagination.ts';
import { sortChecksOf } from './sorting.ts';
import { unknownKey } from '../unknown-key.ts';

const NO_ITEMS: ReadonlyMap<string, readonly Item[]> = new Map();

// ---- views ------------------------------------------------------------------------------------

/**
 * The record fields a target shows: the declared ones, and those a `rest` view showed beyond its
 * members (a record's extra fields). A member outside a view that is one of these is a leak; any
 * other extra member (a link, a timestamp) is the target's to add.
 */
function recordFieldsSeen(
  record: DeclaredRecord,
  views: DeclaredList['views'],
  byLevel: ReadonlyMap<string, readonly Item[]>,
): Set<string> {
  const fields = new Set(record.fields);
  for (const [level, items] of byLevel) {
    const view = viewFor(views, level);
    if (view?.rest !== true) continue;
    for (const item of items) {
      for (const member of Object.keys(item)) if (!view.members.has(member)) fields.add(member);
    }
  }
  return fields;
}

/** What is wrong with one item as a level sees it through `view`, in words. */
function viewProblems(
  item: Item,
  view: DeclaredView,
  record: DeclaredRecord,
  fields: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  const shownFields = new Set(view.members.values());
  for (const member of Object.keys(item)) {
    if (view.members.has(member)) continue;
    const viaRest = view.rest && !view.omit.has(member) && !shownFields.has(member);
    if (!viaRest && fields.has(member)) problems.push(`shows ${member}, which its view does not`);
  }
  for (const [member, field] of view.members) {
    if (record.required.has(field) && !Object.hasOwn(item, member))
      problems.push(`lacks ${member}`);
  }
  if (view.rest) {
    for (const field of record.required) {
      if (!view.omit.has(field) && !shownFields.has(field) && !Object.hasOwn(item, field)) {
        problems.push(`lacks ${field}, which the rest of the record shows`);
      }
    }
  }
  return problems;
}

/** Failures for the items a level saw through a view, a few at most. */
function viewFailures(
  items: readonly Item[],
  view: DeclaredView,
  record: DeclaredRecord,
  fields: ReadonlySet<string>,
  request: string,
  level: string,
): Failure[] {
  return items.flatMap((item) => {
    const problems = viewProblems(item, view, record, fields);
    return problems.length === 0
      ? []
      : [
          {
            message: `The ${level} level ${problems.join(', ')}`,
            request,
            expected: `members ${[...view.members.keys()].join(', ')}${view.rest ? ', and the rest of the record' : ' only'}`,
            actual: JSON.stringify(item).slice(0, 300),
          },
        ];
  });
}

/**
 * Each level sees exactly what its view declares: no field of the record beyond it (a leak to
 * the wrong level), every member a record always has; and two levels that show the same field
 * of an item show the same value.
 */
function viewsCheck(list: DeclaredList): Check {
  const { path } = list.collection;
  return {
    id: `views.${list.collection.name}`,
    title: `${path}: each level sees the members its view declares, and no other field of the record`,
    level: 'interface',
    source: sourceOf(path, 'views'),
    needs: [],
    async run(context) {
      const byLevel = context.learned.declared.get(path)?.byLevel ?? NO_ITEMS;
      const fields = recordFieldsSeen(list.record, list.views, byLevel);
      const failures: Failure[] = [];
      const shown = new Map<string, Map<Id, unknown>>();
      for (const [level, items] of byLevel) {
        const view = viewFor(list.views, level);
        if (view === undefined) continue;
        const request = `GET ${withQuery(list.collection.path, sized(list.collection, list.collection.limits.max))} and its next pages (${level} token)`;
        failures.push(...viewFailures(items, view, list.record, fields, request, level));
        for (const item of items) {
          const key = idOf(list.collection, item);
          if (key === undefined) continue;
          for (const [member, field] of view.members) {
            if (!Object.hasOwn(item, member)) continue;
            const values = shown.get(field) ?? new Map<Id, unknown>();
            shown.set(field, values);
            if (values.has(key) && !isDeepStrictEqual(values.get(key), item[member])) {
              failures.push({
                message: `Item ${String(key)} shows another ${field} to the ${level} level than to another level`,
                request,
                expected: JSON.stringify(values.get(key)),
                actual: JSON.stringify(item[member]),
              });
            }
            values.set(key, item[member]);
          }
        }
      }
      // An optional field that a rest view would show and no item shows at any level: data
      // without it, or a view that drops it; nothing from outside tells which, so it is told.
      const unseen = [...list.record.fields].filter(
        (field) =>
          !list.record.required.has(field) &&
          [...byLevel].some(([level]) => viewFor(list.views, level)?.rest === true) &&
          [...byLevel].every(([level, items]) => {
            const view = viewFor(list.views, level);
            const member = view === undefined ? undefined : memberOf(view, field);
            return member === undefined || items.every((item) => !Object.hasOwn(item, member));
          }),
      );
      const note =
        unseen.length === 0
          ? ''
          : `; declared but shown by no item at any level: ${unseen.join(', ')}`;
      return found(failures.slice(0, 10), `levels ${[...byLevel.keys()].join(', ')}${note}`);
    },
  };
}

// ---- single items -----------------------------------------------------------------------------

/** The item path with a key in place of its parameter. */
function itemPath(item: DeclaredItem, key: number | string): string {
  return item.path.replace(`{${item.parameter}}`, encodeURIComponent(String(key)));
}

/** Whose rule a single-item check is, and where the list its keys come from was learned. */
export interface ItemSource {
  readonly head: Pick<Check, 'id' | 'level' | 'source'>;
  readonly learnedOf: (context: CheckContext) => LearnedList | undefined;
}

/**
 * An item answers each listed item by its key, as the list shows it (the members both views
 * show of the same field agree; the item's own view is judged as the list's is); a key that no
 * item has is a 404; a key its schema refuses is a 4xx; an integer key with leading zeros is
 * that item or a 4xx, never a 404.
 */
export function singleCheck(item: DeclaredItem, list: DeclaredList, from: ItemSource): Check {
  return {
    ...from.head,
    title: `${item.path}: each listed item by its key, as the list shows it; an unknown key is a 404, a malformed one a 4xx`,
    needs: [],
    async run(context) {
      const learned = from.learnedOf(context);
      const fields = recordFieldsSeen(list.record, list.views, learned?.byLevel ?? NO_ITEMS);
      const failures: Failure[] = [];
      const readers = readersOf(item, context.holders);
      for (const reader of readers) {
        const level = readerName(reader);
        const listed = learned?.byLevel.get(level);
        const itemView = viewFor(item.views, level);
        const listView = viewFor(list.views, level);
        if (listed === undefined || itemView === undefined || listView === undefined) continue;
        for (const entry of sample(listed, 8)) {
          const key = idOf(list.collection, entry);
          if (key === undefined) continue;
          failures.push(
            ...(await compareItem(context, { item, key, reader, entry, fields, list })),
          );
        }
      }
      const keys = (learned?.items ?? []).flatMap((entry) => idOf(list.collection, entry) ?? []);
      const as = learned?.holder ?? readers[0] ?? 'none';
      failures.push(...(await keyFailures(context, item, keys, as)));
      return found(failures.slice(0, 10));
    },
  };
}

/** What a key names: the listed item it spells, no item (a 404), or none, refused (another 4xx). */
type KeyOutcome = 'same' | 'none' | 'refused';

interface KeySpelling {
  /** The key as written in the path. */
  readonly written: string;
  /** The listed key it spells, where the answer may be that item. */
  readonly of?: Id;
  readonly allowed: readonly KeyOutcome[];
  readonly message: string;
  readonly expected: string;
}

/**
 * Keys whose answer a correct service gives, each from a listed key. Rules: a key no item has
 * is a 404; one the key's schema refuses (`0`, `-7`, `abc`, `7.5`, `7abc`, `7e0`) is a 4xx; an
 * integer with leading zeros is that item or a 4xx, never a 404 (which says no such item); a
 * text key is matched as written: in another case it names no item (a 4xx where its schema
 * refuses it), but a UUID is read in either case (RFC 9562 §4); a key with its octets
 * percent-encoded is the same key (RFC 3986 §6.2.2.2). What breaks them: parseInt reading `7.5`
 * as 7, ids compared as text, a lookup that folds case, a key matched before it is decoded.
 */
function keySpellings(item: DeclaredItem, keys: readonly Id[]): KeySpelling[] {
  const spellings: KeySpelling[] = [];
  const unknown = unknownKey(keys, item.keySchema.pattern);
  if (unknown !== undefined) {
    const message = 'A key that no listed item has is not a 404';
    spellings.push({ written: encoded(unknown), allowed: ['none'], message, expected: '404' });
  }
  const number = keys.find((one) => typeof one === 'number');
  const text = String(number ?? keys[0] ?? '');
  if (text === '') return spellings;
  for (const bad of ['0', `-${text}`, 'abc', `${text}.5`, `${text}abc`, `${text}e0`]) {
    if (judgeValue(item.keySchema, bad) !== 'invalid') continue;
    const message = `The key ${JSON.stringify(bad)} is not refused`;
    spellings.push({
      written: encoded(bad),
      allowed: ['none', 'refused'],
      message,
      expected: '4xx',
    });
  }
  if (number !== undefined) {
    for (const zeros of [`0${text}`, `00${text}`]) {
      spellings.push({
        written: zeros,
        of: number,
        allowed: ['same', 'refused'],
        message: `The key ${text} written as ${zeros} is neither that item nor refused as malformed (a 404 says no item ${text} exists)`,
        expected: `200 as for the key ${text}, or a 4xx`,
      });
    }
  }
  const known = new Set(keys);
  const texts = keys.filter((key) => typeof key === 'string');
  const uuid = item.keySchema.format === 'uuid';
  const cased = uuid
    ? texts.find((key) => key !== key.toUpperCase())
    : texts.find((key) => !known.has(inOtherCase(key)));
  if (cased !== undefined) {
    const other = uuid ? cased.toUpperCase() : inOtherCase(cased);
    const refused = judgeValue(item.keySchema, other) === 'invalid';
    const written = encoded(other);
    spellings.push(
      uuid
        ? {
            written,
            of: cased,
            allowed: ['same', 'none'],
            message:
              'A listed UUID key in upper case is refused: a UUID is read in either case (RFC 9562 §4)',
            expected: 'the same item (200), or a 404',
          }
        : {
            written,
            allowed: refused ? ['none', 'refused'] : ['none'],
            message: 'A listed key in another case is answered: keys are matched as written',
            expected: refused ? "a 4xx (the key parameter's schema refuses it)" : '404',
          },
    );
  }
  const [first] = keys;
  if (first !== undefined) {
    const plain = String(first);
    spellings.push({
      written: /[^A-Za-z0-9]/.test(plain)
        ? plain.replace(/[^A-Za-z0-9]/gu, everyOctet)
        : `${everyOctet(plain.slice(0, 1))}${plain.slice(1)}`,
      of: first,
      allowed: ['same'],
      message:
        'A key with its octets percent-encoded does not name the same item (RFC 3986 §6.2.2.2)',
      expected: `200, as for the key ${plain}`,
    });
  }
  return spellings;
}

const encoded = (key: Id) => encodeURIComponent(String(key));

const inOtherCase = (key: string) =>
  key === key.toUpperCase() ? key.toLowerCase() : key.toUpperCase();

/** Each key spelling answered otherwise than a correct service may (keySpellings). */
async function keyFailures(
  context: CheckContext,
  item: DeclaredItem,
  keys: readonly Id[],
  as: Credentials,
): Promise<Failure[]> {
  const failures: Failure[] = [];
  const ask = (written: string) =>
    context.client.request({ path: item.path.replace(`{${item.parameter}}`, written), as });
  // Each listed key is asked as written once, whatever number of its spellings compare with it.
  const plains = new Map<Id, Promise<Exchange>>();
  for (const spelling of keySpellings(item, keys)) {
    const exchange = await ask(spelling.written);
    const status = statusOf(exchange) ?? 0;
    let outcome: KeyOutcome | undefined =
      status === 404 ? 'none' : status >= 400 && status < 500 ? 'refused' : undefined;
    if (spelling.of !== undefined) {
      const { of } = spelling;
      let asked = plains.get(of);
      if (asked === undefined) {
        asked = ask(encoded(of));
        plains.set(of, asked);
      }
      const plain = await asked;
      // A listed key not answered is compareItem's to report.
      if (plain.kind !== 'response' || plain.response.status !== 200) continue;
      const body = exchange.kind === 'response' ? exchange.response.body : undefined;
      if (status === 200 && isDeepStrictEqual(body, plain.response.body)) outcome = 'same';
    }
    if (outcome === undefined || !spelling.allowed.includes(outcome)) {
      failures.push(failureOf(exchange, spelling.message, spelling.expected));
    }
  }
  return failures;
}

async function compareItem(
  context: CheckContext,
  at: {
    readonly item: DeclaredItem;
    readonly list: DeclaredList;
    readonly key: Id;
    readonly reader: Credentials;
    readonly entry: Item;
    readonly fields: ReadonlySet<string>;
  },
): Promise<Failure[]> {
  const level = readerName(at.reader);
  const itemView = viewFor(at.item.views, level);
  const listView = viewFor(at.list.views, level);
  if (itemView === undefined || listView === undefined) return [];
  const exchange = await context.client.request({
    path: itemPath(at.item, at.key),
    as: at.reader,
  });
  if (exchange.kind === 'no-response' || exchange.response.status !== 200) {
    return [failureOf(exchange, 'A listed item cannot be read by its key', '200')];
  }
  const { envelope } = at.item;
  const data =
    envelope === 'none' ? exchange.response.body : memberAt(exchange.response.body, envelope);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const where = envelope === 'none' ? 'the answer' : `\`${envelope.join('.')}\``;
    return [failureOf(exchange, `The answer holds no item in ${where}`, 'the item, as an object')];
  }
  const shown = data as Item;
  const request = describeRequest(exchange);
  const failures = viewFailures([shown], itemView, at.item.record, at.fields, request, level);
  // What `rest` shows beyond the members is the same record's too: the same values.
  if (itemView.rest && listView.rest) {
    const rest = new Set([...Object.keys(at.entry), ...Object.keys(shown)]);
    for (const member of rest) {
      if (listView.members.has(member) || itemView.members.has(member)) continue;
      const value = at.entry[member];
      if (!isDeepStrictEqual(shown[member], value)) {
        failures.push(
          failureOf(
            exchange,
            `Item ${String(at.key)} shows another ${member} than the list does (${level} token)`,
            JSON.stringify({ [member]: value }),
          ),
        );
      }
    }
  }
  for (const [member, field] of itemView.members) {
    const listed = memberOf(listView, field);
    if (listed === undefined || !Object.hasOwn(at.entry, listed)) continue;
    if (!isDeepStrictEqual(shown[member], at.entry[listed])) {
      failures.push(
        failureOf(
          exchange,
          `Item ${String(at.key)} shows another ${field} than the list does (${level} token)`,
          JSON.stringify({ [member]: at.entry[listed] }),
        ),
      );
    }
  }
  return failures;
}

// ---- health -----------------------------------------------------------------------------------

/**
 * Rule: a count a health operation declares is the number of the collection's records (the
 * spec's `x-stockmock: {health}`). What breaks it: the first page counted, one level's view, a
 * count kept from an earlier load. Judged against the unfiltered walks. The shipped spec's
 * /healthz is PRODUCT.md's, not the interface's: there the check is the stand-in's.
 */
function healthCheck(health: DeclaredHealth, declared: Declared, interfaceServed: boolean): Check {
  return {
    id: `health.${health.path}`,
    title: `${health.path}: each count it declares is the number of records of its collection`,
    ...(interfaceServed
      ? { level: 'stand-in' as const, source: 'PRODUCT.md: Surface (GET /healthz)' }
      : { level: 'interface' as const, source: sourceOf(health.path, 'health') }),
    needs: [],
    async run(context): Promise<Findings> {
      const countOf = (collection: string): number | undefined => {
        if (declared.interfaceRecords.includes(collection) && interfaceServed) {
          return context.learned.products.length;
        }
        const list = declared.lists.find((candidate) => candidate.record.name === collection);
        const learned = list && context.learned.declared.get(list.collection.path);
        return learned?.holder === undefined ? undefined : learned.items.length;
      };
      const known = health.counts.flatMap(([member, collection]) => {
        const count = countOf(collection);
        return count === undefined ? [] : [[member, count] as const];
      });
      if (known.length === 0) {
        return { failures: [], skipped: 'no collection it counts was read whole' };
      }
      const [holder] = context.holders;
      const as: Credentials = health.open || holder === undefined ? 'none' : holder;
      const exchange = await context.client.request({ path: health.path, as });
      const body = exchange.kind === 'response' ? exchange.response.body : undefined;
      const failures = known.flatMap(([member, count]) =>
        statusOf(exchange) === 200 &&
        (body as Record<string, unknown> | undefined)?.[member] === count
          ? []
          : [
              failureOf(
                exchange,
                `${member} is not the number of records`,
                `200 with ${member}: ${String(count)}`,
              ),
            ],
      );
      return found(failures);
    },
  };
}

/**
 * Whether a list is paged as the interface's are, by `page` and `limit` from 1, so that the
 * interface's pagination checks (links, last pages, past the end) judge it.
 */
function byInterfacePages(list: DeclaredList): boolean {
  const { paging } = list.collection;
  return (
    paging.kind === 'links' ||
    (paging.kind === 'number' &&
      paging.page === PAGE_PARAMETER &&
      paging.size === LIMIT_PARAMETER &&
      paging.first === 1)
  );
}

// ---- all of them ------------------------------------------------------------------------------

/** Every check of every list and item the spec declares beyond the interface's. */
export function declaredChecks(declared: Declared, interfaceServed: boolean): Check[] {
  return [
    ...declared.health.map((health) => healthCheck(health, declared, interfaceServed)),
    ...declared.lists.flatMap((list) => {
      return [
        // A declared default order is judged by sort.PATH.default, not as id order.
        ...(byInterfacePages(list)
          ? paginationChecksOf(list.collection).filter(
              (check) => list.sort?.byDefault === undefined || !check.id.endsWith('.order-by-id'),
            )
          : []),
        ...pagingChecksOf(list),
        ...sortChecksOf(list),
        ...caseChecksOf(list),
        viewsCheck(list),
      ].map((check) => guarded(check, list));
    }),
    ...declared.items.flatMap((item) => {
      // A nested item's own list first: the same records under another parent are not its.
      const list = listOfItem(declared, item);
      if (list === undefined) return [];
      const head = {
        id: `single.${item.template}`,
        level: 'interface' as const,
        source: `${sourceOf(item.path, 'item')}; RFC 9110 §15.5.5`,
      };
      const learnedOf = (context: CheckContext) =>
        context.learned.declared.get(list.collection.path);
      return [guarded(singleCheck(item, list, { head, learnedOf }), list)];
    }),
    ...nestedChecksOf(declared.nested),
    ...generatedDeclaredChecks(declared.lists),
    ...standInSpellingChecks(
      declared.lists,
      declared.items.flatMap((item) => {
        const list = listOfItem(declared, item);
        return list === undefined ? [] : [[item, list] as const];
      }),
    ),
    ...declared.unwalked.map(unwalkedCheck),
  ];
}

/**
 * A nested list or item whose parents' keys could not be learned: said, and skipped, rather than
 * judged by requests with made-up parents.
 */
function unwalkedCheck(list: UnwalkedList): Check {
  return {
    id: `shape.${list.path}`,
    title: `${list.path} ${list.shape}`,
    level: 'interface',
    source: sourceOf(list.path, 'shape'),
    needs: [],
    run: () =>
      Promise.resolve({
        failures: [],
        skipped: `${list.path} ${list.shape}: it is not checked`,
      }),
  };
}
