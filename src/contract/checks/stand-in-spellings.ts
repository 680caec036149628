/**
 * @module How the stand-in reads what a request spells, for each declared list and item: a
 * boolean or an integer in a spelling a lenient reader takes (`TRUE`, `1`, `+2`, `2e0`) is a 400,
 * two bad values are both named, and a trailing slash names the item without it
 * (docs/behaviour.md). The interface level leaves these open: many services read them leniently.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Check, CheckContext, Failure } from '../check.ts';
import { found } from '../check.ts';
import type { DeclaredItem, DeclaredList } from '../declared.ts';
import { failureOf, statusOf } from '../describe-exchange.ts';
import { idOf } from '../walk.ts';
import { guarded } from './declared-guard.ts';
import { readerOf } from './pagination.ts';

/** Spellings a lenient reader takes for a valid value, by the parameter's type. */
const LENIENT: Readonly<Record<'boolean' | 'integer', readonly string[]>> = {
  boolean: ['TRUE', '1', 'yes'],
  integer: ['%2B2', '2e0', '0x2'],
};

/** The list's query parameters a lenient spelling exists for: filters, the size, the page. */
function lenientParameters(list: DeclaredList): [string, readonly string[]][] {
  const { paging } = list.collection;
  const typed: [string, 'boolean' | 'integer'][] = list.filters.flatMap((filter) =>
    filter.schema.type === 'boolean' || filter.schema.type === 'integer'
      ? [[filter.parameter, filter.schema.type] as [string, 'boolean' | 'integer']]
      : [],
  );
  if (paging.kind !== 'whole' && paging.size !== undefined) typed.push([paging.size, 'integer']);
  if (paging.kind === 'number') typed.push([paging.page, 'integer']);
  if (paging.kind === 'links') typed.push(['page', 'integer']);
  return typed.map(([name, type]) => [name, LENIENT[type]]);
}

/** The parameter names a 400's `errors` member names. */
function namedIn(body: unknown): string[] {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors)
    ? errors.map((error) => String((error as { parameter?: unknown } | null)?.parameter))
    : [];
}

/**
 * Rule (docs/behaviour.md, invalid parameter values): a value that is not the parameter's type
 * as written is a 400 naming it, and every bad parameter of a request is named. Breaks it:
 * `recurring=TRUE` read as false, `page=2e0` read as 2, only the first bad parameter named.
 */
function spellingsCheck(list: DeclaredList): Check | undefined {
  const parameters = lenientParameters(list);
  if (parameters.length === 0) return undefined;
  const { collection } = list;
  return {
    id: `negative.${collection.name}.spellings`,
    title: `${collection.path}: a boolean or an integer spelled as lenient readers take it (TRUE, 1, +2, 2e0) is a 400 naming it; two bad values are both named`,
    level: 'stand-in',
    source: 'docs/behaviour.md: invalid parameter values; error body',
    needs: [],
    async run(context) {
      const as = readerOf(context, collection);
      const ask = (query: string) =>
        context.client.request({ path: `${collection.path}?${query}`, as });
      const listed = context.standIn.settings.parameterErrors === 'listed';
      const failures: Failure[] = [];
      for (const [name, spellings] of parameters) {
        for (const spelling of spellings) {
          const exchange = await ask(`${name}=${spelling}`);
          const body = exchange.kind === 'response' ? exchange.response.body : undefined;
          if (statusOf(exchange) !== 400 || (listed && !namedIn(body).includes(name))) {
            failures.push(
              failureOf(
                exchange,
                `${name}=${decodeURIComponent(spelling)} is not a 400 naming ${name}, as the stand-in answers`,
                '400 problem',
              ),
            );
          }
        }
      }
      const [first, second] = parameters;
      if (listed && first !== undefined && second !== undefined) {
        const exchange = await ask(
          `${first[0]}=${first[1][0] ?? ''}&${second[0]}=${second[1][0] ?? ''}`,
        );
        const named = namedIn(exchange.kind === 'response' ? exchange.response.body : undefined);
        if (!named.includes(first[0]) || !named.includes(second[0])) {
          failures.push(
            failureOf(
              exchange,
              'A 400 for two bad values does not name both',
              `errors naming ${first[0]} and ${second[0]}`,
            ),
          );
        }
      }
      return found(failures.slice(0, 10));
    },
  };
}

/**
 * Rule (docs/behaviour.md, Surface): a trailing slash names the same resource. Breaks it: a
 * 404 for `/v1/invoices/inv_xm2eo9/`.
 */
function trailingSlashCheck(item: DeclaredItem, list: DeclaredList): Check {
  return {
    id: `single.${item.template}.trailing-slash`,
    title: `${item.path}/: a trailing slash names the same item`,
    level: 'stand-in',
    source: 'docs/behaviour.md: Surface',
    needs: [],
    async run(context: CheckContext) {
      const learned = context.learned.declared.get(list.collection.path);
      const [entry] = learned?.items ?? [];
      const key = entry === undefined ? undefined : idOf(list.collection, entry);
      if (key === undefined) return { failures: [], skipped: 'the list is empty' };
      const as = readerOf(context, list.collection);
      const path = item.path.replace(`{${item.parameter}}`, encodeURIComponent(String(key)));
      const plain = await context.client.request({ path, as });
      const slashed = await context.client.request({ path: `${path}/`, as });
      const same =
        plain.kind === 'response' &&
        slashed.kind === 'response' &&
        slashed.response.status === plain.response.status &&
        isDeepStrictEqual(slashed.response.body, plain.response.body);
      return found(
        same
          ? []
          : [failureOf(slashed, 'A trailing slash does not name the same item', `as ${path}`)],
      );
    },
  };
}

/** The stand-in's spelling checks of each declared list, and of each item with its list. */
export function standInSpellingChecks(
  lists: readonly DeclaredList[],
  items: readonly (readonly [DeclaredItem, DeclaredList])[],
): Check[] {
  return [
    ...lists.flatMap((list) => {
      const check = spellingsCheck(list);
      return check === undefined ? [] : [guarded(check, list)];
    }),
    ...items.map(([item, list]) => guarded(trailingSlashCheck(item, list), list)),
  ];
}
