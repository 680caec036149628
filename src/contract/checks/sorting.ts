/**
 * @module The checks of a declared sort parameter (`x-stockmock.sort`), read by the checker
 * itself: each field up and down, two fields at once, the order without the parameter, and what
 * the stand-in refuses. Every expectation comes from the unfiltered walk's items and the record
 * schema's types; the target's order is judged, never copied.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { found } from '../check.ts';
import { memberOf, viewFor, type DeclaredList, type DeclaredSort } from '../declared.ts';
import { describeRequest, failureOf, statusOf } from '../describe-exchange.ts';
import { instantsOf } from '../oracle/instants.ts';
import { holderOf, type Credentials } from '../target-client.ts';
import { judgeValue } from '../oracle/parameter-rules.ts';
import {
  compareIds,
  idOf,
  pagesOf,
  sized,
  someIds,
  withQuery,
  type Id,
  type Item,
} from '../walk.ts';
import { smallPage } from './filters.ts';

/** One key of an order: the member that shows the field, and its direction. */
interface OrderKey {
  readonly field: string;
  readonly member: string;
  readonly descending: boolean;
  readonly compare: Compare;
}

/** How two present values of a field compare; undefined where the checker cannot tell. */
type Compare = (a: unknown, b: unknown) => number | undefined;

/**
 * How a field's values compare, by its schema: numbers by value, dates and date-times as
 * instants, booleans false first. Text is compared by code point only where `strict` (the
 * stand-in's order): the interface fixes no collation, so a service may sort by its own.
 */
function compareOf(schema: OpenAPIV3_1.SchemaObject | undefined, strict: boolean): Compare {
  const type = Array.isArray(schema?.type)
    ? schema.type.find((one) => one !== 'null')
    : schema?.type;
  if (type === 'integer' || type === 'number') {
    return (a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : undefined);
  }
  if (type === 'boolean') {
    return (a, b) =>
      typeof a === 'boolean' && typeof b === 'boolean' ? Number(a) - Number(b) : undefined;
  }
  if (schema?.format === 'date' || schema?.format === 'date-time') {
    return (a, b) => {
      const [x, y] = [instantOf(a), instantOf(b)];
      return x === undefined || y === undefined ? undefined : x - y;
    };
  }
  if (!strict) return () => undefined;
  return (a, b) => (typeof a === 'string' && typeof b === 'string' ? codePoints(a, b) : undefined);
}

function instantOf(value: unknown): number | undefined {
  const instants = typeof value === 'string' ? instantsOf(value) : undefined;
  return instants === undefined
    ? undefined
    : instants.kind === 'date'
      ? instants.from
      : instants.at;
}

function codePoints(a: string, b: string): number {
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const order = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

function isText(schema: OpenAPIV3_1.SchemaObject | undefined): boolean {
  const type = Array.isArray(schema?.type)
    ? schema.type.find((one) => one !== 'null')
    : schema?.type;
  return type === 'string' && schema?.format !== 'date' && schema?.format !== 'date-time';
}

/** A value the field does not hold: absent or null. */
function missing(value: unknown): boolean {
  return value === undefined || value === null;
}

/**
 * Why two neighbours are out of order, or undefined if they are not (or cannot be told). Values
 * in the keys' order, then ties by id ascending. Records without a value come last in either
 * direction where `strict` (the stand-in); where not, either end is correct (a database's NULLS
 * FIRST on descending is), and the pair is not judged.
 */
function outOfOrder(
  a: Item,
  b: Item,
  ids: readonly [Id, Id],
  keys: readonly OrderKey[],
  strict: boolean,
): string | undefined {
  for (const key of keys) {
    const [x, y] = [a[key.member], b[key.member]];
    if (missing(x) || missing(y)) {
      if (missing(x) && missing(y)) continue;
      return strict && missing(x)
        ? `an item without ${key.field} comes before one with it`
        : undefined;
    }
    const order = key.compare(x, y);
    if (order === undefined) return undefined;
    if (order !== 0) {
      return (key.descending ? order > 0 : order < 0)
        ? undefined
        : `${key.field} ${JSON.stringify(x)} comes before ${JSON.stringify(y)}`;
    }
  }
  return compareIds(ids[0], ids[1]) < 0
    ? undefined
    : `ties are not in id order: ${String(ids[0])} comes before ${String(ids[1])}`;
}

/** The keys of a sort value (`status,-amount`), with the members a level's view shows them by. */
function keysOf(
  value: string,
  list: DeclaredList,
  level: string,
  strict: boolean,
): OrderKey[] | undefined {
  const view = viewFor(list.views, level);
  const keys: OrderKey[] = [];
  for (const item of value.split(',')) {
    const descending = item.startsWith('-');
    const field = descending ? item.slice(1) : item;
    const member = view === undefined ? undefined : memberOf(view, field);
    if (member === undefined) return undefined;
    keys.push({
      field,
      member,
      descending,
      compare: compareOf(list.record.schemas.get(field), strict),
    });
  }
  return keys;
}

/** The first level that reads the list, how to ask as it, and the items it saw. */
function reader(
  context: CheckContext,
  list: DeclaredList,
): { level: string; as: Credentials; items: readonly Item[] } | undefined {
  const learned = context.learned.declared.get(list.collection.path);
  const [first] = learned?.byLevel ?? [];
  if (first === undefined) return undefined;
  const [level, items] = first;
  return { level, as: level === 'none' ? 'none' : holderOf(level), items };
}

/**
 * Walks the list in an order at a few items a page (a sort applied page by page, or dropped by
 * the links, shows only then), and judges it: every item once, in order.
 */
async function judgeOrder(
  context: CheckContext,
  list: DeclaredList,
  query: Readonly<Record<string, string>>,
  keys: readonly OrderKey[],
  strict: boolean,
): Promise<Failure[]> {
  const seen = reader(context, list);
  if (seen === undefined) return [];
  const { collection } = list;
  const limit = smallPage(seen.items.length, collection);
  const path = withQuery(collection.path, { ...query, ...sized(collection, limit) });
  const walked = await context.walk(path, seen.as, {
    ...pagesOf(collection),
    maxItems: seen.items.length,
  });
  const request = describeRequest({ method: 'GET', url: path, as: seen.as }).replace(
    ' (',
    ' and its next links (',
  );
  if (walked.failures.length > 0) return [...walked.failures];
  const got = walked.items.flatMap((item) => {
    const id = idOf(collection, item);
    return id === undefined ? [] : [{ item, id }];
  });
  const expected = new Set(seen.items.map((item) => idOf(collection, item)));
  if (got.length !== expected.size || got.some(({ id }) => !expected.has(id))) {
    return [
      {
        message: `The list sorted by ${JSON.stringify(query)} does not hold every item once`,
        request,
        expected: `${String(expected.size)} items, each once`,
        actual: `${String(got.length)} items: ids ${someIds(got.map(({ id }) => id))}`,
      },
    ];
  }
  for (let index = 1; index < got.length; index++) {
    const [before, after] = [got[index - 1], got[index]];
    if (before === undefined || after === undefined) continue;
    const problem = outOfOrder(before.item, after.item, [before.id, after.id], keys, strict);
    if (problem !== undefined) {
      return [
        {
          message: `The list sorted by ${JSON.stringify(query)} is out of order at item ${String(index + 1)}: ${problem}`,
          request,
          expected: `items by ${keys.map((key) => `${key.field} ${key.descending ? 'descending' : 'ascending'}`).join(', then ')}, ties by id`,
          actual: `ids ${someIds(
            got.slice(Math.max(0, index - 2), index + 3).map(({ id }) => id),
          )} around it`,
        },
      ];
    }
  }
  return [];
}

/** The sort value each field is asked with: up and down. */
function directions(field: string): string[] {
  return [field, `-${field}`];
}

/** A field with few values and one with many: two keys whose ties the second one decides. */
function pairOf(sort: DeclaredSort, list: DeclaredList, items: readonly Item[], level: string) {
  const view = viewFor(list.views, level);
  const distinct = (field: string): number => {
    const member = view === undefined ? undefined : memberOf(view, field);
    return member === undefined
      ? 0
      : new Set(items.map((item) => JSON.stringify(item[member]))).size;
  };
  // Fields the interface's check can judge: text has no order it fixes.
  const ranked = sort.fields
    .filter((field) => !isText(list.record.schemas.get(field)))
    .map((field) => ({ field, count: distinct(field) }))
    .filter(({ count }) => count > 1)
    .sort((a, b) => a.count - b.count);
  const [few] = ranked;
  const many = ranked.at(-1);
  return few === undefined || many === undefined || few.field === many.field
    ? undefined
    : `${few.field},-${many.field}`;
}

/**
 * Rule (interface, the spec's declaration): `?sort=f` orders by f ascending, `-f` descending,
 * several keys in turn, ties by id, over the whole list (every page), and the links keep it.
 * What breaks it: the `-` ignored, only the first key read, numbers or dates compared as text,
 * each page sorted on its own, ties in another order, a link that drops the sort. Text is
 * judged by the stand-in's code point order only (sort.PATH.FIELD-text, stand-in level).
 */
function fieldsCheck(list: DeclaredList, sort: DeclaredSort, strict: boolean): Check {
  const { path } = list.collection;
  return {
    id: `sort.${list.collection.name}${strict ? '.code-points' : ''}`,
    title: strict
      ? `${path}?${sort.parameter}=…: text in code point order, records without the field last`
      : `${path}?${sort.parameter}=…: each field up and down and two at once, ties by id, on every page`,
    level: strict ? 'stand-in' : 'interface',
    source: strict
      ? 'docs/declare-a-resource.md: sorting (code points, missing values last)'
      : `the spec: ${path}, x-stockmock sort`,
    needs: [],
    async run(context): Promise<Findings> {
      const seen = reader(context, list);
      if (seen === undefined) return { failures: [], skipped: 'no level read the list' };
      // The stand-in's own order matters for text only: the rest is the interface's check.
      const fields = strict
        ? sort.fields.filter((field) => isText(list.record.schemas.get(field)))
        : sort.fields;
      const pair = strict ? undefined : pairOf(sort, list, seen.items, seen.level);
      // Only what the parameter's schema takes: an order it forbids says nothing of the sort.
      const values = [...fields.flatMap(directions), ...(pair === undefined ? [] : [pair])].filter(
        (value) => judgeValue(sort.schema, value) !== 'invalid',
      );
      const failures: Failure[] = [];
      const asked: string[] = [];
      for (const value of values) {
        const keys = keysOf(value, list, seen.level, strict);
        if (keys === undefined) continue;
        asked.push(value);
        failures.push(
          ...(await judgeOrder(context, list, { [sort.parameter]: value }, keys, strict)),
        );
      }
      if (asked.length === 0) {
        return {
          failures: [],
          skipped: strict
            ? 'the sort names no text field a level sees'
            : 'no level sees a field the sort names',
        };
      }
      return found(failures.slice(0, 10), `sorted by ${asked.join(' ')}`);
    },
  };
}

/** Rule (interface): without the parameter, the list is in the declared default order. */
function defaultCheck(list: DeclaredList, sort: DeclaredSort, byDefault: string): Check {
  const { path } = list.collection;
  return {
    id: `sort.${list.collection.name}.default`,
    title: `${path}: without ${sort.parameter}, the items in the declared order (${byDefault}), ties by id`,
    level: 'interface',
    source: `the spec: ${path}, x-stockmock sort.default`,
    needs: [],
    async run(context): Promise<Findings> {
      const seen = reader(context, list);
      if (seen === undefined) return { failures: [], skipped: 'no level read the list' };
      const keys = keysOf(byDefault, list, seen.level, false);
      if (keys === undefined) {
        return { failures: [], skipped: `no level sees the fields of ${byDefault}` };
      }
      return found(await judgeOrder(context, list, {}, keys, false));
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
      const seen = reader(context, list);
      if (seen === undefined) return { failures: [], skipped: 'no level read the list' };
      const [field] = sort.fields;
      const probes = ['zz_not_a_field', ...(field === undefined ? [] : [`${field},-${field}`])];
      const failures: Failure[] = [];
      for (const value of probes) {
        const exchange = await context.client.request({
          path: withQuery(list.collection.path, { [sort.parameter]: value }),
          as: seen.as,
        });
        if (statusOf(exchange) !== 400) {
          failures.push(failureOf(exchange, `${sort.parameter}=${value} is not refused`, '400'));
        }
      }
      return found(failures);
    },
  };
}

/** Every check of a list's declared sort; none for a list that declares none. */
export function sortChecksOf(list: DeclaredList): Check[] {
  const { sort } = list;
  if (sort === undefined) return [];
  return [
    fieldsCheck(list, sort, false),
    fieldsCheck(list, sort, true),
    ...(sort.byDefault === undefined ? [] : [defaultCheck(list, sort, sort.byDefault)]),
    refusedCheck(list, sort),
  ];
}
