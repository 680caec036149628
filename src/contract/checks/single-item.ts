/** @module The single endpoint agrees with the list, and an unknown id is a 404. */
import { isDeepStrictEqual } from 'node:util';
import type { AccessLevel } from '../../access/access-level.ts';
import type { Check, CheckContext, Failure } from '../check.ts';
import { failureOf } from '../describe-exchange.ts';
import { COLLECTIONS, idOf, type Collection, type Item } from '../walk.ts';

/** Up to `count` items spread over the list, first and last included. */
export function sample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = (items.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => items[Math.round(i * step)]).filter(
    (item) => item !== undefined,
  );
}

async function compareSingles(
  context: CheckContext,
  collection: Collection,
  level: AccessLevel,
  items: readonly Item[],
): Promise<Failure[]> {
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
        : [failureOf(exchange, 'The single item differs from the list item', JSON.stringify(item))];
    }),
  );
  return results.flat();
}

function matchesList(collection: Collection): Check {
  return {
    id: `single.${collection.name}.matches-list`,
    title: `${collection.path}/{id} equals the item in the list, and an unknown id is a 404`,
    needs: [],
    async run(context) {
      const failures: Failure[] = [];
      if (collection.name === 'stock') {
        for (const level of context.levels) {
          failures.push(
            ...(await compareSingles(
              context,
              collection,
              level,
              context.learned.stock.get(level) ?? [],
            )),
          );
        }
      } else {
        failures.push(
          ...(await compareSingles(context, collection, context.primary, context.learned.products)),
        );
      }
      const unknown = Math.max(0, ...context.learned.ids) + 1;
      const exchange = await context.client.request({
        path: `${collection.path}/${String(unknown)}`,
        as: context.primary,
      });
      if (exchange.kind === 'no-response' || exchange.response.status !== 404) {
        failures.push(failureOf(exchange, 'An id that no product has is not a 404', '404'));
      }
      return failures;
    },
  };
}

export const singleItemChecks: readonly Check[] = COLLECTIONS.map(matchesList);
