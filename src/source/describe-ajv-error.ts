/** @module One short, human sentence for an ajv error, shared by files and parameters. */
import type { ErrorObject } from 'ajv';

/** The member an error is about, when ajv reports it on the parent object. */
function memberOf(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  const member = params['missingProperty'] ?? params['additionalProperty'];
  return typeof member === 'string' ? member : undefined;
}

/** `must be one of available, incoming`, `must be <= 100`, `is required`, … */
export function describeAjvError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
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

/** `['products', 3, 'quantity']` → `products[3].quantity`. */
export function formatField(path: readonly (string | number)[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${String(key)}]` : i === 0 ? key : `.${key}`))
    .join('');
}
