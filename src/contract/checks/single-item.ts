/**
 * @module The interface's items judged as any declared item is (declared.ts singleCheck), and
 * the stand-in's 400 for an id that is not a positive integer.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Check, CheckContext } from '../check.ts';
import { found } from '../check.ts';
import { failureOf, statusOf } from '../describe-exchange.ts';
import { interfaceItems, interfaceLearned } from '../interface-lists.ts';
import { COLLECTIONS, type Collection } from '../walk.ts';
import { singleCheck } from './declared.ts';

/**
 * Ids that are not positive integers, made from a real one: a lenient reader (parseInt, Number)
 * turns `7.5`, `7abc` or `7e0` into a product that exists and answers 200.
 */
function badIds(context: CheckContext): string[] {
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
  return [...lenient, ...spelled];
}

/**
 * Rule (PRODUCT.md): an id that is not a positive integer is a 400, its spellings with a sign,
 * digit grouping, spaces or other scripts' digits too. Breaks it: a 404 for `abc`.
 */
function badIdAsStandIn(collection: Collection): Check {
  return {
    id: `single.${collection.name}.bad-id-400`,
    title: `${collection.path}/{id} with an id that is not a positive integer is a 400`,
    level: 'stand-in',
    source: 'PRODUCT.md: path id that is not a positive integer',
    needs: [],
    async run(context) {
      const results = await Promise.all(
        badIds(context).map(async (id) => {
          const exchange = await context.client.request({
            path: `${collection.path}/${id}`,
            as: context.primary,
          });
          return statusOf(exchange) === 400
            ? []
            : [failureOf(exchange, `The id ${JSON.stringify(id)} is not refused`, '400')];
        }),
      );
      return found(results.flat());
    },
  };
}

/** Each item of the interface's, and the stand-in's 400 for a bad id of each. */
export function singleItemChecks(spec: OpenAPIV3_1.Document): Check[] {
  return [
    ...interfaceItems(spec).map(({ item, list, level, source }) =>
      singleCheck(item, list, {
        head: { id: `single.${item.template}`, level, source },
        learnedOf: (context) => interfaceLearned(context.learned, context.primary, list.collection),
      }),
    ),
    ...COLLECTIONS.map(badIdAsStandIn),
  ];
}
