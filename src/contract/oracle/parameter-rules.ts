/**
 * @module The checker's own reading of the spec's query parameters: which raw values the
 * interface makes valid, invalid, or leaves to the implementation. Apart from the server's
 * parser on purpose, so that a bug there cannot move the judge with it.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compilePattern } from '../../source/linear-pattern.ts';
import { instantsOf } from './instants.ts';

/**
 * `valid`: a correct service answers 200. `invalid`: it answers 4xx. `open`: either is correct
 * (a limit above the maximum may be clamped, `05` may be read as 5, an empty value as absent).
 */
export type Validity = 'valid' | 'invalid' | 'open';

export interface ParameterRule {
  readonly name: string;
  readonly schema: OpenAPIV3_1.SchemaObject;
  /**
   * How an array's items are written: one pair each (`explode`, form's default), or one value
   * they are joined in by a separator.
   */
  readonly items:
    { readonly explode: true } | { readonly explode: false; readonly separator: string };
}

/** The query parameters an operation of the spec declares. */
export function queryRules(spec: OpenAPIV3_1.Document, path: string): readonly ParameterRule[] {
  const operation = spec.paths?.[path]?.get;
  return ((operation?.parameters ?? []) as OpenAPIV3_1.ParameterObject[])
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => {
      const style = parameter.style ?? 'form';
      const explode = parameter.explode ?? style === 'form';
      const separator = style === 'pipeDelimited' ? '|' : style === 'spaceDelimited' ? ' ' : ',';
      return {
        name: parameter.name,
        schema: (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject,
        items: explode ? ({ explode: true } as const) : ({ explode: false, separator } as const),
      };
    });
}

const CANONICAL_INTEGER = /^(0|-?[1-9]\d*)$/;
const LENIENT_INTEGER = /^\s*[+-]?\d+\s*$/;
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const LENIENT_NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How the interface judges one raw value of a parameter with this schema. An array parameter's
 * one value is judged as its one item; a value that holds a separator (`,`, `|`, a space) could
 * be several items or one, by the parameter's style, and is left open. A value that breaks only
 * a `format` is open too: JSON Schema makes formats annotations unless a validator asserts them.
 */
export function judgeValue(schema: OpenAPIV3_1.SchemaObject, raw: string): Validity {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array')) {
    if (/[,| ]/.test(raw)) return 'open';
    return judgeValue('items' in schema ? schema.items : {}, raw);
  }
  if (raw === '' && schema.type !== 'string') return 'open';
  if (schema.type === 'number') {
    if (!JSON_NUMBER.test(raw)) return LENIENT_NUMBER.test(raw) ? 'open' : 'invalid';
    const value = Number(raw);
    if (!Number.isFinite(value)) return 'open';
    if (schema.minimum !== undefined && value < schema.minimum) return 'invalid';
    if (schema.maximum !== undefined && value > schema.maximum) return 'open';
    return 'valid';
  }
  if (schema.type === 'boolean') {
    if (raw === 'true' || raw === 'false') return 'valid';
    return /^(true|false|1|0)$/i.test(raw) ? 'open' : 'invalid';
  }
  if (schema.type === 'string' && schema.format !== undefined) {
    const conforms =
      schema.format === 'date'
        ? instantsOf(raw)?.kind === 'date'
        : schema.format === 'date-time'
          ? instantsOf(raw)?.kind === 'date-time'
          : schema.format === 'uuid'
            ? UUID.test(raw)
            : true;
    if (!conforms) return 'open';
  }
  if (schema.type === 'integer') {
    if (!CANONICAL_INTEGER.test(raw)) return LENIENT_INTEGER.test(raw) ? 'open' : 'invalid';
    const value = Number(raw);
    if (!Number.isSafeInteger(value)) return 'open';
    if (schema.minimum !== undefined && value < schema.minimum) return 'invalid';
    if (schema.maximum !== undefined && value > schema.maximum) return 'open';
    return 'valid';
  }
  if (Array.isArray(schema.enum)) return schema.enum.includes(raw) ? 'valid' : 'invalid';
  if (schema.type === 'string') return judgeText(schema, raw);
  return 'valid';
}

/**
 * Text against the assertions a schema makes of it: its length (in code points, as JSON Schema
 * counts) and its `pattern` (ECMA-262, unanchored); a pattern this engine cannot read is open.
 */
function judgeText(schema: OpenAPIV3_1.SchemaObject, raw: string): Validity {
  const length = Array.from(raw).length;
  if (schema.minLength !== undefined && length < schema.minLength) return 'invalid';
  if (schema.maxLength !== undefined && length > schema.maxLength) return 'invalid';
  if (schema.pattern === undefined) return 'valid';
  try {
    return compilePattern(schema.pattern).test(raw) ? 'valid' : 'invalid';
  } catch {
    return 'open';
  }
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
