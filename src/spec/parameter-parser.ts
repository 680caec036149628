/** @module Raw query and path strings → typed parameter values, by the spec's schemas. */
import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ParameterIssue, ParameterLocation } from '../problems/problem-error.ts';
import { createAjv } from '../source/create-ajv.ts';
import { describeAjvError } from '../source/describe-ajv-error.ts';

/** What to do with a query parameter the operation does not declare. */
export type UnknownParameters = 'reject' | 'ignore';

export type ParameterValue = string | number;

export type ParseResult =
  | { readonly ok: true; readonly values: ReadonlyMap<string, ParameterValue> }
  | { readonly ok: false; readonly issues: readonly ParameterIssue[] };

/** Raw values as the HTTP layer receives them; a repeated query parameter is an array. */
export interface RawParameters {
  readonly query: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly path: Readonly<Record<string, string | undefined>>;
  /**
   * The query as sent, when the caller has it: the HTTP layer's parser keeps a malformed
   * percent-encoding (`%zz`, a lone `%C3`) as literal text, and only the raw text tells.
   */
  readonly rawQuery?: string;
}

export type ParameterParser = (raw: RawParameters) => ParseResult;

interface ParameterRule {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly required: boolean;
  readonly kind: 'integer' | 'number' | 'string';
  readonly fallback: ParameterValue | undefined;
  readonly validate: ValidateFunction;
}

const ajv = createAjv();

/**
 * Builds the parser of one operation from its (dereferenced) parameters. Bounds, enums and
 * defaults live in the spec alone; this reads them from there.
 *
 * Why not Fastify's route schemas (the fastify-openapi-glue pattern), which run the same ajv
 * over the same schemas: PRODUCT.md's 400 names every bad parameter in `errors`, refuses unknown
 * and repeated parameters, and says which value was wrong and why; Fastify stops at its first
 * error and reports it in its own shape, which would then have to be parsed back. This parser
 * answers better, and it compiles one validator per parameter at start as Fastify would.
 */
export function createParameterParser(
  parameters: readonly OpenAPIV3_1.ParameterObject[],
  unknownParameters: UnknownParameters,
): ParameterParser {
  // Header parameters (Prefer) are read by the HTTP layer's own plugins.
  const rules = parameters.filter((parameter) => parameter.in !== 'header').map(toRule);
  const queryNames = new Set(rules.filter((rule) => rule.in === 'query').map((rule) => rule.name));
  const known = [...queryNames].join(', ') || 'none';

  return (raw) => {
    const malformed = malformedEncodings(raw.rawQuery ?? '');
    if (malformed.length > 0) return { ok: false, issues: malformed };
    const issues: ParameterIssue[] = [];
    const values = new Map<string, ParameterValue>();
    if (unknownParameters === 'reject') {
      for (const name of Object.keys(raw.query)) {
        if (!queryNames.has(name)) {
          issues.push(
            issue(name, 'query', `is not a parameter of this operation (known: ${known})`),
          );
        }
      }
    }
    for (const rule of rules) {
      const given = rule.in === 'query' ? raw.query[rule.name] : raw.path[rule.name];
      if (given === undefined) {
        if (rule.required) issues.push(issue(rule.name, rule.in, 'is required'));
        else if (rule.fallback !== undefined) values.set(rule.name, rule.fallback);
        continue;
      }
      if (typeof given !== 'string') {
        issues.push(issue(rule.name, rule.in, `is given ${given.length} times; give it once`));
        continue;
      }
      const value =
        rule.kind === 'integer'
          ? parseInteger(given)
          : rule.kind === 'number'
            ? parseNumber(given)
            : given;
      if (typeof value === 'object') {
        issues.push(issue(rule.name, rule.in, value.problem));
      } else if (!rule.validate(value)) {
        const [first] = rule.validate.errors ?? [];
        issues.push(issue(rule.name, rule.in, first ? describeAjvError(first) : 'is invalid'));
      } else {
        values.set(rule.name, value);
      }
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, values };
  };
}

function toRule(parameter: OpenAPIV3_1.ParameterObject): ParameterRule {
  if (parameter.in !== 'query' && parameter.in !== 'path') {
    throw new Error(
      `Parameter ${parameter.name} is in ${parameter.in}; only query and path are served`,
    );
  }
  const schema = (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject;
  const kind = schema.type === 'integer' || schema.type === 'number' ? schema.type : 'string';
  const fallback = schema.default as unknown;
  if (fallback !== undefined && typeof fallback !== 'string' && typeof fallback !== 'number') {
    throw new Error(`Parameter ${parameter.name} has a default that is neither string nor number`);
  }
  return {
    name: parameter.name,
    in: parameter.in,
    required: parameter.required === true,
    kind,
    fallback,
    validate: validatorOf(schema),
  };
}

/**
 * One validator per distinct schema, by its JSON text: the operations of a spec repeat the same
 * parameters (`limit`, `page`, ids), and compiling each again was most of a large spec's start
 * (2 of 9 s at 5 000 operations). ajv keeps what it compiles by the schema object, so this also
 * keeps a reloaded spec's identical schemas from piling up in it.
 */
const validators = new Map<string, ValidateFunction>();

function validatorOf(schema: OpenAPIV3_1.SchemaObject): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = validators.get(text);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    validators.set(text, validate);
  }
  return validate;
}

/**
 * A decimal integer that JavaScript holds exactly. Anything else (fractions, exponents, hex,
 * spaces, or integers beyond 2^53 - 1 that a Number would round) is refused rather than guessed.
 */
function parseInteger(text: string): number | { problem: string } {
  if (!/^-?\d+$/.test(text)) return { problem: `must be an integer, not ${quote(text)}` };
  const value = Number(text);
  return Number.isSafeInteger(value)
    ? value
    : { problem: `must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` };
}

/**
 * A decimal number as JSON writes one (a fraction, an exponent), leading zeros allowed as for
 * integers (`012.5` is 12.5). Hex, `Infinity`, `NaN`, spaces and an empty text are refused, and
 * so is a number too large for a double.
 */
function parseNumber(text: string): number | { problem: string } {
  if (!/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) {
    return { problem: `must be a number, not ${quote(text)}` };
  }
  const value = Number(text);
  return Number.isFinite(value) ? value : { problem: `is too large a number: ${quote(text)}` };
}

/**
 * The query pairs whose name or value is not valid percent-encoded UTF-8 (RFC 3986 §2.1,
 * §2.5): `%zz`, a lone `%C3`, an encoded surrogate `%ED%A0%80`. The path gets the same 400 from
 * the router; a query value must not be searched for as if it were the text written.
 */
function malformedEncodings(rawQuery: string): ParameterIssue[] {
  if (!rawQuery.includes('%')) return [];
  const issues: ParameterIssue[] = [];
  for (const pair of rawQuery.split('&')) {
    if (!pair.includes('%')) continue;
    const at = pair.indexOf('=');
    const [name, value] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    const decodedName = decodeQueryComponent(name);
    if (decodedName === undefined || decodeQueryComponent(value) === undefined) {
      issues.push(
        issue(
          decodedName ?? quote(name),
          'query',
          'is not valid percent-encoding of UTF-8 text (RFC 3986 §2.1)',
        ),
      );
    }
  }
  return issues;
}

/** A query name or value as a form decodes it (`+` a space); undefined if not valid UTF-8. */
export function decodeQueryComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/** Echoes a bad value, cut short: a message must not grow with the request. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function issue(parameter: string, location: ParameterLocation, message: string): ParameterIssue {
  return { parameter, in: location, message };
}
