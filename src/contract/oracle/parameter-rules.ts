/**
 * @module The checker's own reading of the spec's query parameters: which raw values the
 * interface makes valid, invalid, or leaves to the implementation. Apart from the server's
 * parser on purpose, so that a bug there cannot move the judge with it.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

/**
 * `valid`: a correct service answers 200. `invalid`: it answers 4xx. `open`: either is correct
 * (a limit above the maximum may be clamped, `05` may be read as 5, an empty value as absent).
 */
export type Validity = 'valid' | 'invalid' | 'open';

export interface ParameterRule {
  readonly name: string;
  readonly schema: OpenAPIV3_1.SchemaObject;
}

/** The query parameters an operation of the spec declares. */
export function queryRules(spec: OpenAPIV3_1.Document, path: string): readonly ParameterRule[] {
  const operation = spec.paths?.[path]?.get;
  return ((operation?.parameters ?? []) as OpenAPIV3_1.ParameterObject[])
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({
      name: parameter.name,
      schema: (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject,
    }));
}

const CANONICAL_INTEGER = /^(0|-?[1-9]\d*)$/;
const LENIENT_INTEGER = /^\s*[+-]?\d+\s*$/;

/** How the interface judges one raw value of a parameter with this schema. */
export function judgeValue(schema: OpenAPIV3_1.SchemaObject, raw: string): Validity {
  if (raw === '' && schema.type !== 'string') return 'open';
  if (schema.type === 'integer') {
    if (!CANONICAL_INTEGER.test(raw)) return LENIENT_INTEGER.test(raw) ? 'open' : 'invalid';
    const value = Number(raw);
    if (!Number.isSafeInteger(value)) return 'open';
    if (schema.minimum !== undefined && value < schema.minimum) return 'invalid';
    if (schema.maximum !== undefined && value > schema.maximum) return 'open';
    return 'valid';
  }
  if (Array.isArray(schema.enum)) return schema.enum.includes(raw) ? 'valid' : 'invalid';
  return 'valid';
}

/** A request's query as a whole: invalid if any value is, else open if any is, else valid. */
export function judgeQuery(
  rules: readonly ParameterRule[],
  values: Readonly<Record<string, string>>,
): Validity {
  const verdicts = Object.entries(values).map(([name, raw]) => {
    const rule = rules.find((candidate) => candidate.name === name);
    return rule === undefined ? 'open' : judgeValue(rule.schema, raw);
  });
  if (verdicts.includes('invalid')) return 'invalid';
  return verdicts.includes('open') ? 'open' : 'valid';
}
