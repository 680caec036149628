/**
 * @module The case rule of each `contains` filter against the stand-in's: the interface's name
 * filters and every declared one, by the filtered walks it needs.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Check, CheckContext, Failure } from '../check.ts';
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
import { learnedItems, readerOf } from './pagination.ts';
import { memberOf, viewFor, type DeclaredList } from '../declared.ts';
import { holderOf, type Credentials } from '../target-client.ts';
import { sourceOf } from './declared-guard.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';
import { edgeNeedles, pickNeedles } from './probe-values.ts';

type Query = Readonly<Record<string, string | number | readonly string[]>>;

/** The texts a `contains` filter searches, by item key, and a level whose view shows them. */
export interface Searched {
  readonly parameter: string;
  /** Every item's key, in the list's order. */
  readonly keys: readonly Id[];
  /** The text of each item that has one: an optional field may be absent. */
  readonly texts: ReadonlyMap<Id, string>;
  readonly as: Credentials;
}

/** The items with their key and text; `labelled` is false for an item without one. */
function entries(searched: Searched) {
  return searched.keys.map((id) => {
    const text = searched.texts.get(id);
    return { id, name: text ?? '', labelled: text !== undefined };
  });
}

export interface Filtered {
  readonly got: readonly (Id | undefined)[];
  readonly request: string;
  readonly failures: readonly Failure[];
}

/** Walks a filtered list at its largest page size, stopping once it holds more than `maxItems`. */
async function walkFiltered(
  context: CheckContext,
  collection: Collection,
  query: Query,
  maxItems: number,
  as: Credentials,
): Promise<Filtered> {
  const path = withQuery(collection.path, {
    ...query,
    ...sized(collection, collection.limits.max),
  });
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

/** Each run's verdicts per filter: a run judges each filter's walks and foldings once. */
const verdictsOfRun = new WeakMap<CheckContext, Map<string, Promise<NameVerdict[]>>>();

function nameVerdicts(
  context: CheckContext,
  collection: Collection,
  searched: Searched,
  schema: OpenAPIV3_1.SchemaObject,
): Promise<NameVerdict[]> {
  const ofRun = verdictsOfRun.get(context) ?? new Map<string, Promise<NameVerdict[]>>();
  verdictsOfRun.set(context, ofRun);
  const key = `${collection.path}?${searched.parameter}`;
  let verdicts = ofRun.get(key);
  if (verdicts === undefined) {
    verdicts = computeNameVerdicts(context, collection, searched, schema);
    ofRun.set(key, verdicts);
  }
  return verdicts;
}

async function computeNameVerdicts(
  context: CheckContext,
  collection: Collection,
  searched: Searched,
  schema: OpenAPIV3_1.SchemaObject,
): Promise<NameVerdict[]> {
  const listed = entries(searched);
  const folded = listed.map((entry) => foldCase(entry.name));
  const loose = listed.map((entry) => foldLoosely(entry.name));
  // An item without the text holds no needle; an empty needle may keep it (read as no filter)
  // or not (no value to hold it): the exact set never asks for it, the loose one allows it.
  const idsWhere = (names: readonly string[], needle: string, unlabelled = false) =>
    listed
      .filter((entry, index) =>
        entry.labelled ? names[index]?.includes(needle) : unlabelled && needle === '',
      )
      .map((entry) => entry.id);
  return Promise.all(
    [
      ...pickNeedles([...searched.texts.values()]),
      ...edgeNeedles(
        listed.map((entry) => entry.name),
        listed.map((entry) => entry.id),
      ),
    ]
      // A needle the parameter's own schema refuses (an empty one under minLength) tells nothing.
      .filter((needle) => judgeValue(schema, needle) !== 'invalid')
      .map(async (needle) => {
        const looseIds = idsWhere(loose, foldLoosely(needle), true);
        return {
          needle,
          filtered: await walkFiltered(
            context,
            collection,
            { [searched.parameter]: needle },
            looseIds.length,
            searched.as,
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
 * Rule (stand-in): a `contains` filter folds case with Unicode case folding, unless the stand-in
 * matches case (`nameMatch`). Breaks it: a match in exact case, one that folds ASCII alone. The
 * needles that tell a working filter from a broken one, each walked whole.
 */
function caseRule(
  collection: Collection,
  head: Pick<Check, 'id' | 'source'>,
  filter: { readonly parameter: string; readonly schema: OpenAPIV3_1.SchemaObject },
  searchedOf: (context: CheckContext) => Searched | undefined,
): Check {
  return {
    ...head,
    title: `${collection.path}?${filter.parameter}=…: the stand-in's case rule (case-insensitive with Unicode case folding, unless it matches case)`,
    level: 'stand-in',
    needs: [],
    async run(context) {
      const searched = searchedOf(context);
      if (searched === undefined || searched.texts.size === 0) {
        return {
          failures: [],
          skipped: `no level with a token sees a text ${filter.parameter} searches`,
        };
      }
      const verdicts = (await nameVerdicts(context, collection, searched, filter.schema)).filter(
        (v) => v.filtered.failures.length === 0,
      );
      if (verdicts.length === 0) {
        return { failures: [], skipped: 'no filtered walk could be read to tell the case rule' };
      }
      const want = context.standIn.settings.nameMatch;
      const rule = caseRuleOf(verdicts);
      const decided =
        rule === 'case-insensitive' || rule === 'case-sensitive'
          ? // Needles whose matches are the same in both rules decide nothing.
            verdicts.every((v) => sameSet(v.folded, v.exact))
            ? want
            : rule
          : { uncovered: `the ${filter.parameter} filter is ${rule}` };
      const expectedOf = (v: NameVerdict): readonly Id[] =>
        want === 'case-insensitive' ? v.folded : v.exact;
      const mismatches = verdicts.filter((v) => !sameSet(v.filtered.got, expectedOf(v)));
      const first = mismatches[0];
      return judgedSetting(
        context,
        'nameMatch',
        decided,
        `the ${filter.parameter} filter is ${rule}`,
        () => ({
          message:
            first === undefined
              ? `the ${filter.parameter} filter is ${rule}; the stand-in's is ${want}`
              : `${filter.parameter}=${JSON.stringify(first.needle)} keeps other items than the stand-in's ${want} match`,
          ...(first === undefined
            ? {}
            : {
                request: first.filtered.request,
                expected: `ids ${someIds(expectedOf(first))}`,
                actual: `ids ${someIds(first.filtered.got)}`,
              }),
        }),
      );
    },
  };
}

const NAME_SOURCE = 'PRODUCT.md: `name` filter';

/** The interface's name filters: their names are the product list's. */
export const filterChecks: readonly Check[] = COLLECTIONS.map((collection) =>
  caseRule(
    collection,
    { id: `filters.${collection.name}.name-case-insensitive`, source: NAME_SOURCE },
    { parameter: 'name', schema: {} },
    (context) => ({
      parameter: 'name',
      keys: idsOf(collection, learnedItems(context, collection)).filter((id) => id !== undefined),
      texts: context.learned.names,
      as: readerOf(context, collection),
    }),
  ),
);

/**
 * Each `contains` filter of a declared list: on its label, under the interface's name filter's
 * id; on another field, as the name filter folds case. The texts are the first level's whose
 * view shows the field.
 */
export function caseChecksOf(list: DeclaredList): Check[] {
  const { collection, record } = list;
  return list.filters
    .filter((filter) => filter.match === 'contains')
    .map((filter) =>
      caseRule(
        collection,
        filter.field === record.label
          ? { id: `filters.${collection.name}.name-case-insensitive`, source: NAME_SOURCE }
          : {
              id: `filters.${collection.name}.${filter.parameter}-case`,
              source: sourceOf(
                collection.path,
                `filters (${filter.parameter}: contains), as the name filter folds case`,
              ),
            },
        filter,
        (context) => {
          const learned = context.learned.declared.get(collection.path);
          for (const [level, items] of learned?.byLevel ?? []) {
            const view = viewFor(list.views, level);
            const member = view === undefined ? undefined : memberOf(view, filter.field);
            if (member === undefined) continue;
            const texts = new Map<Id, string>();
            const keys = items.flatMap((item) => {
              const key = idOf(collection, item);
              const text = item[member];
              if (key !== undefined && typeof text === 'string') texts.set(key, text);
              return key === undefined ? [] : [key];
            });
            return {
              parameter: filter.parameter,
              keys,
              texts,
              as: level === 'none' ? 'none' : holderOf(level),
            };
          }
          return undefined;
        },
      ),
    );
}
