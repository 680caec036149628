/** @module The OpenAPI document: read, validated and dereferenced once at start. */
import { createHash } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { readSourceText, type ReadOptions } from '../source/read-source-text.ts';
import { SourceError, type Position } from '../problems/source-error.ts';
import { formatField } from '../source/describe-ajv-error.ts';
import { readYamlSource, refuseOnIssues } from '../source/read-yaml-source.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import { openApiSchemaIssues, schemaVersionOf } from './openapi-schema.ts';
import { templateNameFaults } from './operation-rules.ts';
import { takeOffSchemaFaults } from './schema-faults.ts';
import type { ServedFault } from './served-faults.ts';
import {
  fetchSpecText,
  isUrlLocation,
  MAX_SPEC_BYTES,
  readReference,
  referencePath,
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
  /** The `$ref`s to other files that were read, as written: with `file`, what it was read from. */
  readonly references: readonly string[];
  /** A digest of every text it was read from: a reload that finds the same one keeps the spec. */
  readonly fingerprint: string;
  /**
   * Faults confined to one schema or one path template, served around (served-faults.ts): each
   * schema fault is already taken off `document` and `dereferenced`.
   */
  readonly faults: readonly ServedFault[];
}

async function readSpecText(location: string, read: ReadOptions = {}): Promise<string> {
  return isUrlLocation(location)
    ? fetchSpecText(location)
    : readSourceText(location, { ...read, maxBytes: MAX_SPEC_BYTES });
}

/** One digest over a spec's texts, in the order read, each with where it came from. */
function fingerprintOf(texts: readonly (readonly [string, string | Buffer])[]): string {
  const hash = createHash('sha256');
  for (const [where, text] of texts) hash.update(`${where}\0${String(text.length)}\0`).update(text);
  return hash.digest('hex');
}

/** The local files a spec was read from, the spec's own first: what a watch watches. */
export function specFiles(spec: LoadedSpec): string[] {
  if (isUrlLocation(spec.file)) return [];
  return [spec.file, ...spec.references.map((reference) => referencePath(spec.file, reference))];
}

/**
 * Whether the spec's files still read as they did when it was loaded (the URL fetched again):
 * a reload rebuilds what is served only for a spec that changed. Any file it can no longer
 * read counts as a change, for the load to report.
 */
export async function specChanged(spec: LoadedSpec): Promise<boolean> {
  try {
    const texts: [string, string | Buffer][] = [[spec.file, await readSpecText(spec.file)]];
    for (const reference of spec.references) {
      texts.push([reference, await readReference(spec.file, reference)]);
    }
    return fingerprintOf(texts) !== spec.fingerprint;
  } catch {
    return true;
  }
}

/** The spec shipped with stockmock. */
export const SHIPPED_SPEC = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

/** The admin API's own spec. */
export const ADMIN_SPEC = fileURLToPath(new URL('../../spec/admin-openapi.yaml', import.meta.url));

/**
 * Reads a spec file, or an http(s) URL such as a running stockmock's `/openapi.json`, and checks
 * it against the OpenAPI schema; throws with the reason if invalid.
 */
export async function loadSpec(
  file: string = SHIPPED_SPEC,
  read: ReadOptions = {},
): Promise<LoadedSpec> {
  const text = await readSpecText(file, read);
  const texts: [string, string | Buffer][] = [[file, text]];
  // js-yaml reads it (64 → 21 ms for the shipped spec, at every start); a syntax error is
  // reported by `yaml`, with its line (see read-yaml-source.ts).
  const source = readYamlSource(file, text);
  const document = source.value as OpenAPIV3_1.Document;
  // A fault of one schema is taken off the document itself, before it is checked or copied: what
  // is served, validated and generated from is the schema without it.
  const version = schemaVersionOf(document);
  const faults: ServedFault[] = [
    ...(version === undefined ? [] : takeOffSchemaFaults(document, version)),
    ...templateNameFaults(isRecord(document.paths) ? document.paths : {}).map((fault) => ({
      ...fault,
      field: fault.path,
      part: 'key' as const,
    })),
  ].map(({ path, field, part, message, served }) => ({
    file,
    at: source.locate(path, part),
    // A key of digits named as the OpenAPI check names it (parseInstancePath): `responses[200]`.
    field: formatField(
      field.map((key) => (/^(0|[1-9]\d*)$/.test(String(key)) ? Number(key) : key)),
    ),
    message,
    served,
  }));
  // swagger-parser mutates what it is given: hand it copies. References resolve against the
  // spec's own location, through the one resolver that decides where they may lead.
  const resolver = referenceResolver(file, (reference, bytes) => {
    texts.push([reference, bytes]);
  });
  const given = withoutReferenceSiblings(structuredClone(document));
  // The document as written is checked against the OpenAPI schema here, compiled once, with each
  // fault's line. What decides is swagger-parser's check of the document as dereferenced, which
  // compiles the schema anew each time (50–120 ms of blocked loop on a reload): it runs only
  // where this one cannot decide, for another version, other files, or a fault found here that
  // may be one of the written form only (a 3.1 path item's `$ref`, which its schema omits).
  const outside = refersOutside(document);
  const written =
    version === undefined ? undefined : openApiSchemaIssues({ ...source, value: given }, version);
  const options = {
    resolve: { file: false, http: false, spec: resolver },
    validate: { schema: written === undefined || written.length > 0 || outside, spec: true },
  } as unknown as SwaggerParser.Options;
  // validate() dereferences before it validates, and returns what it dereferenced: the one
  // pass over the document (a second dereference was a third of a large spec's load).
  const dereferenced = (await SwaggerParser.validate(file, given as never, options).catch(
    (error: unknown) => {
      // Its faults, as found here with their lines: those of this file alone, when it is all.
      if (written !== undefined && !outside && isSchemaFailure(error)) refuseOnIssues(written);
      // A `$ref` that leads nowhere, at its line.
      // Where each `$ref` is written is looked up only now: the walk that keeps every path takes
      // 170-190 ms of a 10 MB spec (80-95 ms without paths), which a load without a fault
      // does not need.
      const failing = failingReference(error, file, referencesOf(document));
      if (failing === undefined) throw error;
      const reason = (error as Error).message.replace(/^\$ref "[^"]*": /, '');
      throw new SourceError([
        {
          file,
          at: source.locate([...failing.path, '$ref']),
          field: formatField([...failing.path, '$ref']),
          message: `${JSON.stringify(failing.ref)}: ${reason}`,
        },
      ]);
    },
  )) as OpenAPIV3_1.Document;
  return deepFreeze({
    file,
    document,
    dereferenced,
    locate: (path, part) => source.locate(path, part),
    references: texts.slice(1).map(([reference]) => reference),
    fingerprint: fingerprintOf(texts),
    faults,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** swagger-parser's refusal by the OpenAPI schema (lib/validators/schema.js), not by its rules. */
function isSchemaFailure(error: unknown): boolean {
  return (
    error instanceof SyntaxError && error.message.startsWith('Swagger schema validation failed')
  );
}

/** Whether any `$ref` of the document leads to another file (not `#/…`). */
function refersOutside(document: unknown): boolean {
  const pending: unknown[] = [document];
  const seen = new Set<object>();
  for (let value = pending.pop(); value !== undefined; value = pending.pop()) {
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const reference = (value as { $ref?: unknown }).$ref;
    if (typeof reference === 'string' && !reference.startsWith('#')) return true;
    for (const member of Object.values(value)) pending.push(member);
  }
  return false;
}

/** A `$ref` as written, and where: the path of the object that holds it. */
interface WrittenReference {
  readonly ref: string;
  readonly path: readonly (string | number)[];
}

/** Every `$ref` of the document as written, in document order. */
function referencesOf(document: unknown): WrittenReference[] {
  const found: WrittenReference[] = [];
  const seen = new Set<object>();
  const pending: [unknown, (string | number)[]][] = [[document, []]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const reference = (value as { $ref?: unknown }).$ref;
    if (typeof reference === 'string') found.push({ ref: reference, path });
    const members = Object.entries(value).reverse();
    for (const [key, member] of members) {
      pending.push([member, [...path, Array.isArray(value) ? Number(key) : key]]);
    }
  }
  return found;
}

/**
 * The written `$ref` a dereferencing error is about: a pointer that names nothing
 * (MissingPointerError, its pointer in the message) or a file that cannot be read (the error's
 * `source`). Undefined for anything else.
 */
function failingReference(
  error: unknown,
  file: string,
  references: readonly WrittenReference[],
): WrittenReference | undefined {
  if (!(error instanceof Error)) return undefined;
  // Every location as an absolute URL without its fragment, so that `./defs.yaml`,
  // `/abs/defs.yaml` and `file:///abs/defs.yaml` compare equal.
  const base = isUrlLocation(file) ? file : pathToFileURL(file).href;
  const target = (location: string): string | undefined => {
    try {
      return new URL(location, base).href.replace(/#.*$/, '');
    } catch {
      return undefined;
    }
  };
  const fileOf = (ref: string): string | undefined => target(ref.split('#')[0] ?? '');
  const source = (error as { source?: unknown }).source;
  const named = /^\$ref "([^"]*)"/.exec(error.message)?.[1];
  const failed = named ?? (typeof source === 'string' ? source : undefined);
  if (error.name === 'MissingPointerError') {
    const pointer = /"[^"#]*(#[^"]*)"/.exec(error.message)?.[1] ?? '';
    const inFile = typeof source === 'string' ? target(source) : undefined;
    return references.find(
      (reference) =>
        pointer !== '' &&
        reference.ref.endsWith(pointer) &&
        (inFile === undefined || fileOf(reference.ref) === inFile),
    );
  }
  if (failed === undefined) return undefined;
  const failedAt = target(failed);
  return references.find(
    (reference) => !reference.ref.startsWith('#') && fileOf(reference.ref) === failedAt,
  );
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
