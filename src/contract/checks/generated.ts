/** @module Property-based requests over the parameters the spec declares, from a seed. */
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ResponseValidator } from '../../spec/response-validator.ts';
import type { Check, CheckContext, Failure } from '../check.ts';
import { found } from '../check.ts';
import { describeRequest, describeResponse } from '../describe-exchange.ts';
import { foldLoosely } from '../oracle/fold-case.ts';
import { judgeQuery, queryRules, type ParameterRule } from '../oracle/parameter-rules.ts';
import { COLLECTIONS, idOf, withQuery, type Collection, type Item } from '../walk.ts';
import { answerRuleFindings } from './http-rules.ts';
import { MAX_LIMIT } from './pagination.ts';

type Values = Readonly<Record<string, string>>;

/**
 * The parameters the interface gives each list; the others the spec declares (PRODUCT.md's
 * filters of /v1/products) are generated too, but the interface level leaves them open.
 */
const INTERFACE_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  stock: ['name', 'id', 'status', 'limit', 'page'],
  products: ['limit', 'page'],
};

/** One generated request: which list, and the raw query values. */
interface Generated {
  readonly collection: Collection;
  readonly values: Values;
}

/** Values around and inside what the schema allows, so that both 200 and 4xx answers occur. */
function arbitraryValue(rule: ParameterRule, context: CheckContext): fc.Arbitrary<string> {
  const { schema, name } = rule;
  const noise = fc.string({ maxLength: 5 });
  if (schema.type === 'integer') {
    const min = schema.minimum ?? 0;
    const max = Math.min(schema.maximum ?? min + 200, min + 200);
    const known =
      name === 'id' && context.learned.ids.length > 0
        ? [
            // By index: a million ids as arguments would overflow the stack.
            fc
              .integer({ min: 0, max: context.learned.ids.length - 1 })
              .map((index) => context.learned.ids[index] as number),
          ]
        : [];
    return fc.oneof(
      { weight: 4, arbitrary: fc.oneof(fc.integer({ min, max }), ...known).map(String) },
      {
        weight: 1,
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
  const words = [...context.learned.names.values()]
    .flatMap((n) => n.split(/\s+/))
    .filter((w) => w.length > 1);
  return words.length > 0
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...words.slice(0, 200)) },
        { weight: 1, arbitrary: noise },
      )
    : noise;
}

function arbitraryRequest(
  rules: ReadonlyMap<Collection, readonly ParameterRule[]>,
  context: CheckContext,
): fc.Arbitrary<Generated> {
  return fc.oneof(
    ...COLLECTIONS.map((collection) => {
      const entries = (rules.get(collection) ?? []).map(
        (rule) => [rule.name, arbitraryValue(rule, context)] as const,
      );
      return fc
        .record(Object.fromEntries(entries), { requiredKeys: [] })
        .map((values): Generated => ({ collection, values: values as Values }));
    }),
  );
}

/** What a 200 answer to `values` breaks, if anything: page size and every filter. */
function violation(
  context: CheckContext,
  generated: Generated,
  items: readonly Item[],
): string | undefined {
  const { collection, values } = generated;
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
    title: 'Generated list requests: 200 when valid, 4xx when invalid, items match the filters',
    level: 'interface',
    source: 'interface: GET /v1/stock and /v1/products parameters; Limits',
    needs: [],
    async run(context) {
      const property = fc.asyncProperty(arbitraryRequest(rules, context), async (generated) => {
        const path = withQuery(generated.collection.path, generated.values);
        const exchange = await context.client.request({ path, as: context.primary });
        if (exchange.kind === 'no-response') throw new Error(describeResponse(exchange));
        const got = `got ${describeResponse(exchange)}`;
        const { status, body } = exchange.response;
        const broken = answerRuleFindings(exchange);
        if (status >= 200 && status < 300) {
          broken.push(
            ...validator()
              .validate('GET', generated.collection.path, exchange.response)
              .map((f) => `${f.path}: ${f.message}`),
          );
        }
        if (broken.length > 0) throw new Error(`${broken.join('; ')}; ${got}`);
        const validity = judgeQuery(
          interfaceRules.get(generated.collection) ?? [],
          generated.values,
        );
        // A page past the end may be a 404 (an open point); no page past 1 is known to exist.
        const pastTheEnd = Number(generated.values['page'] ?? 1) > 1 && status === 404;
        if (validity === 'valid' && status !== 200 && !pastTheEnd) {
          throw new Error(`expected 200 for a valid request, ${got}`);
        }
        if (validity === 'invalid' && !(status >= 400 && status < 500))
          throw new Error(`expected a 4xx for an invalid value, ${got}`);
        if (status === 200) {
          const problem = violation(
            context,
            generated,
            (body as { data?: Item[] } | undefined)?.data ?? [],
          );
          if (problem !== undefined) throw new Error(`${problem}; ${got}`);
        }
      });
      const details = await fc.check(property, { seed: context.seed, numRuns: context.runs });
      const counterexample = details.counterexample?.[0];
      if (!details.failed || counterexample === undefined) return found([]);
      const path = withQuery(counterexample.collection.path, counterexample.values);
      const failure: Failure = {
        message:
          `A generated request failed (seed ${String(details.seed)}, shrunk ${String(details.numShrinks)} times; ` +
          `replay with --seed ${String(details.seed)})`,
        request: describeRequest({
          method: 'GET',
          url: context.client.prepare({ path, as: context.primary }).url,
          as: context.primary,
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
