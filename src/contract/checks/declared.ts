/**
 * @module The checks of the lists and items a spec declares (`x-stockmock`) beyond the
 * interface's: the paging and name-filter checks the interface's lists get, and checks of their
 * own for each declared filter by its match kind, for what each level's view shows, and for the
 * single item against the list item. Every expectation comes from the declaration, read by the
 * checker (../declared.ts), and from the unfiltered walks.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { found, judgedSetting } from '../check.ts';
import {
  memberOf,
  viewFor,
  type Declared,
  type DeclaredFilter,
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
import { foldCase } from '../oracle/fold-case.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';
import { holderOf, type Credentials } from '../target-client.ts';
import {
  memberAt,
  idOf,
  idsNotIn,
  sample,
  sized,
  someIds,
  withQuery,
  type Item,
  type Id,
} from '../walk.ts';
import { nameChecksOf, walkFiltered } from './filters.ts';
import { paginationChecksOf } from './pagination.ts';
import { pagingChecksOf } from './paging-shapes.ts';
import { nestedChecksOf } from './nested.ts';
import { generatedDeclaredChecks } from './generated.ts';
import { LIMIT_PARAMETER, PAGE_PARAMETER } from '../../spec/pagination.ts';
import { sortChecksOf } from './sorting.ts';
import { challengeFinding } from './http-rules.ts';
import { unknownKey } from '../unknown-key.ts';

// ---- filters by match kind --------------------------------------------------------------------

/**
 * The first level with a token whose view shows a field, how to ask as it, and each item it
 * saw by key with the field's value; undefined when no such level was read.
 */
function fieldSeen(
  context: CheckContext,
  list: DeclaredList,
  field: string,
): { as: Credentials; keyed: { key: Id; value: unknown }[] } | undefined {
  const learned = context.learned.declared.get(list.collection.path);
  for (const [level, items] of learned?.byLevel ?? []) {
    const view = viewFor(list.views, level);
    const member = view === undefined ? undefined : memberOf(view, field);
    if (member === undefined) continue;
    return {
      as: level === 'none' ? 'none' : holderOf(level),
      keyed: items.flatMap((item) => {
        const key = idOf(list.collection, item);
        return key === undefined ? [] : [{ key, value: item[member] }];
      }),
    };
  }
  return undefined;
}

/**
 * Rule (stand-in): a declared `contains` folds case as the name filter does, with Unicode case
 * folding unless `nameMatch` says case-sensitive. Breaks it: a match in exact case, one that
 * folds ASCII only. A piece of a served text with letters, in the other case, so that the two
 * rules keep different items.
 */
function containsCase(list: DeclaredList, filter: DeclaredFilter): Check {
  const { path } = list.collection;
  return {
    id: `filters.${list.collection.name}.${filter.parameter}-case`,
    title: `${path}?${filter.parameter}=…: the stand-in's case rule (case-insensitive with Unicode case folding, unless it matches case)`,
    level: 'stand-in',
    source: sourceOf(
      path,
      `filters (${filter.parameter}: contains), as the name filter folds case`,
    ),
    needs: [],
    async run(context): Promise<Findings> {
      const seen = fieldSeen(context, list, filter.field);
      const keyed = (seen?.keyed ?? []).flatMap(({ key, value }) =>
        typeof value === 'string' ? [{ key, value }] : [],
      );
      const needle = casedPiece(keyed.map((entry) => entry.value));
      if (seen === undefined || needle === undefined) {
        return {
          failures: [],
          skipped: `no served ${filter.field} has letters to change the case of`,
        };
      }
      const folded = keyed.filter((e) => foldCase(e.value).includes(foldCase(needle)));
      const exact = keyed.filter((e) => e.value.includes(needle));
      const { as } = seen;
      const query = { [filter.parameter]: needle };
      const filtered = await walkFiltered(
        context,
        list.collection,
        query,
        folded.length,
        undefined,
        as,
      );
      if (filtered.failures.length > 0) return found(filtered.failures);
      const same = (want: readonly { key: Id }[]): boolean =>
        idsNotIn(
          filtered.got,
          want.map((e) => e.key),
        ).length === 0 &&
        idsNotIn(
          want.map((e) => e.key),
          filtered.got,
        ).length === 0;
      const rule = same(folded) ? 'case-insensitive' : same(exact) ? 'case-sensitive' : undefined;
      const want = context.standIn.settings.nameMatch;
      const expected = want === 'case-insensitive' ? folded : exact;
      return judgedSetting(
        context,
        'nameMatch',
        rule ?? {
          uncovered: `${filter.parameter} is neither exact case nor full Unicode case folding`,
        },
        `${filter.parameter} is ${rule ?? 'neither exact case nor case-folded'}`,
        () => ({
          message: `${filter.parameter}=${JSON.stringify(needle)} keeps other items than the stand-in's ${want} match`,
          request: filtered.request,
          expected: `ids ${someIds(expected.map((e) => e.key))}`,
          actual: `ids ${someIds(filtered.got)}`,
        }),
      );
    },
  };
}

/**
 * A piece of a served text whose case can change, in the other case (`ean` → `EAN`): around a
 * letter beyond ASCII where a served text has one (`afé` → `AFÉ`), since a match that folds
 * ASCII alone keeps the same items as the stand-in's for every ASCII piece.
 */
function casedPiece(values: readonly string[]): string | undefined {
  const changes = (text: string): boolean => text.toUpperCase() !== text.toLowerCase();
  const beyondAscii = values
    .flatMap((value) => value.match(/\p{L}{0,2}[^\p{ASCII}]\p{L}{0,2}/gu) ?? [])
    .find((piece) => (piece.match(/[^\p{ASCII}]/gu) ?? []).some(changes));
  const piece =
    beyondAscii ??
    values.flatMap((value) => value.match(/\p{L}{3}/u) ?? []).find((text) => changes(text));
  if (piece === undefined) return undefined;
  return piece === piece.toUpperCase() ? piece.toLowerCase() : piece.toUpperCase();
}

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
      const key = unknownKey(keys, item.keySchema.pattern);
      const as = learned?.holder ?? readers[0] ?? 'none';
      if (key !== undefined) {
        const exchange = await context.client.request({ path: itemPath(item, key), as });
        if (exchange.kind === 'no-response' || exchange.response.status !== 404) {
          failures.push(failureOf(exchange, 'A key that no listed item has is not a 404', '404'));
        }
      }
      failures.push(...(await otherCaseFailures(context, item, keys, as)));
      failures.push(...(await encodedKeyFailures(context, item, keys, as)));
      failures.push(...(await malformedKeyFailures(context, item, keys, as)));
      return found(failures.slice(0, 10));
    },
  };
}

/**
 * Rule: a key the key's schema refuses is a 4xx (`0`, `-7`, `abc`, `7.5`, `7abc`, `7e0` for an
 * integer from 1); an integer key written with leading zeros is the same item or a 4xx, never a
 * 404 (which says no such item exists). Breaks it: parseInt or Number reading `7.5` as 7, ids
 * compared as text, a 500.
 */
async function malformedKeyFailures(
  context: CheckContext,
  item: DeclaredItem,
  keys: readonly Id[],
  as: Credentials,
): Promise<Failure[]> {
  const key = keys.find((one) => typeof one === 'number') ?? keys[0];
  if (key === undefined) return [];
  const text = String(key);
  const refused = ['0', `-${text}`, 'abc', `${text}.5`, `${text}abc`, `${text}e0`].filter(
    (candidate) => judgeValue(item.keySchema, candidate) === 'invalid',
  );
  const failures: Failure[] = [];
  for (const bad of refused) {
    const exchange = await context.client.request({ path: itemPath(item, bad), as });
    const status = statusOf(exchange) ?? 0;
    if (status < 400 || status >= 500) {
      failures.push(failureOf(exchange, `The key ${JSON.stringify(bad)} is not refused`, '4xx'));
    }
  }
  if (typeof key !== 'number') return failures;
  const plain = await context.client.request({ path: itemPath(item, key), as });
  if (plain.kind === 'no-response' || plain.response.status !== 200) return failures;
  for (const spelled of [`0${text}`, `00${text}`]) {
    const exchange = await context.client.request({ path: itemPath(item, spelled), as });
    const status = statusOf(exchange) ?? 0;
    const same =
      status === 200 &&
      exchange.kind === 'response' &&
      isDeepStrictEqual(exchange.response.body, plain.response.body);
    if (same || (status >= 400 && status < 500 && status !== 404)) continue;
    failures.push(
      failureOf(
        exchange,
        `The key ${text} written as ${spelled} is neither that item nor refused as malformed (a 404 says no item ${text} exists)`,
        `200 as for ${itemPath(item, key)}, or a 4xx`,
      ),
    );
  }
  return failures;
}

/**
 * Rule: a key is matched as written. A listed text key in another case names no item: a 4xx
 * where the key's schema refuses it (a pattern), else a 404. Breaks it: a lookup that folds
 * case, so that two URLs name one item. A UUID is read in either case (RFC 9562 §4): in the
 * other case it names the same item, or none (a 404), and is never refused.
 */
async function otherCaseFailures(
  context: CheckContext,
  item: DeclaredItem,
  keys: readonly Id[],
  as: Credentials,
): Promise<Failure[]> {
  if (item.keySchema.format === 'uuid') return uuidCaseFailures(context, item, keys, as);
  const known = new Set(keys);
  const changed = keys
    .filter((key) => typeof key === 'string')
    .map((key) => (key === key.toUpperCase() ? key.toLowerCase() : key.toUpperCase()))
    .find((key) => !known.has(key));
  if (changed === undefined) return [];
  const refused = judgeValue(item.keySchema, changed) === 'invalid';
  const exchange = await context.client.request({ path: itemPath(item, changed), as });
  const status = statusOf(exchange) ?? 0;
  if (refused ? status >= 400 && status < 500 : status === 404) return [];
  return [
    failureOf(
      exchange,
      'A listed key in another case is answered: keys are matched as written',
      refused ? "a 4xx (the key parameter's schema refuses it)" : '404',
    ),
  ];
}

async function uuidCaseFailures(
  context: CheckContext,
  item: DeclaredItem,
  keys: readonly Id[],
  as: Credentials,
): Promise<Failure[]> {
  const key = keys.find((one) => typeof one === 'string' && one !== one.toUpperCase());
  if (key === undefined) return [];
  const plain = await context.client.request({ path: itemPath(item, key), as });
  const upper = await context.client.request({
    path: itemPath(item, String(key).toUpperCase()),
    as,
  });
  if (plain.kind === 'no-response' || plain.response.status !== 200) return [];
  const status = statusOf(upper);
  const same =
    status === 200 &&
    upper.kind === 'response' &&
    isDeepStrictEqual(upper.response.body, plain.response.body);
  if (same || status === 404) return [];
  return [
    failureOf(
      upper,
      'A listed UUID key in upper case is refused: a UUID is read in either case (RFC 9562 §4)',
      `the same item (200), or a 404`,
    ),
  ];
}

/**
 * Rule (RFC 3986 §2.1, §6.2.2.2): a key written with its octets percent-encoded names the same
 * item: `inv%5Fxm2eo9` is `inv_xm2eo9`. Breaks it: a key matched before it is decoded.
 */
async function encodedKeyFailures(
  context: CheckContext,
  item: DeclaredItem,
  keys: readonly Id[],
  as: Credentials,
): Promise<Failure[]> {
  const [key] = keys;
  if (key === undefined) return [];
  const text = String(key);
  const spelled = /[^A-Za-z0-9]/.test(text)
    ? text.replace(/[^A-Za-z0-9]/gu, everyOctet)
    : `${everyOctet(text.slice(0, 1))}${text.slice(1)}`;
  const plain = await context.client.request({ path: itemPath(item, key), as });
  const encoded = await context.client.request({
    path: item.path.replace(`{${item.parameter}}`, spelled),
    as,
  });
  if (plain.kind === 'no-response' || plain.response.status !== 200) return [];
  if (
    encoded.kind === 'response' &&
    encoded.response.status === 200 &&
    isDeepStrictEqual(encoded.response.body, plain.response.body)
  ) {
    return [];
  }
  return [
    failureOf(
      encoded,
      'A key with its octets percent-encoded does not name the same item (RFC 3986 §6.2.2.2)',
      `200, as for ${itemPath(item, key)}`,
    ),
  ];
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

// ---- tokens -----------------------------------------------------------------------------------

/**
 * A list that needs a token answers none, and a wrong one, with a 401 and a Bearer challenge:
 * never with data, whatever level it might guess.
 */
function tokenCheck(list: DeclaredList): Check {
  const { path } = list.collection;
  return {
    id: `http.${list.collection.name}.missing-token`,
    title: `${path}: no credential, or a wrong one, is a 401 challenging with the spec's scheme`,
    level: 'interface',
    source: 'the spec: security; RFC 6750 §3; RFC 9110 §11.6.1',
    needs: [],
    async run(context) {
      const failures: Failure[] = [];
      for (const as of ['none', 'wrong'] as const) {
        const exchange = await context.client.request({
          path: withQuery(list.collection.path, sized(list.collection, 1)),
          as,
        });
        if (
          exchange.kind === 'no-response' ||
          exchange.response.status !== 401 ||
          challengeFinding(exchange) !== undefined
        ) {
          const scheme = exchange.challenge;
          failures.push(
            failureOf(
              exchange,
              `${as === 'none' ? 'No credential' : 'A wrong credential'} is not refused`,
              scheme === undefined
                ? '401'
                : `401 with WWW-Authenticate: ${scheme.charAt(0).toUpperCase()}${scheme.slice(1)} …`,
            ),
          );
        }
      }
      return found(failures);
    },
  };
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
      const label = list.record.label;
      return [
        // A declared default order is judged by sort.PATH.default, not as id order.
        ...(byInterfacePages(list)
          ? paginationChecksOf(list.collection).filter(
              (check) => list.sort?.byDefault === undefined || !check.id.endsWith('.order-by-id'),
            )
          : []),
        ...pagingChecksOf(list),
        ...sortChecksOf(list),
        ...(list.collection.labelFilter === undefined ? [] : nameChecksOf(list.collection)),
        ...list.filters
          .filter((filter) => filter.match === 'contains' && filter.field !== label)
          .map((filter) => containsCase(list, filter)),
        viewsCheck(list),
        ...(list.open ? [] : [tokenCheck(list)]),
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
