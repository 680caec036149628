/** @module Each filter keeps exactly the matching items: judged against the unfiltered walk. */
import type { Check, CheckContext, Failure, Findings, Level } from '../check.ts';
import { found, judgedSetting } from '../check.ts';
import { describeRequest } from '../describe-exchange.ts';
import { foldCase, foldLoosely } from '../oracle/fold-case.ts';
import {
  COLLECTIONS,
  duplicateFailures,
  idOf,
  idsNotIn,
  idsOf,
  pagesOf,
  sized,
  someIds,
  STOCK,
  withQuery,
  type Collection,
  type Item,
  type Id,
} from '../walk.ts';
import { labelsOf, learnedItems, readerOf } from './pagination.ts';
import { unknownKey } from '../unknown-key.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';

type Query = Readonly<Record<string, string | number | readonly string[]>>;

/** Characters that regular expressions, SQL LIKE or globs treat as special: each must be literal. */
const SPECIAL_NEEDLES = ['%', '_', '*', '?', '.', '(', '[', '\\', '^', '$', '+', '|', '.*', '%a'];

/**
 * The interface gives /v1/stock its filters, and a spec its declared lists'; /v1/products has
 * them by PRODUCT.md's decision.
 */
function filterLevel(collection: Collection, source: string): { level: Level; source: string } {
  if (collection.origin === 'declared') {
    return { level: 'interface', source: `the spec: ${collection.path}, x-stockmock filters` };
  }
  return collection === STOCK
    ? { level: 'interface', source }
    : { level: 'stand-in', source: 'PRODUCT.md: /v1/products payload (same filters)' };
}

/**
 * Names come from /v1/products (PRODUCT.md's records), a declared list's from its label; a
 * service without them cannot be judged.
 */
function noNames(collection: Collection): Findings {
  return {
    failures: [],
    skipped:
      collection.origin === 'declared'
        ? 'no level with a token sees the label that the name filter searches'
        : 'the product records give no `name` to judge the name filter with',
  };
}

/** What the name filter searches, as a title says it. */
function labelOf(collection: Collection): string {
  return collection.origin === 'declared' ? 'label' : 'name';
}

/** The parameter of the name filter: `name`, or the one a declared list gives its label. */
function nameParameter(collection: Collection): string {
  return collection.labelFilter ?? 'name';
}

/**
 * Learned items with their id and name (a stock item's name comes from the product list);
 * `labelled` is false for an item without one (a declared label is an optional field).
 */
function entries(context: CheckContext, collection: Collection) {
  const labels = labelsOf(context, collection);
  return learnedItems(context, collection).flatMap((item) => {
    const id = idOf(collection, item);
    if (id === undefined) return [];
    return [{ item, id, name: labels.get(id) ?? '', labelled: labels.has(id) }];
  });
}

export interface Filtered {
  readonly got: readonly (Id | undefined)[];
  readonly request: string;
  readonly failures: readonly Failure[];
}

/** Walks a filtered list at its largest page size, stopping once it holds more than `maxItems`. */
export async function walkFiltered(
  context: CheckContext,
  collection: Collection,
  query: Query,
  maxItems: number,
  limit = collection.limits.max,
  as = readerOf(context, collection),
): Promise<Filtered> {
  const path = withQuery(collection.path, { ...query, ...sized(collection, limit) });
  const walked = await context.walk(path, as, { maxItems, ...pagesOf(collection) });
  const request = describeRequest({ method: 'GET', url: path, as }).replace(
    ' (',
    ' and its next links (',
  );
  return {
    got: idsOf(collection, walked.items),
    request,
    failures: [...walked.failures, ...duplicateFailures(collection, walked, request)],
  };
}

/** A page size that spreads `count` items over about three pages, within the list's maximum. */
export function smallPage(count: number, collection: Collection): number {
  return Math.min(collection.limits.max, Math.max(1, Math.ceil(count / 3)));
}

/** Failures when a filtered walk does not hold exactly `expected`. */
export function exactly(query: Query, filtered: Filtered, expected: readonly Id[]): Failure[] {
  const extra = idsNotIn(filtered.got, expected);
  const missing = idsNotIn(expected, filtered.got);
  if (filtered.failures.length > 0 || (extra.length === 0 && missing.length === 0)) {
    return [...filtered.failures];
  }
  return [
    {
      message: `The filter ${JSON.stringify(query)} does not keep exactly the matching items`,
      request: filtered.request,
      expected: `${String(expected.length)} items: ids ${someIds(expected, 8)}`,
      actual: `${String(filtered.got.length)} items; not matching: ${someIds(extra)}; missing: ${someIds(missing)}`,
    },
  ];
}

async function compareFiltered(
  context: CheckContext,
  collection: Collection,
  query: Query,
  keep: (item: Item, id: Id, name: string) => boolean,
  /** Also a few items a page: a filter applied page by page, or lost by the links, shows then. */
  paged = false,
): Promise<Failure[]> {
  const expected = entries(context, collection)
    .filter((entry) => keep(entry.item, entry.id, entry.name))
    .map((entry) => entry.id);
  const filtered = await walkFiltered(context, collection, query, expected.length);
  const failures = exactly(query, filtered, expected);
  if (!paged || expected.length < 2 || failures.length > 0) return failures;
  const perPage = smallPage(expected.length, collection);
  const small = await walkFiltered(context, collection, query, expected.length, perPage);
  return exactly(query, small, expected);
}

/**
 * Needles: from the served names, a word in another case, a middle piece, a non-ASCII letter in
 * another case, each rare character; and the characters special to regexes, LIKE and globs.
 * Name-derived needles that match the fewest names first, so that a large catalogue stays fast.
 */
export function pickNeedles(names: readonly string[]): string[] {
  const fromNames = new Set<string>();
  for (const name of names.slice(0, 40)) {
    const word = name.split(/\s+/).find((part) => part.length >= 3);
    if (word !== undefined) fromNames.add(word.toUpperCase());
    if (name.length >= 5) fromNames.add(name.slice(1, 4).toLowerCase());
  }
  // Words with letters beyond ASCII, in the other case: `STRASSE` for `Straße`, `élan` for `ÉLAN`.
  const unicode = new Set<string>();
  const rare = new Set<string>();
  for (const name of names) {
    for (const word of name.split(/\s+/)) {
      if (unicode.size >= 8 || !/[^\p{ASCII}]/u.test(word) || !/\p{L}/u.test(word)) continue;
      const swapped = word === word.toUpperCase() ? word.toLowerCase() : word.toUpperCase();
      if (swapped !== word) unicode.add(swapped);
    }
    for (const char of name) {
      // A combining mark alone is no needle: whether it matches depends on normalization.
      if (rare.size < 12 && /[^\p{L}\p{M}\p{N}\s]/u.test(char)) rare.add(char);
    }
  }
  const loose = names.map(foldLoosely);
  // Whole names without their accents (`Cafe table` of `Café table`): kept by accent folding,
  // which Unicode case folding does not do. Only where no name holds it in any normal form, so
  // that whether it matches never depends on normalization.
  const forms = names.flatMap((name) =>
    [name, name.normalize('NFC'), name.normalize('NFD')].map(foldCase),
  );
  const bare = names
    .map((name) => name.normalize('NFD').replace(/\p{M}/gu, ''))
    .filter((text) => !forms.some((form) => form.includes(foldCase(text))))
    .slice(0, 4);
  const counts = new Map(
    [...fromNames].map((needle) => {
      const folded = foldLoosely(needle);
      return [needle, loose.filter((name) => name.includes(folded)).length] as const;
    }),
  );
  const selective = [...fromNames]
    .sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0))
    .slice(0, 6);
  return [...new Set([...selective, ...unicode, ...bare, ...rare, ...SPECIAL_NEEDLES])];
}

/**
 * Needles at the edges of "a substring match with wildcards on both sides" (the interface),
 * each chosen so that a wrong reading keeps a name the right one does not:
 * - the empty needle (every name holds it);
 * - a word with the space before it and one with the space after it, kept as written;
 * - a space before the end of a longer word (` chair` of `armchair`) and after the start of
 *   one (`dini ` of `dining`): trimmed, they would match inside the word;
 * - two words of one name that are apart in it (`Café Table` of `Café Side Table`): a space
 *   read as "any run of characters" would match;
 * - an id's digits that no name holds (a name filter matches names, not ids).
 */
export function edgeNeedles(names: readonly string[], ids: readonly Id[]): string[] {
  const needles = new Set<string>(['']);
  for (const name of names.slice(0, 40)) {
    const words = name.split(' ');
    const [first, second] = words;
    if (first !== undefined && second !== undefined && first.length >= 2 && second.length >= 2) {
      needles.add(` ${second}`);
      needles.add(`${first} `);
      if (needles.size >= 5) break;
    }
  }
  const holds = (needle: string) => names.some((name) => name.includes(needle));
  const inside = new Set<string>();
  for (const word of names.flatMap((name) => name.split(' '))) {
    if (inside.size >= 2 || word.length < 6 || !/^\p{L}+$/u.test(word)) continue;
    if (!holds(` ${word.slice(-4)}`)) inside.add(` ${word.slice(-4)}`);
    if (!holds(`${word.slice(0, 4)} `)) inside.add(`${word.slice(0, 4)} `);
  }
  const apart = new Set<string>();
  for (const words of names.map((name) => name.split(' '))) {
    const [first, , third] = words;
    if (apart.size >= 2 || first === undefined || third === undefined) continue;
    if (first.length >= 2 && third.length >= 2 && !holds(`${first} ${third}`)) {
      apart.add(`${first} ${third}`);
    }
  }
  for (const needle of [...inside, ...apart]) needles.add(needle);
  const digits = ids
    .filter((id) => typeof id === 'number' && id >= 10)
    .map(String)
    .find((text) => names.every((name) => !name.includes(text)));
  if (digits !== undefined) needles.add(digits);
  return [...needles];
}

interface NameVerdict {
  readonly needle: string;
  readonly filtered: Filtered;
  /** Names holding the needle exactly as written: a literal substring filter keeps these. */
  readonly exact: readonly Id[];
  /** Names holding it under the loosest reading: a filter keeps nothing else. */
  readonly loose: readonly Id[];
  /** Names holding it under PRODUCT.md's case folding. */
  readonly folded: readonly Id[];
}

/** Each run's verdicts per collection: both name checks judge the same walks and foldings. */
const verdictsOfRun = new WeakMap<CheckContext, Map<Collection, Promise<NameVerdict[]>>>();

function nameVerdicts(context: CheckContext, collection: Collection): Promise<NameVerdict[]> {
  const ofRun = verdictsOfRun.get(context) ?? new Map<Collection, Promise<NameVerdict[]>>();
  verdictsOfRun.set(context, ofRun);
  let verdicts = ofRun.get(collection);
  if (verdicts === undefined) {
    verdicts = computeNameVerdicts(context, collection);
    ofRun.set(collection, verdicts);
  }
  return verdicts;
}

async function computeNameVerdicts(
  context: CheckContext,
  collection: Collection,
): Promise<NameVerdict[]> {
  const listed = entries(context, collection);
  const folded = listed.map((entry) => foldCase(entry.name));
  const loose = listed.map((entry) => foldLoosely(entry.name));
  // An item without the label holds no needle; an empty needle may keep it (read as no filter)
  // or not (no value to hold it): the exact set never asks for it, the loose one allows it.
  const idsWhere = (names: readonly string[], needle: string, unlabelled = false) =>
    listed
      .filter((entry, index) =>
        entry.labelled ? names[index]?.includes(needle) : unlabelled && needle === '',
      )
      .map((entry) => entry.id);
  return Promise.all(
    [
      ...pickNeedles([...labelsOf(context, collection).values()]),
      ...edgeNeedles(
        listed.map((entry) => entry.name),
        listed.map((entry) => entry.id),
      ),
    ]
      // A needle the parameter's own schema refuses (an empty one under minLength) tells nothing.
      .filter((needle) => judgeValue(collection.labelSchema ?? {}, needle) !== 'invalid')
      .map(async (needle) => {
        const looseIds = idsWhere(loose, foldLoosely(needle), true);
        return {
          needle,
          filtered: await walkFiltered(
            context,
            collection,
            { [nameParameter(collection)]: needle },
            looseIds.length,
          ),
          // Code point for code point: a literal filter that does not normalize still keeps these.
          exact: idsWhere(
            listed.map((entry) => entry.name),
            needle,
          ),
          loose: looseIds,
          folded: idsWhere(folded, foldCase(needle)),
        };
      }),
  );
}

function sameSet(a: readonly (Id | undefined)[], b: readonly Id[]): boolean {
  return a.length === b.length && idsNotIn(a, b).length === 0;
}

/** Which case rule the walks show: the stand-in's folding, exact case, or something between. */
function caseRuleOf(verdicts: readonly NameVerdict[]): string {
  if (verdicts.every((v) => sameSet(v.filtered.got, v.folded))) return 'case-insensitive';
  if (verdicts.every((v) => sameSet(v.filtered.got, v.exact))) return 'case-sensitive';
  return 'neither exact case nor full Unicode case folding throughout';
}

/**
 * Rule: a literal substring of the name, with wildcards on both sides only. Breaks it: `%`, `_`,
 * `*`, `?` or regex characters read as patterns, a needle trimmed (` chair` matching `armchair`),
 * a space read as any run of characters, prefixes only, ids matched as text, an empty needle
 * matching nothing. The needles of pickNeedles and edgeNeedles, judged between two bounds.
 */
function nameFilter(collection: Collection): Check {
  return {
    id: `filters.${collection.name}.name`,
    title: `${collection.path}?${nameParameter(collection)}=…: a literal substring of the ${labelOf(collection)} (any case rule)`,
    ...filterLevel(collection, 'interface: GET /v1/stock, `name` (substring match)'),
    needs: [],
    async run(context): Promise<Findings> {
      if (labelsOf(context, collection).size === 0) return noNames(collection);
      const verdicts = await nameVerdicts(context, collection);
      const failures: Failure[] = [];
      for (const { needle, filtered, exact, loose } of verdicts) {
        failures.push(...filtered.failures);
        if (filtered.failures.length > 0) continue;
        const foreign = idsNotIn(filtered.got, loose);
        const missed = idsNotIn(exact, filtered.got);
        if (foreign.length > 0) {
          failures.push({
            message: `name=${JSON.stringify(needle)} keeps items whose name does not contain it in any case (a wildcard or pattern?)`,
            request: filtered.request,
            expected: `only names containing ${JSON.stringify(needle)}: at most ${String(loose.length)} items`,
            actual: `also ids ${someIds(foreign)}: ${foreign
              .slice(0, 3)
              .map((id) => JSON.stringify(labelsOf(context, collection).get(id ?? -1) ?? '?'))
              .join(', ')}`,
          });
        }
        if (missed.length > 0) {
          failures.push({
            message: `name=${JSON.stringify(needle)} misses items whose name contains it exactly as written`,
            request: filtered.request,
            expected: `ids ${someIds(exact)}`,
            actual: `missing ids ${someIds(missed)}`,
          });
        }
      }
      return found(failures.slice(0, 10), `the name filter is ${caseRuleOf(verdicts)}`);
    },
  };
}

/**
 * The links of a filtered list repeat the filter so that following them keeps it: a needle with
 * a space, walked a few items a page, keeps exactly its matches on every page. A link that
 * writes the space as `+` for a server that reads `+` literally, or encodes the needle twice,
 * changes the list from page 2 on.
 */
function nameLinks(collection: Collection): Check {
  return {
    id: `filters.${collection.name}.name-links`,
    title: `${collection.path}?${nameParameter(collection)}=…: following next keeps the name filter (a needle with a space, over several pages)`,
    ...filterLevel(collection, 'interface: Pagination (links), GET /v1/stock `name`'),
    needs: [],
    async run(context): Promise<Findings> {
      if (labelsOf(context, collection).size === 0) return noNames(collection);
      const listed = entries(context, collection);
      const names = listed.map((entry) => entry.name);
      const count = (needle: string) => names.filter((name) => name.includes(needle)).length;
      const candidates = new Set<string>();
      for (const name of names) {
        const [first, second] = name.split(' ');
        if (first !== undefined && second !== undefined && second !== '') {
          candidates.add(` ${second}`);
          candidates.add(`${first} ${second}`);
        }
      }
      // The needle with most matches, up to 30: enough pages at a few items each.
      const needle = [...candidates]
        .filter((candidate) => count(candidate) >= 3 && count(candidate) <= 30)
        .sort((a, b) => count(b) - count(a))[0];
      if (needle === undefined) {
        return { failures: [], skipped: 'no name holds a word after a space three times or more' };
      }
      const loose = listed
        .filter((entry) => foldLoosely(entry.name).includes(foldLoosely(needle)))
        .map((entry) => entry.id);
      const exact = listed.filter((entry) => entry.name.includes(needle)).map((entry) => entry.id);
      const perPage = Math.max(1, Math.floor(exact.length / 3));
      const filtered = await walkFiltered(
        context,
        collection,
        { [nameParameter(collection)]: needle },
        loose.length,
        perPage,
      );
      const failures: Failure[] = [...filtered.failures];
      const foreign = idsNotIn(filtered.got, loose);
      const missed = idsNotIn(exact, filtered.got);
      if (failures.length === 0 && (foreign.length > 0 || missed.length > 0)) {
        failures.push({
          message: `Walking name=${JSON.stringify(needle)} by its next links (${String(perPage)} a page) does not keep the filter`,
          request: filtered.request,
          expected: `ids ${someIds(exact)}`,
          actual: `ids ${someIds(filtered.got)}; not matching: ${someIds(foreign)}; missing: ${someIds(missed)}`,
        });
      }
      return found(failures);
    },
  };
}

/** The name filter's case rule against the stand-in's (`nameMatch`; the id keeps its old name). */
function nameCase(collection: Collection): Check {
  return {
    id: `filters.${collection.name}.name-case-insensitive`,
    title: `${collection.path}?${nameParameter(collection)}=…: the stand-in's case rule (case-insensitive with Unicode case folding, unless it matches case)`,
    level: 'stand-in',
    source: 'PRODUCT.md: `name` filter',
    needs: [],
    async run(context) {
      if (labelsOf(context, collection).size === 0) return noNames(collection);
      const verdicts = (await nameVerdicts(context, collection)).filter(
        (v) => v.filtered.failures.length === 0,
      );
      if (verdicts.length === 0) {
        return {
          failures: [],
          skipped: 'no name-filtered walk could be read to tell the case rule',
        };
      }
      const want = context.standIn.settings.nameMatch;
      const rule = caseRuleOf(verdicts);
      const decided =
        rule === 'case-insensitive' || rule === 'case-sensitive'
          ? // Needles whose matches are the same in both rules decide nothing.
            verdicts.every((v) => sameSet(v.folded, v.exact))
            ? want
            : rule
          : { uncovered: `the name filter is ${rule}` };
      const expectedOf = (v: NameVerdict): readonly Id[] =>
        want === 'case-insensitive' ? v.folded : v.exact;
      const mismatches = verdicts.filter((v) => !sameSet(v.filtered.got, expectedOf(v)));
      const first = mismatches[0];
      return judgedSetting(context, 'nameMatch', decided, `the name filter is ${rule}`, () => ({
        message:
          first === undefined
            ? `The name filter is ${rule}; the stand-in's is ${want}`
            : `name=${JSON.stringify(first.needle)} keeps other items than the stand-in's ${want} match`,
        ...(first === undefined
          ? {}
          : {
              request: first.filtered.request,
              expected: `ids ${someIds(expectedOf(first))}`,
              actual: `ids ${someIds(first.filtered.got)}`,
            }),
      }));
    },
  };
}

/**
 * Rule: `status=S` keeps exactly the items whose status is S. Breaks it: one status ignored or
 * inverted, the filter dropped. Every status the spec declares, against the unfiltered walk; its
 * parts at every remainder are pagination's last-pages.
 */
const statusFilter: Check = {
  id: 'filters.status',
  title: '/v1/stock?status=…: only and all items of that status',
  level: 'interface',
  source: 'interface: GET /v1/stock, `status`',
  needs: [],
  async run(context) {
    const results = await Promise.all(
      context.statuses.map((status) =>
        compareFiltered(context, STOCK, { status }, (item) => item['status'] === status, true),
      ),
    );
    return found(results.flat());
  },
};

/**
 * Rule: `id=N` keeps exactly the product N (the interface: an integer). Breaks it: the filter
 * ignored, ids compared as text (`012` no product), an id no product has answered with others.
 * The first, a middle and the last id, one above all, and the first with a leading zero.
 */
function idFilter(collection: Collection): Check {
  return {
    id: `filters.${collection.name}.id`,
    title: `${collection.path}?id=…: exactly the product with that id`,
    ...filterLevel(collection, 'interface: GET /v1/stock, `id`'),
    needs: [],
    async run(context) {
      // The collection's own ids: product ids for /v1/products, stock ids for /v1/stock.
      const ids = entries(context, collection).map((entry) => entry.id);
      const probes = [ids[0], ids[Math.floor(ids.length / 2)], ids.at(-1), unknownKey(ids)];
      const results = await Promise.all(
        [...new Set(probes.filter((id) => id !== undefined))].map((id) =>
          compareFiltered(context, collection, { id }, (_item, itemId) => itemId === id),
        ),
      );
      // An integer written with a leading zero: the same product, or refused as malformed;
      // never an empty list (ids compared as text).
      const first = ids[0];
      if (first !== undefined) {
        const query = { id: `0${String(first)}` };
        const page = await context.client.request({
          path: withQuery(collection.path, { ...query, ...sized(collection, 1) }),
          as: readerOf(context, collection),
        });
        const status = page.kind === 'response' ? page.response.status : 0;
        if (status < 400 || status >= 500) {
          results.push(
            await compareFiltered(context, collection, query, (_item, itemId) => itemId === first),
          );
        }
      }
      return found(results.flat());
    },
  };
}

/** Each filter narrows the list: two together keep what both keep. */
function combinedFilters(collection: Collection): Check {
  return {
    id: `filters.${collection.name}.combined`,
    title: `${collection.path} with two filters: both apply`,
    ...filterLevel(
      collection,
      'interface: GET /v1/stock, query parameters (each filters the list)',
    ),
    needs: [],
    async run(context) {
      if (labelsOf(context, collection).size === 0) return noNames(collection);
      const listed = entries(context, collection);
      // A piece of a served name as written: whatever the case rule, its own item matches.
      const needle = listed.find((entry) => entry.name.length >= 4)?.name.slice(0, 3);
      if (needle === undefined) {
        return {
          failures: [],
          skipped: 'no served name is long enough to filter by a piece of it',
        };
      }
      // With the id too, at an item whose name lacks the needle: a filter that stops at the id
      // would keep it.
      const lacking = listed.find(
        (entry) => !foldLoosely(entry.name).includes(foldLoosely(needle)),
      );
      const byId: [Query, (entry: (typeof listed)[number]) => boolean][] = [
        ...listed.slice(0, 2),
        ...(lacking === undefined ? [] : [lacking]),
      ].map(({ id }) => [{ name: needle, id }, (entry) => entry.id === id]);
      // Status and id together too, at an item of another status: none.
      const status = listed[0]?.item['status'];
      const other = listed.find((entry) => entry.item['status'] !== status);
      const statusAndId: [Query, (entry: (typeof listed)[number]) => boolean][] =
        other === undefined || typeof status !== 'string'
          ? []
          : [[{ status, id: other.id }, () => false]];
      const queries: [Query, (entry: (typeof listed)[number]) => boolean][] =
        collection === STOCK
          ? [
              ...context.statuses.map(
                (status): [Query, (entry: (typeof listed)[number]) => boolean] => [
                  { name: needle, status },
                  (entry) => entry.item['status'] === status,
                ],
              ),
              ...byId,
              ...statusAndId,
            ]
          : byId;
      const failures: Failure[] = [];
      for (const [query, other] of queries) {
        // Bounds, as for the name filter alone: the case rule is the target's to choose.
        const exact = listed.filter((e) => other(e) && e.name.includes(needle)).map((e) => e.id);
        const loose = listed
          .filter((e) => other(e) && foldLoosely(e.name).includes(foldLoosely(needle)))
          .map((e) => e.id);
        // A few a page: a filter dropped by the links, or applied page by page, shows then.
        const filtered = await walkFiltered(
          context,
          collection,
          query,
          loose.length,
          smallPage(exact.length, collection),
        );
        failures.push(...bothApply(query, filtered, exact, loose));
      }
      return found(failures);
    },
  };
}

/**
 * Failures when two filters given at once do not both apply: the walk keeps an item that even
 * the loosest reading of both would not (`loose`), or misses one the strictest keeps (`strict`).
 */
export function bothApply(
  query: Query,
  filtered: Filtered,
  strict: readonly Id[],
  loose: readonly Id[],
): Failure[] {
  const foreign = idsNotIn(filtered.got, loose);
  const missed = idsNotIn(strict, filtered.got);
  if (filtered.failures.length > 0) return [...filtered.failures];
  if (foreign.length === 0 && missed.length === 0) return [];
  return [
    {
      message: `The filters ${JSON.stringify(query)} do not both apply`,
      request: filtered.request,
      expected: `items both keep: ids ${someIds(strict, 8)}`,
      actual: `${String(filtered.got.length)} items; kept by only one: ${someIds(foreign)}; missing: ${someIds(missed)}`,
    },
  ];
}

/** The checks of a name filter: the interface's, or a declared list's contains filter on its label. */
export const nameChecksOf = (collection: Collection): Check[] => [
  nameFilter(collection),
  nameLinks(collection),
  nameCase(collection),
];

export const filterChecks: readonly Check[] = [
  statusFilter,
  ...COLLECTIONS.flatMap((collection) => [
    ...nameChecksOf(collection),
    idFilter(collection),
    combinedFilters(collection),
  ]),
];
