/** @module The OpenAPI document: read, validated and dereferenced once at start. */
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { readSourceText } from '../source/read-source-text.ts';
import type { Position } from '../problems/source-error.ts';
import { readYamlSource } from '../source/read-yaml-source.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import {
  fetchSpecText,
  isUrlLocation,
  MAX_SPEC_BYTES,
  referenceResolver,
} from './spec-references.ts';

/** The spec the server serves, routes by and validates against. */
export interface LoadedSpec {
  readonly file: string;
  /** As written, `$ref`s kept: what /openapi.json and /openapi.yaml serve. */
  readonly document: OpenAPIV3_1.Document;
  /** Every `$ref` resolved: what the route table and the validators read. */
  readonly dereferenced: OpenAPIV3_1.Document;
  /** Where a member of the document is written, for issues with file and line. */
  readonly locate: (path: readonly (string | number)[], part?: 'value' | 'key') => Position;
}

async function readSpecText(location: string): Promise<string> {
  return isUrlLocation(location)
    ? fetchSpecText(location)
    : readSourceText(location, { maxBytes: MAX_SPEC_BYTES });
}

/** The spec shipped with stockmock. */
export const SHIPPED_SPEC = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

/** The admin API's own spec. */
export const ADMIN_SPEC = fileURLToPath(new URL('../../spec/admin-openapi.yaml', import.meta.url));

/**
 * Reads a spec file, or an http(s) URL such as a running stockmock's `/openapi.json`, and checks
 * it against the OpenAPI schema; throws with the reason if invalid.
 */
export async function loadSpec(file: string = SHIPPED_SPEC): Promise<LoadedSpec> {
  // js-yaml reads it (64 → 21 ms for the shipped spec, at every start); a syntax error is
  // reported by `yaml`, with its line (see read-yaml-source.ts).
  const source = readYamlSource(file, await readSpecText(file));
  const document = source.value as OpenAPIV3_1.Document;
  // swagger-parser mutates what it is given: hand it copies. References resolve against the
  // spec's own location, through the one resolver that decides where they may lead.
  const options = {
    resolve: { file: false, http: false, spec: referenceResolver(file) },
  } as unknown as SwaggerParser.Options;
  // validate() dereferences before it validates, and returns what it dereferenced: the one
  // pass over the document (a second dereference was a third of a large spec's load).
  const dereferenced = (await SwaggerParser.validate(
    file,
    withoutReferenceSiblings(structuredClone(document)) as never,
    options,
  )) as OpenAPIV3_1.Document;
  return deepFreeze({
    file,
    document,
    dereferenced,
    locate: (path, part) => source.locate(path, part),
  });
}

/**
 * OpenAPI 3.0 says members beside a `$ref` "SHALL be ignored" (Reference Object), and its schema
 * refuses them: converted specs often have them (`{$ref, type}`), and Prism serves them. They
 * are taken off before validation, as ignored; 3.1 allows some (and schemas any), so it is left
 * as written. Works in place on a copy.
 */
function withoutReferenceSiblings(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  if (!String((document as { openapi?: unknown }).openapi).startsWith('3.0')) return document;
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    const members = value as Record<string, unknown>;
    if (typeof members['$ref'] === 'string') {
      for (const name of Object.keys(members)) {
        if (name !== '$ref') Reflect.deleteProperty(members, name);
      }
      return;
    }
    Object.values(members).forEach(visit);
  };
  visit(document);
  return document;
}
