/**
 * @module The answers the stand-in can give to an operation served from data that the
 * operation's responses do not declare: a 400 for a bad parameter, a 401 without a token, a 404
 * for an unknown key or a page past the end. Served anyway, as problem+json (PRODUCT.md), and
 * told by `validate` with file and line, since a client generated from the spec will not expect
 * them.
 */
import type { Compatibility } from '../compatibility/compatibility.ts';
import type { SourceIssue } from '../problems/source-error.ts';
import { formatField } from '../source/describe-ajv-error.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { operationsOf } from '../spec/operation-rules.ts';
import type { Declarations } from './declarations.ts';

/** A status the stand-in may answer, and when. */
interface Possible {
  readonly status: number;
  readonly when: string;
}

export function undeclaredStatusWarnings(
  spec: LoadedSpec,
  declarations: Declarations,
  compatibility: Pick<Compatibility, 'pastTheEnd' | 'unknownQueryParameters'>,
): SourceIssue[] {
  const warnings: SourceIssue[] = [];
  const secured = (spec.dereferenced.security ?? []).length > 0;
  for (const { key, method, path, operation, item } of operationsOf(spec)) {
    const declaration = declarations.operations.get(key);
    if (declaration === undefined || (declaration.kind !== 'list' && declaration.kind !== 'item')) {
      continue;
    }
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
    const possible: Possible[] = [];
    if (parameters.length > 0 || compatibility.unknownQueryParameters === 'reject') {
      possible.push({
        status: 400,
        when: 'a parameter its schema refuses, or one it does not declare',
      });
    }
    const security = operation.security ?? (secured ? spec.dereferenced.security : []) ?? [];
    if (security.length > 0 && !security.some((one) => Object.keys(one).length === 0)) {
      possible.push({ status: 401, when: 'no token, or an unknown one' });
    }
    if (declaration.kind === 'item') {
      possible.push({ status: 404, when: 'a key no record has' });
    } else if (compatibility.pastTheEnd !== 'empty') {
      const status = compatibility.pastTheEnd === 'not-found' ? 404 : 400;
      possible.push({ status, when: 'a page past the end (compatibility.pastTheEnd)' });
    }
    const declared = Object.keys(operation.responses ?? {});
    const covers = (status: number) =>
      declared.some(
        (code) =>
          code === String(status) ||
          code.toUpperCase() === `${String(status)[0] ?? ''}XX` ||
          code === 'default',
      );
    const at = ['paths', path, method.toLowerCase(), 'responses'];
    for (const { status, when } of possible.filter((one) => !covers(one.status))) {
      warnings.push({
        file: spec.file,
        at: spec.locate(at),
        field: formatField(at),
        message: `${method} ${path} answers ${String(status)} for ${when}, but declares no ${String(status)}: it is answered anyway, as problem+json`,
      });
    }
  }
  return warnings;
}
