/** @module Finding a `$ref` cycle in a dereferenced schema, which no validator can compile. */

/**
 * The path to the first member of `schema` that holds one of the schemas around it (a `$ref`
 * cycle, made a loop of objects by dereferencing); undefined where the schema is a tree.
 */
export function cyclePath(schema: unknown): (string | number)[] | undefined {
  const around = new Set<object>();
  // A schema that many members share (a $ref used twice) is walked once.
  const done = new Set<object>();
  const visit = (value: unknown, path: (string | number)[]): (string | number)[] | undefined => {
    if (typeof value !== 'object' || value === null || done.has(value)) return undefined;
    if (around.has(value)) return path;
    around.add(value);
    for (const [member, inner] of Object.entries(value)) {
      const found = visit(inner, [...path, Array.isArray(value) ? Number(member) : member]);
      if (found !== undefined) return found;
    }
    around.delete(value);
    done.add(value);
    return undefined;
  };
  return visit(schema, []);
}
