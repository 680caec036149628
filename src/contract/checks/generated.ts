/** @module Property-based requests over the parameters the spec declares, from a seed. */
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { foldName } from '../../catalog/fold-name.ts';
import type { LoadedSpec } from '../../spec/load-spec.ts';
import { createParameterParser } from '../../spec/parameter-parser.ts';
import type { ResponseValidator } from '../../spec/response-validator.ts';
import type { Check, CheckContext, Failure } from '../check.ts';
import { describeRequest, describeResponse } from '../describe-exchange.ts';
import { COLLECTIONS, idOf, withQuery, type Collection, type Item } from '../walk.ts';

type Values = Partial<Record<string, string>>;

/** One generated request: which list, and the raw query values. */
interface Generated {
  readonly collection: Collection;
  readonly values: Values;
}

function parametersOf(spec: LoadedSpec, collection: Collection): OpenAPIV3_1.ParameterObject[] {
  const operation = spec.dereferenced.paths?.[collection.path]?.get;
  return (operation?.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
}

/** Values around and inside what the schema allows, so that both 200 and 400 answers occur. */
function arbitraryValue(
  schema: OpenAPIV3_1.SchemaObject,
  context: CheckContext,
  name: string,
): fc.Arbitrary<string> {
  const noise = fc.string({ maxLength: 5 });
  if (schema.type === 'integer') {
    const min = schema.minimum ?? 0;
    const max = Math.min(schema.maximum ?? min + 200, min + 200);
    const known =
      name === 'id' && context.learned.ids.length > 0
        ? [fc.constantFrom(...context.learned.ids)]
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

function arbitraryRequest(spec: LoadedSpec, context: CheckContext): fc.Arbitrary<Generated> {
  return fc.oneof(
    ...COLLECTIONS.map((collection) => {
      const entries = parametersOf(spec, collection)
        .filter((parameter) => parameter.in === 'query')
        .map(
          (parameter) =>
            [
              parameter.name,
              arbitraryValue(
                (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject,
                context,
                parameter.name,
              ),
            ] as const,
        );
      return fc
        .record(Object.fromEntries(entries), { requiredKeys: [] })
        .map((values): Generated => ({ collection, values: values }));
    }),
  );
}

/** What a 200 answer to `values` must satisfy; returns the first violation, if any. */
function violation(
  context: CheckContext,
  generated: Generated,
  items: readonly Item[],
): string | undefined {
  const { collection, values } = generated;
  const limit = Number(values['limit'] ?? 10);
  if (items.length > limit)
    return `${String(items.length)} items on a page of limit ${String(limit)}`;
  for (const item of items) {
    const id = idOf(collection, item);
    if (values['id'] !== undefined && id !== Number(values['id']))
      return `id ${String(id)} does not match id=${values['id']}`;
    if (values['status'] !== undefined && item['status'] !== values['status']) {
      return `status ${String(item['status'])} does not match status=${values['status']}`;
    }
    const name =
      collection.name === 'products' ? item['name'] : context.learned.names.get(id ?? -1);
    if (
      values['name'] !== undefined &&
      typeof name === 'string' &&
      !foldName(name).includes(foldName(values['name']))
    ) {
      return `name ${JSON.stringify(name)} does not contain ${JSON.stringify(values['name'])}`;
    }
  }
  return undefined;
}

export function generatedCheck(spec: LoadedSpec, validator: ResponseValidator): Check {
  const parsers = new Map(
    COLLECTIONS.map((collection) => [
      collection.name,
      createParameterParser(parametersOf(spec, collection), 'reject'),
    ]),
  );
  return {
    id: 'generated.list-requests',
    title:
      'Generated list requests: spec-conformant, 200 exactly when valid, items match the filters',
    needs: [],
    async run(context) {
      const property = fc.asyncProperty(arbitraryRequest(spec, context), async (generated) => {
        const path = withQuery(
          generated.collection.path,
          generated.values as Record<string, string>,
        );
        const exchange = await context.client.request({ path, as: context.primary });
        if (exchange.kind === 'no-response') throw new Error(describeResponse(exchange));
        const { status, body } = exchange.response;
        const findings = validator.validate('GET', generated.collection.path, exchange.response);
        if (findings.length > 0) throw new Error(findings.map((f) => f.message).join('; '));
        const parser = parsers.get(generated.collection.name);
        const valid = parser?.({ query: generated.values, path: {} }).ok ?? true;
        if (valid !== (status === 200)) {
          throw new Error(`expected ${valid ? '200' : '400'}, got ${describeResponse(exchange)}`);
        }
        if (status === 200) {
          const problem = violation(context, generated, (body as { data: Item[] }).data);
          if (problem !== undefined) throw new Error(problem);
        }
      });
      const details = await fc.check(property, { seed: context.seed, numRuns: context.runs });
      const counterexample = details.counterexample?.[0];
      if (!details.failed || counterexample === undefined) return [];
      const path = withQuery(
        counterexample.collection.path,
        counterexample.values as Record<string, string>,
      );
      const failure: Failure = {
        message:
          `A generated request failed (seed ${String(details.seed)}, shrunk ${String(details.numShrinks)} times; ` +
          `replay with --seed ${String(details.seed)})`,
        request: describeRequest({
          method: 'GET',
          url: `${context.client.origin}${path}`,
          as: context.primary,
        }),
        actual:
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance),
      };
      return [failure];
    },
  };
}
