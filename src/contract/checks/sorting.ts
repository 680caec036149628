/**
 * @module The checks of a declared sort (`x-stockmock.sort`) beside the model's: the order
 * without the parameter, the stand-in's order of text, and what the stand-in refuses. Each field
 * up and down and two at once, on every page, is the model's (generated.PATH), which computes
 * the order itself (oracle/sort-order.ts); the target's order is judged, never copied.
 */
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { found } from '../check.ts';
import type { DeclaredList, DeclaredSort } from '../declared.ts';
import { failureOf, statusOf } from '../describe-exchange.ts';
import { listModel, type ListModel } from '../oracle/declared-page.ts';
import { isText, sortedPlaces, type OrderReading } from '../oracle/sort-order.ts';
import { idOf, someIds, withQuery } from '../walk.ts';
import { judgedRequests, laterPage } from './generated.ts';

function modelOf(
  context: CheckContext,
  list: DeclaredList,
  reading: OrderReading,
): ListModel | undefined {
  const learned = context.learned.declared.get(list.collection.path);
  return learned === undefined || learned.holder === undefined || learned.items.length === 0
    ? undefined
    : listModel(list, learned, reading);
}

const UNREAD: Findings = { failures: [], skipped: 'no level read the list' };

/**
 * Rule (interface): without the parameter, the list is in the declared default order, ties by
 * key. What breaks it: the default ignored (items by key), or given in the other direction.
 * Judged on the list as learned, walked whole; its pages are the model's.
 */
function defaultCheck(list: DeclaredList, sort: DeclaredSort, byDefault: string): Check {
  const { path } = list.collection;
  return {
    id: `sort.${list.collection.name}.default`,
    title: `${path}: without ${sort.parameter}, the items in the declared order (${byDefault}), ties by id`,
    level: 'interface',
    source: `the spec: ${path}, x-stockmock sort.default`,
    needs: [],
    run(context): Promise<Findings> {
      const model = modelOf(context, list, 'interface');
      if (model === undefined) return Promise.resolve(UNREAD);
      const { items } = model.learned;
      const keyOf = (item: (typeof items)[number]) => idOf(list.collection, item);
      const places = items.map((_, place) => place);
      const want = sortedPlaces({ ...model, items, keyOf }, places, byDefault, 'interface');
      if (want === undefined) {
        return Promise.resolve({
          failures: [],
          skipped: `correct services may order ${byDefault} differently (text, or records without it)`,
        });
      }
      const at = want.findIndex((place, index) => place !== index);
      const keys = (order: readonly number[]) =>
        someIds(order.slice(Math.max(0, at - 2), at + 3).map((place) => keyOf(items[place] ?? {})));
      return Promise.resolve(
        found(
          at < 0
            ? []
            : [
                {
                  message: `The list without ${sort.parameter} is out of the declared order (${byDefault}) at item ${String(at + 1)}`,
                  request: `GET ${path} and its next pages`,
                  expected: `ids ${keys(want)} around it`,
                  actual: `ids ${keys(places)}`,
                },
              ],
        ),
      );
    },
  };
}

/**
 * Rule (stand-in, docs/declare-a-resource.md): text is sorted by code point, and records without
 * the field come last in either direction. What breaks it: a collation, case folded, missing
 * values first. Each text field up and down, on the first page at the largest size and on a
 * later page at a few items a page.
 */
function codePointsCheck(list: DeclaredList, sort: DeclaredSort): Check {
  const { path, limits, paging } = list.collection;
  return {
    id: `sort.${list.collection.name}.code-points`,
    title: `${path}?${sort.parameter}=…: text in code point order, records without the field last`,
    level: 'stand-in',
    source: 'docs/declare-a-resource.md: sorting (code points, missing values last)',
    needs: [],
    async run(context): Promise<Findings> {
      const model = modelOf(context, list, 'stand-in');
      if (model === undefined) return UNREAD;
      const as = model.learned.holder ?? 'none';
      const fields = sort.fields.filter(
        (field) => isText(list.record.schemas.get(field)) && model.shows(field),
      );
      if (fields.length === 0)
        return { failures: [], skipped: 'the sort names no text field a level sees' };
      const size = paging.kind === 'whole' ? undefined : paging.size;
      const pages = (order: string): (readonly [string, string])[][] => [
        [
          [sort.parameter, order],
          ...(size === undefined ? [] : [[size, String(limits.max)] as const]),
        ],
        [[sort.parameter, order], ...laterPage(list, model.learned.items.length)],
      ];
      const requests = fields
        .flatMap((field) => [field, `-${field}`])
        .flatMap(pages)
        .map((pairs) => ({ pairs, method: 'GET' as const, as }));
      return found((await judgedRequests(context, model, requests)).slice(0, 10));
    },
  };
}

/**
 * Rule (stand-in): a field the declaration does not list, or one named twice, is a 400 naming
 * the parameter; a service may ignore it instead (the spec's schema may allow any text).
 */
function refusedCheck(list: DeclaredList, sort: DeclaredSort): Check {
  const { path } = list.collection;
  return {
    id: `sort.${list.collection.name}.refused`,
    title: `${path}?${sort.parameter}=…: a field it does not list, or one twice, is a 400`,
    level: 'stand-in',
    source: 'docs/declare-a-resource.md: sorting',
    needs: [],
    async run(context): Promise<Findings> {
      const learned = context.learned.declared.get(path);
      if (learned?.holder === undefined) return UNREAD;
      const [field] = sort.fields;
      const probes = ['zz_not_a_field', ...(field === undefined ? [] : [`${field},-${field}`])];
      const failures: Failure[] = [];
      for (const value of probes) {
        const exchange = await context.client.request({
          path: withQuery(path, { [sort.parameter]: value }),
          as: learned.holder,
        });
        if (statusOf(exchange) !== 400) {
          failures.push(failureOf(exchange, `${sort.parameter}=${value} is not refused`, '400'));
        }
      }
      return found(failures);
    },
  };
}

/** The checks of a list's declared sort beside the model's; none for a list that declares none. */
export function sortChecksOf(list: DeclaredList): Check[] {
  const { sort } = list;
  if (sort === undefined) return [];
  return [
    codePointsCheck(list, sort),
    ...(sort.byDefault === undefined ? [] : [defaultCheck(list, sort, sort.byDefault)]),
    refusedCheck(list, sort),
  ];
}
