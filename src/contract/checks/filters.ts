/** @module The name filter's case rule against the stand-in's, and the filtered walks it needs. */
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { judgedSetting } from '../check.ts';
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
  withQuery,
  type Collection,
  type Id,
} from '../walk.ts';
import { labelsOf, learnedItems, readerOf } from './pagination.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';
import { edgeNeedles, pickNeedles } from './probe-values.ts';

type Query = Readonly<Record<string, string | number | readonly string[]>>;

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

/** The checks of a name filter: the interface's, or a declared list's contains filter on its label. */
export const nameChecksOf = (collection: Collection): Check[] => [nameCase(collection)];

export const filterChecks: readonly Check[] = COLLECTIONS.flatMap(nameChecksOf);
