/** JSON values as the servers build them, with the few helpers faults need to reshape them. */

export type Json = null | boolean | number | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

export function isJsonObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object member `key` of `value`, if `value` is an object and the member one too. */
export function memberObject(value: Json | undefined, key: string): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined;
  const member = value[key];
  return isJsonObject(member) ? member : undefined;
}

/** A copy of `object` without `key`. */
export function without(object: JsonObject, key: string): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
}
