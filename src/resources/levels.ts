/** @module Token levels against the declared views: a level no view shows is refused at start. */
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
            message: `no view of the spec is declared for the level ${grant.level} (declared: ${[...levels].join(', ')})`,
          },
        ],
  );
}
