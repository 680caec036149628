/** @module One short, human sentence for an ajv error, shared by files and parameters. */
import type { ErrorObject } from 'ajv';
import { typoOf } from '../util/typo-of.ts';

/**
 * The member an error is about, when ajv reports it on the parent object. An unknown member is
 * named only where it is a likely typo of a known one (`prot` for `port`): any other key may be
 * a line of a system file read as YAML, or a token pasted in the wrong place, and is never
 * echoed.
 */
function memberOf(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  const missing = params['missingProperty'];
  if (typeof missing === 'string') return missing;
  const unknown = params['additionalProperty'];
  return typeof unknown === 'string' && typoOf(unknown, knownMembers(error)) !== undefined
    ? unknown
    : undefined;
}

/** The members the object's schema names (ajv's `verbose` gives the schema with the error). */
function knownMembers(error: ErrorObject): string[] {
  const properties = (error.parentSchema as { properties?: unknown } | undefined)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** `must be one of available, incoming`, `must be <= 100`, `is required`, … */
export function describeAjvError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties': {
      const unknown = String(params['additionalProperty']);
      const known = knownMembers(error);
      const typo = typoOf(unknown, known);
      if (typo !== undefined) return `is not a known field (did you mean ${typo}?)`;
      const listed = known.length === 0 ? '' : `; known: ${known.slice(0, 12).join(', ')}`;
      return `holds a field that is not known here${listed}`;
    }
    case 'enum':
      return `must be one of ${(params['allowedValues'] as unknown[]).map(String).join(', ')}`;
    case 'minItems':
      return params['limit'] === 1
        ? 'must list at least one'
        : `must list at least ${String(params['limit'])}`;
    case 'type':
      return `must be ${String(params['type']).split(',').join(' or ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * Where an error stands: the path of its field, an unknown member included whether or not a
 * message may name it (`locate` reads it; nothing shows it).
 */
export function locationPathOf(error: ErrorObject): (string | number)[] {
  const params = error.params as Record<string, unknown>;
  const member = params['missingProperty'] ?? params['additionalProperty'];
  const path = parseInstancePath(error.instancePath);
  return typeof member === 'string' ? [...path, member] : path;
}

/**
 * The path of the field an error is about: `['products', 3, 'name']`. A missing or unknown
 * member is reported by ajv on its object; the path names the member itself.
 */
export function fieldPathOf(error: ErrorObject): (string | number)[] {
  const path = parseInstancePath(error.instancePath);
  const member = memberOf(error);
  return member === undefined ? path : [...path, member];
}

/** `/products/3/quantity` → `['products', 3, 'quantity']` (JSON Pointer, RFC 6901). */
export function parseInstancePath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((token) => (/^(0|[1-9]\d*)$/.test(token) ? Number(token) : token));
}

/**
 * `['products', 3, 'quantity']` → `products[3].quantity`. A key that does not look like a field
 * name (a line of some other file, a long text) is shown as `[…]`: a message names places, never
 * what a file holds.
 */
export function formatField(path: readonly (string | number)[]): string {
  // A path as deep as the depth limit is named by its start: the line says the rest.
  const shown = path.length > LONGEST_FIELD ? path.slice(0, LONGEST_FIELD) : path;
  const text = shown
    .map((key, i) => {
      if (typeof key === 'number') return `[${String(key)}]`;
      if (!SHOWN_KEY.test(key)) return '[…]';
      return i === 0 ? key : `.${key}`;
    })
    .join('');
  return shown === path ? text : `${text}…`;
}

/** The segments of a field path a message names at most. */
const LONGEST_FIELD = 12;

/** A key a message may name: a name or a path (`/v1/stock/{id}`), not a sentence or a line. */
const SHOWN_KEY = /^[A-Za-z0-9_$./{}~-]{1,128}$/;
