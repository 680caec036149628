/** @module The issues reading a spec file's declarations raises, as start would report them. */
import { SourceError, type SourceIssue } from '../../src/problems/source-error.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';

export async function declarationIssues(file: string): Promise<readonly SourceIssue[]> {
  try {
    readDeclarations(await loadSpec(file));
  } catch (error) {
    if (error instanceof SourceError) return error.issues;
    throw error;
  }
  return [];
}
