/**
 * @module The writes whose new records cannot be made whole, told at start and by `validate`
 * with file, line and field: a create of such a record would be refused.
 */
import type { CollectionDeclaration, Declarations } from '../resources/declarations.ts';
import type { SourceIssue } from '../problems/source-error.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { HTTP_METHODS, operationKey, type HttpMethod } from '../spec/operation-rules.ts';
import { unfillableFields } from './fill-record.ts';

export function writeWarnings(spec: LoadedSpec, declarations: Declarations): SourceIssue[] {
  const warnings: SourceIssue[] = [];
  for (const [path, item] of Object.entries(spec.dereferenced.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (operation === undefined) continue;
      const key = operationKey(method.toUpperCase() as HttpMethod, path, operation);
      const write = declarations.operations.get(key);
      if (write?.kind !== 'write' || write.action !== 'create') continue;
      const collection = declarations.collections.get(write.collection) as CollectionDeclaration;
      const implied = new Set(write.parents.slice(0, 1).map((parent) => parent.field));
      for (const reason of unfillableFields(collection, write.body, implied)) {
        warnings.push({
          file: spec.file,
          at: spec.locate(['paths', path, method]),
          field: `paths.${path}.${method}`,
          message: `${key} creates ${write.collection} whose required ${reason}: give it in the request schema, a default or an example`,
        });
      }
    }
  }
  return warnings;
}
