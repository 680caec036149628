/** @module The single endpoint agrees with the list, an unknown id is a 404, a bad id a 4xx. */
import { isDeepStrictEqual } from 'node:util';
import type { Check, CheckContext, Failure, Level } from '../check.ts';
import { found } from '../check.ts';
import { failureOf, statusOf } from '../describe-exchange.ts';
import type { TokenLevel } from '../target-client.ts';
import { COLLECTIONS, idOf, STOCK, type Collection, type Item } from '../walk.ts';
import { unknownKey } from '../unknown-key.ts';

/** Up to `count` items spread over the list, first and last included. */
export function sample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = (items.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => items[Math.round(i * step)]).filter(
    (item) => item !== undefined,
  );
}

/** The list as `level` saw it; products are walked once more for the other level. */
async function listAs(
  context: CheckContext,
  collection: Collection,
  level: TokenLevel,
): Promise<readonly Item[]> {
  if (collection.name === 'stock') return context.learned.stock.get(level) ?? [];
  if (level === context.primary) return context.learned.products;
  const walked = await context.walk(`${collection.path}?limit=100`, level);
  // A list this level cannot read is no list to compare with: said, not passed over.
  if (walked.failures.length > 0) throw new Error(walked.failures[0]?.message ?? 'the walk failed');
  return walked.items;
}

async function compareSingles(
  context: CheckContext,
  collection: Collection,
  level: TokenLevel,
): Promise<Failure[]> {
  const items = await listAs(context, collection, level);
  const results = await Promise.all(
    sample(items, 20).map(async (item): Promise<Failure[]> => {
      const id = idOf(collection, item);
      if (id === undefined) return [];
      const exchange = await context.client.request({
        path: `${collection.path}/${String(id)}`,
        as: level,
      });
      if (exchange.kind === 'no-response' || exchange.response.status !== 200) {
        return [failureOf(exchange, 'A listed item cannot be read by its id', '200')];
      }
      const data = (exchange.response.body as { data?: unknown } | undefined)?.data;
      return isDeepStrictEqual(data, item)
        ? []
        : [
            failureOf(
              exchange,
              `The single item differs from the list item (${level} token)`,
              JSON.stringify({ data: item }),
            ),
          ];
    }),
  );
  return results.flat();
}

/**
 * Rule: /{id} answers the item the list shows, at each level. Breaks it: another status or
 * quantity on the item endpoint, extra fields lost, ids truncated (32 bits). Up to 20 items spread
 * over the list, at every level with a token.
 */
function matchesList(collection: Collection): Check {
  return {
    id: `single.${collection.name}.matches-list`,
    title: `${collection.path}/{id} equals the item in the list, for each level`,
    ...levelOf(collection),
    needs: [],
    async run(context) {
      const failures: Failure[] = [];
      for (const level of context.levels) {
        failures.push(...(await compareSingles(context, collection, level)));
      }
      return found(failures.slice(0, 10));
    },
  };
}

/**
 * Rule: an id that no product has is a 404. Breaks it: 200 with null data, a 500, another
 * product. One above every id served.
 */
function unknownId(collection: Collection): Check {
  return {
    id: `single.${collection.name}.unknown-id`,
    title: `${collection.path}/{id} of an id that no product has is a 404`,
    ...(collection === STOCK
      ? { level: 'interface' as const, source: 'interface: GET /v1/stock/:id; RFC 9110 §15.5.5' }
      : levelOf(collection)),
    needs: [],
    async run(context) {
      const unknown = unknownKey(context.learned.ids) ?? 1;
      const exchange = await context.client.request({
        path: `${collection.path}/${String(unknown)}`,
        as: context.primary,
      });
      return found(
        statusOf(exchange) === 404
          ? []
          : [failureOf(exchange, 'An id that no product has is not a 404', '404')],
      );
    },
  };
}

/**
 * Ids that are not positive integers, made from a real one: a lenient reader (parseInt, Number)
 * turns `7.5`, `7abc` or `7e0` into a product that exists and answers 200.
 */
function badIds(context: CheckContext, standIn: boolean): string[] {
  const id = String(context.learned.ids[0] ?? 1);
  const lenient = ['0', `-${id}`, 'abc', `${id}.5`, `${id}abc`, `${id}e0`];
  // Spellings some readers take for an integer (a sign, digit grouping as Python's int() reads
  // it, spaces, other scripts' digits): the interface leaves them open, the stand-in refuses.
  const spelled = [
    `%2B${id}`,
    `${id.slice(0, 1)}_${id.slice(1) || '0'}`,
    `%20${id}`,
    Array.from(id, (digit) =>
      encodeURIComponent(String.fromCodePoint(0xff10 + Number(digit))),
    ).join(''),
  ];
  return standIn ? [...lenient, ...spelled] : lenient;
}

/** The interface documents /v1/stock/:id; /v1/products/:id is PRODUCT.md's. */
function levelOf(collection: Collection): { level: Level; source: string } {
  return collection === STOCK
    ? { level: 'interface', source: 'interface: GET /v1/stock/:id' }
    : {
        level: 'stand-in',
        source: 'PRODUCT.md: /v1/products payload (`/v1/products/:id` returns one)',
      };
}

/**
 * Rule: an id that is not a positive integer is a 4xx (the stand-in: a 400). Breaks it: parseInt
 * or Number reading `7.5`, `7abc`, `7e0` as 7; a 404 or 500 for `abc`; 0 and negatives served.
 */
function badIdCheck(collection: Collection, standIn: boolean): Check {
  return {
    id: `single.${collection.name}.bad-id${standIn ? '-400' : ''}`,
    title: standIn
      ? `${collection.path}/{id} with an id that is not a positive integer is a 400`
      : `${collection.path}/{id} with an id that is not a positive integer is a 4xx`,
    ...(standIn
      ? { level: 'stand-in' as const, source: 'PRODUCT.md: path id that is not a positive integer' }
      : collection === STOCK
        ? { level: 'interface' as const, source: 'interface: GET /v1/stock/:id; RFC 9110 §15.5' }
        : levelOf(collection)),
    needs: [],
    async run(context) {
      const results = await Promise.all(
        badIds(context, standIn).map(async (id) => {
          const exchange = await context.client.request({
            path: `${collection.path}/${id}`,
            as: context.primary,
          });
          const status = statusOf(exchange) ?? 0;
          const ok = standIn ? status === 400 : status >= 400 && status < 500;
          return ok
            ? []
            : [
                failureOf(
                  exchange,
                  `The id ${JSON.stringify(id)} is not refused`,
                  standIn ? '400' : '4xx',
                ),
              ];
        }),
      );
      return found(results.flat());
    },
  };
}

/**
 * Rule: an id is an integer (interface: the `id` filter and the path), and a number has more
 * than one spelling. What breaks it: ids compared as text, so that `012` is no product at all.
 * A correct service reads `012` as 12, or refuses it as malformed (a 400); it never answers
 * 404 or another product.
 */
function idSpellings(collection: Collection): Check {
  return {
    id: `single.${collection.name}.id-spellings`,
    title: `${collection.path}/{id} with the id written with leading zeros is that product, or a 400, never a 404; with its digits percent-encoded, that product`,
    ...(collection === STOCK
      ? { level: 'interface' as const, source: 'interface: GET /v1/stock/:id (integer ids)' }
      : levelOf(collection)),
    needs: [],
    async run(context) {
      const items = await listAs(context, collection, context.primary);
      const item = items.find((candidate) => idOf(collection, candidate) !== undefined);
      const id = item === undefined ? undefined : idOf(collection, item);
      if (item === undefined || id === undefined) {
        return { failures: [], skipped: 'the list gave no item to read by its id' };
      }
      const failures: Failure[] = [];
      // Percent-encoded digits are the same URI (RFC 3986 §6.2.2.2): the product itself.
      const encoded = String(id)
        .split('')
        .map((digit) => `%${digit.charCodeAt(0).toString(16).toUpperCase()}`)
        .join('');
      const exchange = await context.client.request({
        path: `${collection.path}/${encoded}`,
        as: context.primary,
      });
      const body = exchange.kind === 'response' ? exchange.response.body : undefined;
      if (
        statusOf(exchange) !== 200 ||
        !isDeepStrictEqual((body as { data?: unknown } | undefined)?.data, item)
      ) {
        failures.push(
          failureOf(
            exchange,
            `The id ${String(id)} with its digits percent-encoded (${encoded}, the same URI) is not that product`,
            `200 ${JSON.stringify({ data: item })}`,
          ),
        );
      }
      // Not a sign: `+7` is no id to a strict reader, which may answer it as any bad id (a 404).
      for (const spelled of [`0${String(id)}`, `00${String(id)}`]) {
        const exchange = await context.client.request({
          path: `${collection.path}/${spelled}`,
          as: context.primary,
        });
        const status = statusOf(exchange);
        const data = (
          exchange.kind === 'response' ? (exchange.response.body as { data?: unknown }) : undefined
        )?.data;
        if (status === 400 || (status === 200 && isDeepStrictEqual(data, item))) continue;
        failures.push(
          failureOf(
            exchange,
            `The id ${String(id)} written as ${spelled} is neither that product nor refused as malformed (a 404 says no product ${String(id)} exists)`,
            `200 ${JSON.stringify({ data: item })}, or 400`,
          ),
        );
      }
      return found(failures);
    },
  };
}

export const singleItemChecks: readonly Check[] = COLLECTIONS.flatMap((collection) => [
  matchesList(collection),
  unknownId(collection),
  idSpellings(collection),
  badIdCheck(collection, false),
  badIdCheck(collection, true),
]);
