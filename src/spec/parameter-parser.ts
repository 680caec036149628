/** @module Raw query and path strings → typed parameter values, by the spec's schemas. */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ParameterIssue, ParameterLocation } from '../problems/problem-error.ts';
import { createAjv } from '../source/create-ajv.ts';
import { describeAjvError } from '../source/describe-ajv-error.ts';
import {
  parameterShapeOf,
  type ParameterShape,
  type ParameterValue,
  type ScalarKind,
  type ScalarValue,
} from './parameter-style.ts';

/** What to do with a query parameter the operation does not declare. */
export type UnknownParameters = 'reject' | 'ignore';

export type { ParameterValue } from './parameter-style.ts';

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
  /** Where its value is read: the name, or for a path parameter the router's name for it. */
  readonly key: string;
  readonly in: 'query' | 'path';
  readonly required: boolean;
  readonly shape: ParameterShape;
  readonly fallback: ParameterValue | undefined;
  readonly validate: ValidateFunction;
}

const ajv = createAjv();

/**
 * Builds the parser of one operation from its (dereferenced) parameters. Each value is read as
 * its schema's type says (integer, number, boolean, text; an array of these by its `style` and
 * `explode`), then checked by the schema itself, so bounds, enums, formats and defaults live in
 * the spec alone.
 *
 * Why not Fastify's route schemas (the fastify-openapi-glue pattern), which run the same ajv
 * over the same schemas: PRODUCT.md's 400 names every bad parameter in `errors`, refuses unknown
 * and repeated parameters, and says which value was wrong and why; Fastify stops at its first
 * error and reports it in its own shape, which would then have to be parsed back, and it reads
 * no `style`. This parser answers better, and it compiles one validator per parameter at start
 * as Fastify would.
 */
export function createParameterParser(
  parameters: readonly OpenAPIV3_1.ParameterObject[],
  unknownParameters: UnknownParameters,
  /** Query parameters that carry a credential (an API key), read by the security check. */
  credentials: ReadonlySet<string> = new Set(),
  /** Path parameters the router names otherwise (route-table.ts): spec name → router name. */
  routerNames: ReadonlyMap<string, string> = new Map(),
): ParameterParser {
  // Header parameters (Prefer) are read by the HTTP layer's own plugins.
  const rules = parameters
    .filter((parameter) => parameter.in !== 'header')
    .map((parameter) => toRule(parameter, routerNames));
  const queryNames = new Set(rules.filter((rule) => rule.in === 'query').map((rule) => rule.name));
  const known = [...queryNames].join(', ') || 'none';

  return (raw) => {
    const malformed = malformedEncodings(raw.rawQuery ?? '');
    if (malformed.length > 0) return { ok: false, issues: malformed };
    const issues: ParameterIssue[] = [];
    const values = new Map<string, ParameterValue>();
    if (unknownParameters === 'reject') {
      for (const name of Object.keys(raw.query)) {
        if (!queryNames.has(name) && !credentials.has(name)) {
          issues.push(
            issue(name, 'query', `is not a parameter of this operation (known: ${known})`),
          );
        }
      }
    }
    for (const rule of rules) {
      const given = rule.in === 'query' ? raw.query[rule.key] : raw.path[rule.key];
      if (given === undefined) {
        if (rule.required) issues.push(issue(rule.name, rule.in, 'is required'));
        else if (rule.fallback !== undefined) values.set(rule.name, rule.fallback);
        continue;
      }
      const value = readValue(rule.shape, given);
      if (typeof value === 'object' && !Array.isArray(value)) {
        issues.push(issue(rule.name, rule.in, (value as { problem: string }).problem));
      } else if (!rule.validate(value)) {
        const [first] = rule.validate.errors ?? [];
        issues.push(issue(rule.name, rule.in, first ? describeItemError(first) : 'is invalid'));
      } else {
        values.set(rule.name, value);
      }
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, values };
  };
}

type Problem = { readonly problem: string };

/** A parameter's text (or its repeated texts) as its shape reads it. */
function readValue(
  shape: ParameterShape,
  given: string | readonly string[],
): ParameterValue | Problem {
  if (shape.kind === 'scalar') {
    if (typeof given !== 'string') {
      return { problem: `is given ${String(given.length)} times; give it once` };
    }
    return readScalar(shape.scalar, given);
  }
  let texts: readonly string[];
  if (shape.style.explode) texts = typeof given === 'string' ? [given] : given;
  else if (typeof given !== 'string') {
    return {
      problem: `is given ${String(given.length)} times; give its items once, separated by ${quote(shape.style.separator)}`,
    };
  } else texts = given.split(shape.style.separator);
  const items: ScalarValue[] = [];
  for (const [index, text] of texts.entries()) {
    const item = readScalar(shape.item, text);
    if (typeof item === 'object') return { problem: `item ${String(index + 1)} ${item.problem}` };
    items.push(item);
  }
  return items;
}

function readScalar(kind: ScalarKind, text: string): ScalarValue | Problem {
  switch (kind) {
    case 'integer':
      return parseInteger(text);
    case 'number':
      return parseNumber(text);
    case 'boolean':
      return text === 'true'
        ? true
        : text === 'false'
          ? false
          : { problem: `must be true or false, not ${quote(text)}` };
    case 'string':
      return text;
  }
}

/** An ajv error of an array's item names the item, counted from 1 as the problem above does. */
function describeItemError(error: ErrorObject): string {
  const item = /^\/(\d+)$/.exec(error.instancePath);
  const message = describeAjvError(error);
  return item === null ? message : `item ${String(Number(item[1]) + 1)} ${message}`;
}

function toRule(
  parameter: OpenAPIV3_1.ParameterObject,
  routerNames: ReadonlyMap<string, string>,
): ParameterRule {
  if (parameter.in !== 'query' && parameter.in !== 'path') {
    throw new Error(
      `Parameter ${parameter.name} is in ${parameter.in}; only query and path are served`,
    );
  }
  const schema = (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject;
  const shape = parameterShapeOf(parameter);
  if (typeof shape === 'string') throw new Error(`Parameter ${parameter.name}: ${shape}`);
  const fallback = schema.default as unknown;
  if (fallback !== undefined && !isParameterValue(fallback)) {
    throw new Error(`Parameter ${parameter.name} has a default that a URL cannot give`);
  }
  return {
    name: parameter.name,
    key: (parameter.in === 'path' ? routerNames.get(parameter.name) : undefined) ?? parameter.name,
    in: parameter.in,
    required: parameter.required === true,
    shape,
    fallback,
    validate: validatorOf(schema),
  };
}

function isScalar(value: unknown): value is ScalarValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isParameterValue(value: unknown): value is ParameterValue {
  return isScalar(value) || (Array.isArray(value) && value.every(isScalar));
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
function parseInteger(text: string): number | Problem {
  if (!/^-?\d+$/.test(text)) return { problem: `must be an integer, not ${quote(text)}` };
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value;
  // Only the side it is beyond: a parameter with a minimum of 1 was never open to -2^53.
  return value > 0
    ? { problem: `must be at most ${String(Number.MAX_SAFE_INTEGER)}` }
    : { problem: `must be at least -${String(Number.MAX_SAFE_INTEGER)}` };
}

/**
 * A decimal number as JSON writes one (a fraction, an exponent), leading zeros allowed as for
 * integers (`012.5` is 12.5). Hex, `Infinity`, `NaN`, spaces and an empty text are refused, and
 * so is a number too large for a double.
 */
function parseNumber(text: string): number | Problem {
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
