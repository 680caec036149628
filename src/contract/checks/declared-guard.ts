/** @module What every check of a declared list shares: its source, and a skip without a reader. */
import type { Check, CheckContext } from '../check.ts';
import type { DeclaredList } from '../declared.ts';

/** Where a declared list's rule comes from: its operation's `x-stockmock` keyword. */
export function sourceOf(path: string, what: string): string {
  return `the spec: ${path}, x-stockmock ${what}`;
}

/** Why a declared list cannot be read: no token for a level its views name. */
export function noReader(context: CheckContext, list: DeclaredList): string | undefined {
  if (context.learned.declared.get(list.collection.path)?.holder !== undefined) return undefined;
  const levels = list.views.kind === 'per-level' ? [...list.views.byLevel.keys()] : ['any level'];
  return `needs a token of a level ${list.collection.path} has a view for: ${levels.join(' or ')} (--token ${levels[0] ?? 'LEVEL'}=TOKEN)`;
}

/** A check of a declared list, skipped with the reason while no token can read the list. */
export function guarded(check: Check, list: DeclaredList): Check {
  return {
    ...check,
    async run(context) {
      const why = noReader(context, list);
      return why === undefined ? check.run(context) : { failures: [], skipped: why };
    },
  };
}
