/** @module One short, human sentence for an ajv error, shared by files and parameters. */
import type { ErrorObject } from 'ajv';

/** The member an error is about, when ajv reports it on the parent object. */
export function memberOf(error: ErrorObject): string | undefined {
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
    case 'type':
      return `must be ${String(params['type']).split(',').join(' or ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}
