/**
 * @module Property-based requests over the parameters the spec declares, from a seed: any of
 * them in any order, GET or HEAD, names cut anywhere (every plane the data holds, any length up
 * to the whole name). Where every correct reading agrees, the page is computed from the lists
 * learned whole, and the answer must be exactly it.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ResponseValidator } from '../../spec/response-validator.ts';
import type { Check, CheckContext, Failure } from '../check.ts';
import { found } from '../check.ts';
import { describeRequest, describeResponse } from '../describe-exchange.ts';
import { foldLoosely } from '../oracle/fold-case.ts';
import { judgeQuery, queryRules, type ParameterRule } from '../oracle/parameter-rules.ts';
import { levelName, type Credentials, type TokenLevel } from '../target-client.ts';
import { COLLECTIONS, idOf, someIds, STOCK, type Collection, type Id, type Item } from '../walk.ts';
import { answerRuleFindings, headDiffers } from './http-rules.ts';
import { DEFAULT_LIMIT, learnedItems, MAX_LIMIT } from './pagination.ts';
import {
  shortPiece,
  textEdges,
  textMaterial,
  textValue,
  type TextMaterial,
} from './text-values.ts';

type Values = Readonly<Record<string, string>>;

/**
 * The parameters the interface gives each list; the others the spec declares (PRODUCT.md's
 * filters of /v1/products) are generated too, but the interface level leaves them open.
 */
const INTERFACE_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  stock: ['name', 'id', 'status', 'limit', 'page'],
  products: ['limit', 'page'],
};

/** One generated request: which list, its query pairs in the order sent, its method, who asks. */
interface Generated {
  readonly collection: Collection;
  readonly pairs: readonly (readonly [string, string])[];
  readonly method: 'GET' | 'HEAD';
  readonly as: Credentials;
  /** Sent as written, not percent-encoded: a malformed escape a client may type. */
  readonly written?: true;
}

/**
 * Who asks: each level as often as the two without a known token, one after another over the
 * client's kept-alive connections, so that a level kept for a connection shows.
 */
function askers(context: CheckContext): Credentials[] {
  return [...context.levels, ...context.levels, 'none', 'wrong'];
}

const valuesOf = (generated: Generated): Values => Object.fromEntries(generated.pairs);

/** The path with the query as generated: its pairs in their order, each percent-encoded. */
function pathOf(generated: Generated): string {
  const encode = generated.written === true ? (text: string) => text : encodeURIComponent;
  const query = generated.pairs
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .join('&');
  return query === '' ? generated.collection.path : `${generated.collection.path}?${query}`;
}

/** A number one step past a bound, exact past 2^53 where the bound is an integer. */
function beyond(bound: number, step: 1 | -1): string {
  return Number.isInteger(bound) ? String(BigInt(bound) + BigInt(step)) : String(bound + step);
}

/** What name needles are made of: the names the product list shows. */
function nameMaterial(context: CheckContext): TextMaterial {
  return textMaterial([...context.learned.names.values()]);
}

/**
 * Requests made on purpose before the random ones: each parameter alone at each of its edges
 * (empty, each bound and its outer neighbour, the highest id and past it, the last page and
 * past it, each rarer character of the names, the longest name and one character past it), a
 * page with a size in either order, a filter with a later page, two filters in either order,
 * and filtered HEADs.
 */
function boundaryRequests(
  rules: ReadonlyMap<Collection, readonly ParameterRule[]>,
  context: CheckContext,
): Generated[] {
  const names = nameMaterial(context);
  const piece = shortPiece(names.longest[0] ?? '');
  const ids = context.learned.ids.filter((id): id is number => typeof id === 'number');
  const highest = ids.reduce((most, id) => Math.max(most, id), 0);
  const requests: Generated[] = [];
  for (const collection of COLLECTIONS) {
    const total = learnedItems(context, collection).length;
    const lastPage = Math.max(1, Math.ceil(total / DEFAULT_LIMIT));
    const named = new Map((rules.get(collection) ?? []).map((rule) => [rule.name, rule]));
    const edges = (name: string): string[] => {
      const rule = named.get(name);
      if (rule === undefined) return [];
      const { schema } = rule;
      // Each bound the schema sets, and its outer neighbour (as text: past 2^53 too).
      const bounds =
        schema.type === 'integer'
          ? [
              ...(schema.minimum === undefined
                ? []
                : [String(schema.minimum), beyond(schema.minimum, -1)]),
              ...(schema.maximum === undefined
                ? []
                : [String(schema.maximum), beyond(schema.maximum, 1)]),
            ]
          : [];
      return [...bounds, ...edgesOf(name, schema)];
    };
    const edgesOf = (name: string, schema: ParameterRule['schema']): string[] => {
      switch (name) {
        case 'name':
          return textEdges(names);
        case 'id':
          return ['', '0', String(ids[0] ?? 1), String(highest), String(highest + 1)];
        case 'limit':
          return ['', '0', '1', String(MAX_LIMIT), String(MAX_LIMIT + 1)];
        case 'page':
          return ['', '0', '1', '2', String(lastPage), String(lastPage + 1)];
        default:
          return Array.isArray(schema.enum) ? ['', ...schema.enum.map(String)] : [];
      }
    };
    const get = (...pairs: (readonly [string, string])[]) => {
      if (pairs.every(([name]) => named.has(name))) {
        requests.push({ collection, pairs, method: 'GET', as: context.primary });
      }
    };
    for (const name of named.keys()) for (const value of edges(name)) get([name, value]);
    get(['page', '2'], ['limit', '5']);
    get(['limit', '5'], ['page', '2']);
    get(['id', String(ids[0] ?? 1)], ['page', '2']);
    get(['name', piece], ['status', 'available']);
    get(['status', 'available'], ['name', piece]);
    for (const pairs of [
      [['name', piece]],
      [
        ['status', 'incoming'],
        ['limit', '3'],
      ],
    ] as const) {
      if (pairs.every(([name]) => named.has(name))) {
        requests.push({ collection, pairs, method: 'HEAD', as: context.primary });
      }
    }
    // Malformed escapes as a client may type them: a 400 or the text as written, never a 5xx.
    if (named.has('name')) {
      for (const value of ['100%', '%zz', '%E2%82', '%FF']) {
        requests.push({
          collection,
          pairs: [['name', value]],
          method: 'GET',
          as: context.primary,
          written: true,
        });
      }
    }
    // Each level with each filter alone at a value that keeps items: a view that leaks only
    // under a filter shows there.
    const status = named.get('status')?.schema;
    for (const as of context.levels) {
      const filtered: (readonly [string, string])[] = [
        ...(Array.isArray(status?.enum)
          ? status.enum.map((value) => ['status', String(value)] as const)
          : []),
        ['name', piece],
        ['id', String(ids[0] ?? 1)],
      ];
      for (const pair of filtered) {
        if (named.has(pair[0])) requests.push({ collection, pairs: [pair], method: 'GET', as });
      }
    }
    // Each level, then no token and a wrong one, on the connections the levels used.
    for (const as of [...context.levels, 'none', 'wrong'] as const) {
      requests.push({ collection, pairs: [['limit', '3']], method: 'GET', as });
    }
  }
  return requests;
}

/** Values around and inside what the schema allows, so that both 200 and 4xx answers occur. */
function arbitraryValue(rule: ParameterRule, context: CheckContext): fc.Arbitrary<string> {
  const { schema, name } = rule;
  const noise = fc.string({ maxLength: 5 });
  if (schema.type === 'integer') {
    const min = schema.minimum ?? 0;
    const max = Math.min(schema.maximum ?? min + 200, min + 200);
    const ids = context.learned.ids;
    const highest = ids.reduce<number>(
      (most, id) => (typeof id === 'number' && id > most ? id : most),
      0,
    );
    const known =
      name === 'id' && ids.length > 0
        ? [
            // By index: a million ids as arguments would overflow the stack.
            fc.integer({ min: 0, max: ids.length - 1 }).map((index) => ids[index] as number),
            // The highest id and its neighbours: where an id stops being a safe integer.
            fc.constantFrom(highest, highest + 1, highest - 1),
          ]
        : [];
    // Pages and sizes that fall inside the list: a position past its end says little.
    const near =
      name === 'page' || name === 'limit'
        ? [
            {
              weight: 4,
              arbitrary: fc.integer({ min: Math.max(min, 1), max: min + 12 }).map(String),
            },
          ]
        : [];
    return fc.oneof(
      ...near,
      { weight: 4, arbitrary: fc.oneof(fc.integer({ min, max }), ...known).map(String) },
      // Each bound's outer neighbour, and a decimal.
      {
        weight: 2,
        arbitrary: fc.constantFrom(String(min - 1), String((schema.maximum ?? max) + 1), '1.5'),
      },
      { weight: 1, arbitrary: noise },
    );
  }
  if (Array.isArray(schema.enum)) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...schema.enum.map(String)) },
      { weight: 1, arbitrary: noise },
    );
  }
  return textValue(nameMaterial(context));
}

function arbitraryRequest(
  rules: ReadonlyMap<Collection, readonly ParameterRule[]>,
  context: CheckContext,
): fc.Arbitrary<Generated> {
  return fc.oneof(
    ...COLLECTIONS.map((collection) => {
      return fc
        .tuple(
          fc.subarray(
            (rules.get(collection) ?? []).map((rule) =>
              arbitraryValue(rule, context).map((value) => [rule.name, value] as const),
            ),
          ),
          fc.constantFrom('GET' as const, 'GET' as const, 'HEAD' as const),
          fc.constantFrom(...askers(context)),
        )
        .chain(([chosen, method, as]) =>
          fc
            .tuple(...chosen)
            .chain((pairs) => fc.shuffledSubarray(pairs, { minLength: pairs.length }))
            .map((pairs): Generated => ({ collection, pairs, method, as })),
        );
    }),
  );
}

/** What a 200 answer to `values` breaks, if anything: page size and every filter. */
function violation(
  context: CheckContext,
  generated: Generated,
  items: readonly Item[],
): string | undefined {
  const { collection } = generated;
  const values = valuesOf(generated);
  const asked = Number(values['limit'] ?? 10);
  const limit = Number.isSafeInteger(asked) && asked >= 1 ? Math.min(asked, MAX_LIMIT) : MAX_LIMIT;
  if (items.length > limit)
    return `${String(items.length)} items on a page of limit ${String(limit)}`;
  // The filters of /v1/products are PRODUCT.md's: the interface level does not hold them.
  if (collection.name !== 'stock') return undefined;
  for (const item of items) {
    const id = idOf(collection, item);
    if (
      values['id'] !== undefined &&
      /^[1-9]\d*$/.test(values['id']) &&
      id !== Number(values['id'])
    )
      return `id ${String(id)} does not match id=${values['id']}`;
    if (values['status'] !== undefined && item['status'] !== values['status']) {
      return `status ${String(item['status'])} does not match status=${values['status']}`;
    }
    const name = context.learned.names.get(id ?? -1);
    const needle = values['name'];
    if (
      needle !== undefined &&
      typeof name === 'string' &&
      !foldLoosely(name).includes(foldLoosely(needle))
    ) {
      return `name ${JSON.stringify(name)} does not contain ${JSON.stringify(needle)} in any case`;
    }
  }
  return undefined;
}

/**
 * The ids of the page a correct service serves for a valid request, from the list learned
 * whole in the order it was served: undefined where correct readings may differ (a name in
 * another case, PRODUCT.md's filters of /v1/products, a page past the end, a limit over the
 * most, which a service may clamp).
 */
function expectedIds(context: CheckContext, generated: Generated): Id[] | undefined {
  const { collection } = generated;
  const values = valuesOf(generated);
  const limit = values['limit'] === undefined ? DEFAULT_LIMIT : Number(values['limit']);
  const page = values['page'] === undefined ? 1 : Number(values['page']);
  if (!(limit >= 1 && limit <= MAX_LIMIT && page >= 1)) return undefined;
  const filters = Object.keys(values).filter((name) => name !== 'limit' && name !== 'page');
  // The interface's own filters only: the others are PRODUCT.md's, which this level leaves open.
  if (filters.some((name) => collection !== STOCK || !['id', 'status', 'name'].includes(name))) {
    return undefined;
  }
  const nameOf = (item: Item) => context.learned.names.get(idOf(collection, item) ?? -1);
  const keeps = (item: Item, loose: boolean): boolean =>
    filters.every((name) => {
      const value = values[name] ?? '';
      if (name === 'id') return idOf(collection, item) === Number(value);
      if (name === 'status') return item['status'] === value;
      const label = nameOf(item);
      if (name !== 'name' || label === undefined) return false;
      return loose ? foldLoosely(label).includes(foldLoosely(value)) : label.includes(value);
    });
  const items = learnedItems(context, collection);
  // A name the product list does not show cannot be judged: the service still filters by it.
  if (filters.includes('name') && items.some((item) => nameOf(item) === undefined)) {
    return undefined;
  }
  const strict = items.filter((item) => keeps(item, false));
  if (items.filter((item) => keeps(item, true)).length !== strict.length) return undefined;
  const start = (page - 1) * limit;
  if (start > 0 && start >= strict.length) return undefined;
  return strict.slice(start, start + limit).flatMap((item) => {
    const id = idOf(collection, item);
    return id === undefined ? [] : [id];
  });
}

/**
 * An item shown otherwise than the asking level saw it in the list walked whole: a view that
 * leaks, or hides, under a filter or a page only. Stock items by level; product records where
 * the level that walked them asks.
 */
function otherView(
  context: CheckContext,
  generated: Generated,
  items: readonly Item[],
): string | undefined {
  const { collection, as } = generated;
  if (as === 'none' || as === 'wrong') return undefined;
  const level = levelName(as);
  const whole =
    collection === STOCK
      ? context.learned.stock.get(level as TokenLevel)
      : as === context.primary
        ? context.learned.products
        : undefined;
  if (whole === undefined) return undefined;
  const seen = new Map(whole.map((item) => [idOf(collection, item), item]));
  for (const item of items) {
    const known = seen.get(idOf(collection, item));
    if (known !== undefined && !isDeepStrictEqual(known, item)) {
      return `item ${String(idOf(collection, item))} is ${JSON.stringify(item)}, where the ${level} level's whole list shows ${JSON.stringify(known)}`;
    }
  }
  return undefined;
}

/**
 * Requests per `--runs`: this check's are the ones with computed answers, and cost a millisecond
 * each (two lists, five parameters each, in any order and by either method to cover).
 */
const RUNS_PER_RUN = 3;

export function generatedCheck(
  spec: OpenAPIV3_1.Document,
  validator: () => ResponseValidator,
): Check {
  const rules = new Map(
    COLLECTIONS.map((collection) => [collection, queryRules(spec, collection.path)]),
  );
  const interfaceRules = new Map(
    COLLECTIONS.map((collection) => [
      collection,
      (rules.get(collection) ?? []).filter((rule) =>
        (INTERFACE_PARAMETERS[collection.name] ?? []).includes(rule.name),
      ),
    ]),
  );
  return {
    id: 'generated.list-requests',
    title:
      'Generated list requests (each parameter at its edges, then seeded): 200 when valid, 4xx when invalid, the exact page where every reading agrees, HEAD as GET',
    level: 'interface',
    source: 'interface: GET /v1/stock and /v1/products parameters; Limits',
    needs: [],
    async run(context) {
      const property = fc.asyncProperty(arbitraryRequest(rules, context), async (generated) => {
        const path = pathOf(generated);
        const { method, as } = generated;
        const exchange = await context.client.request({ method, path, as });
        if (exchange.kind === 'no-response') throw new Error(describeResponse(exchange));
        const got = `got ${describeResponse(exchange)}`;
        const { status, body } = exchange.response;
        if (method === 'HEAD') {
          const asGet = await context.client.request({ path, as });
          const differs = headDiffers(exchange, asGet);
          if (differs !== undefined) throw new Error(differs);
        }
        if (as === 'none' || as === 'wrong') {
          // Whether a token or a value is judged first is the service's to choose.
          const valid =
            judgeQuery(interfaceRules.get(generated.collection) ?? [], valuesOf(generated)) ===
            'valid';
          if (status === 401 || (!valid && status >= 400 && status < 500)) return;
          throw new Error(
            `expected 401 for a request ${as === 'none' ? 'without a token' : 'with a token the service does not know'}, ${got}`,
          );
        }
        const broken = answerRuleFindings(exchange);
        if (generated.written === true) {
          if (broken.length > 0) throw new Error(`${broken.join('; ')}; ${got}`);
          return;
        }
        if (status >= 200 && status < 300 && method === 'GET') {
          broken.push(
            ...validator()
              .validate('GET', generated.collection.path, exchange.response)
              .map((f) => `${f.path}: ${f.message}`),
          );
        }
        if (broken.length > 0) throw new Error(`${broken.join('; ')}; ${got}`);
        const values = valuesOf(generated);
        const validity = judgeQuery(interfaceRules.get(generated.collection) ?? [], values);
        // A page past the end may be a 404 (an open point); no page past 1 is known to exist.
        const pastTheEnd = Number(values['page'] ?? 1) > 1 && status === 404;
        if (validity === 'valid' && status !== 200 && !pastTheEnd) {
          throw new Error(`expected 200 for a valid request, ${got}`);
        }
        if (validity === 'invalid' && !(status >= 400 && status < 500))
          throw new Error(`expected a 4xx for an invalid value, ${got}`);
        if (status === 200 && method === 'GET') {
          const items = (body as { data?: Item[] } | undefined)?.data ?? [];
          const problem = violation(context, generated, items);
          if (problem !== undefined) throw new Error(`${problem}; ${got}`);
          const shown = otherView(context, generated, items);
          if (shown !== undefined) throw new Error(`${shown}; ${got}`);
          const expected = validity === 'valid' ? expectedIds(context, generated) : undefined;
          const ids = items.map((item) => idOf(generated.collection, item));
          if (expected !== undefined && JSON.stringify(ids) !== JSON.stringify(expected)) {
            throw new Error(
              `expected the items ${someIds(expected, 8)} (${String(expected.length)}), got ${someIds(ids, 8)} (${String(ids.length)}); ${got}`,
            );
          }
        }
      });
      const boundaries = boundaryRequests(rules, context);
      // fast-check counts the examples among the runs.
      const details = await fc.check(property, {
        seed: context.seed,
        numRuns: boundaries.length + context.runs * RUNS_PER_RUN,
        examples: boundaries.map((request) => [request]),
      });
      const counterexample = details.counterexample?.[0];
      if (!details.failed || counterexample === undefined) return found([]);
      const path = pathOf(counterexample);
      const failure: Failure = {
        message:
          `A generated request failed (seed ${String(details.seed)}, shrunk ${String(details.numShrinks)} times; ` +
          `replay with --seed ${String(details.seed)})`,
        request: describeRequest({
          method: counterexample.method,
          url: context.client.prepare({ path, as: counterexample.as }).url,
          as: counterexample.as,
        }),
        actual:
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance),
      };
      return found([failure]);
    },
  };
}
