/** @module JSON Merge Patch (RFC 7396): a patch's members replace, `null` removes, objects merge. */

/** The target with the patch applied (RFC 7396 §2); neither is changed. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [member, value] of Object.entries(patch)) {
    if (value === null) {
      Reflect.deleteProperty(result, member);
      continue;
    }
    // Defined, not assigned: a member named `__proto__` stays a member.
    Object.defineProperty(result, member, {
      value: mergePatch(result[member], value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
