/**
 * @module What the config asks of the declarations, checked at start: each token's level has a
 * view, and an order by name has a label to read in every listed collection.
 */
import type { SourceIssue } from '../problems/source-error.ts';
import type { Declarations } from './declarations.ts';

/**
 * A token whose level no declared view shows would be let in and then answered with nothing to
 * see. Each such token is an issue at its place in the config, `where` says where that is.
 */
export function unviewedLevelIssues(
  declarations: Declarations,
  tokens: readonly { readonly level: string }[],
  where: (path: readonly (string | number)[]) => Omit<SourceIssue, 'message'>,
): SourceIssue[] {
  const levels = new Set(declarations.levels);
  if (levels.size === 0) return [];
  return tokens.flatMap((grant, index) =>
    levels.has(grant.level)
      ? []
      : [
          {
            ...where(['tokens', index, 'level']),
            message: `no view of the spec is declared for the level ${grant.level} (declared: ${[...levels].join(', ') || 'none'})`,
          },
        ],
  );
}

/**
 * Lists ordered by name (`compatibility.order`) read each collection's `label`: a listed
 * collection without one would be listed by key, silently. Refused instead, at the setting.
 */
export function orderIssues(
  declarations: Declarations,
  order: string,
  where: (path: readonly (string | number)[]) => Omit<SourceIssue, 'message'>,
): SourceIssue[] {
  if (order === 'id') return [];
  const listed = new Set(
    [...declarations.operations.values()].flatMap((operation) =>
      operation.kind === 'list' ? [operation.collection] : [],
    ),
  );
  return [...listed]
    .filter((name) => declarations.collections.get(name)?.label === undefined)
    .map((name) => ({
      ...where(['compatibility', 'order']),
      message: `is ${order}, but the collection ${name} declares no label to order by (x-stockmock-collections.${name}.label)`,
    }));
}
