/** @module The spec as the compatibility settings make the server speak: what it serves and checks. */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { DEFAULT_COMPATIBILITY, type Compatibility } from '../compatibility/compatibility.ts';
import type { ProblemBody } from '../problems/problem-error.ts';
import { styleProblem } from '../problems/problem-style.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import type { LoadedSpec } from './load-spec.ts';

type Schemas = Record<string, OpenAPIV3_1.SchemaObject>;

/** How the served spec's texts state each order by name. */
const ORDER_WORDS: Readonly<Record<Exclude<Compatibility['order'], 'id'>, string>> = {
  name: 'by name (code units), ties by product id',
  'name-lowercase': 'by name lower-cased (code units), ties by product id',
  'name-locale': 'by name under the Unicode root collation (CLDR), ties by product id',
};

/** Where the served spec states every setting, for programs: the contract checker reads it. */
export const COMPATIBILITY_EXTENSION = 'x-stockmock-compatibility';

/**
 * Rewrites the spec for the settings, so that it describes what this stand-in answers: the
 * records' schemas and examples (through `reshape`), the responses an
 * operation can give (a 404 for a page past the end, no 406 when Accept is ignored), problem
 * examples and the 400's `errors`, the challenge's realm, and the texts that state the open
 * points. Every setting is also stated in `info.x-stockmock-compatibility`. The default
 * settings return the spec unchanged.
 */
export async function applyCompatibility(
  spec: LoadedSpec,
  compatibility: Compatibility,
  /** What the settings change in the records' schemas and examples (resources/reshape-views.ts). */
  reshape?: (document: OpenAPIV3_1.Document) => void,
): Promise<LoadedSpec> {
  const changed = (Object.keys(DEFAULT_COMPATIBILITY) as (keyof Compatibility)[]).filter(
    (key) => compatibility[key] !== DEFAULT_COMPATIBILITY[key],
  );
  if (changed.length === 0) return spec;
  const document = structuredClone<OpenAPIV3_1.Document>(spec.document);
  (document.info as unknown as Record<string, unknown>)[COMPATIBILITY_EXTENSION] = {
    ...compatibility,
  };
  rewriteOpenPoints(document, compatibility);
  reshape?.(document);
  const dereferenced = (await SwaggerParser.dereference(
    structuredClone(document) as never,
  )) as OpenAPIV3_1.Document;
  return deepFreeze({ ...spec, document, dereferenced });
}

type Operation = OpenAPIV3_1.OperationObject;

/** Each operation of the spec's paths, with its path. */
function operationsOf(document: OpenAPIV3_1.Document): [string, Operation][] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    item?.get === undefined ? [] : [[path, item.get] as [string, Operation]],
  );
}

/**
 * The 404 a list gets for a page past the end: the spec's `NotFound` response, else the 404
 * another operation declares (an item's), else a problem of its own. A spec need not have the
 * shipped spec's components.
 */
function notFoundResponse(
  document: OpenAPIV3_1.Document,
  responses: Readonly<Record<string, OpenAPIV3_1.ResponseObject>>,
): OpenAPIV3_1.ResponseObject | OpenAPIV3_1.ReferenceObject {
  if (responses['NotFound'] !== undefined) return { $ref: '#/components/responses/NotFound' };
  for (const [, operation] of operationsOf(document)) {
    const declared = operation.responses?.['404'];
    if (declared !== undefined) return declared;
  }
  return {
    description: 'A page past the end: a problem (RFC 9457).',
    content: {
      'application/problem+json': {
        schema: {
          type: 'object',
          required: ['type', 'title', 'status'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer', const: 404 },
            detail: { type: 'string' },
          },
        },
      },
    },
  };
}

/** Replaces a phrase of a description; a spec without it keeps its text. */
function restate(holder: { description?: string } | undefined, from: string, to: string): void {
  if (holder?.description !== undefined) {
    holder.description = holder.description.replaceAll(from, to);
  }
}

/** The open points beyond the stock object's shape, in the spec's responses and texts. */
function rewriteOpenPoints(document: OpenAPIV3_1.Document, settings: Compatibility): void {
  const components = document.components ?? {};
  const parameters = (components.parameters ?? {}) as Record<string, OpenAPIV3_1.ParameterObject>;
  const responses = (components.responses ?? {}) as Record<string, OpenAPIV3_1.ResponseObject>;
  const schemas = (components.schemas ?? {}) as Schemas;
  const lists = operationsOf(document).filter(
    ([path, operation]) => !path.includes('{') && operation.parameters?.length !== undefined,
  );
  if (settings.order !== 'id') {
    const byName = ORDER_WORDS[settings.order];
    restate(document.info, 'ordered by product id, ascending', `ordered ${byName}`);
    for (const [, operation] of lists) {
      restate(operation, 'ordered by product id, ascending', `ordered ${byName}`);
    }
  }
  if (settings.nameMatch === 'case-sensitive') {
    restate(parameters['NameFilter'], 'Case-insensitive substring', 'Case-sensitive substring');
    for (const [, operation] of lists) restate(operation, 'case-insensitive', 'case-sensitive');
  }
  if (settings.pastTheEnd === 'not-found') {
    restate(parameters['Page'], 'A page past the end is empty.', 'A page past the end is a 404.');
    const notFound = notFoundResponse(document, responses);
    for (const [, operation] of lists) {
      if (operation.parameters?.some((p) => '$ref' in p && p.$ref.endsWith('/Page')) === true) {
        operation.responses = {
          ...operation.responses,
          '404': operation.responses?.['404'] ?? structuredClone(notFound),
        };
      }
    }
  }
  if (settings.pastTheEnd === 'bad-request') {
    restate(parameters['Page'], 'A page past the end is empty.', 'A page past the end is a 400.');
  }
  if (settings.unknownQueryParameters === 'ignore') {
    restate(responses['BadRequest'], 'are invalid', 'are invalid (unknown ones are ignored)');
  }
  if (settings.accept === 'ignore') {
    for (const [, operation] of operationsOf(document)) delete operation.responses?.['406'];
    delete responses['NotAcceptable'];
  }
  if (settings.parameterErrors === 'omitted') {
    const validation = schemas['ValidationProblem'];
    for (const part of validation?.allOf ?? []) {
      const schema = part as OpenAPIV3_1.SchemaObject;
      if (schema.properties?.['errors'] === undefined) continue;
      schema.required = (schema.required ?? []).filter((name) => name !== 'errors');
      // Absent, as this stand-in answers: a 400 says what is wrong in its detail only.
      schema.properties['errors'] = false as unknown as OpenAPIV3_1.SchemaObject;
    }
    restate(responses['BadRequest'], '; `errors` names each of them', '');
  }
  for (const response of Object.values(responses)) {
    const content = response.content?.['application/problem+json'];
    if (content?.example !== undefined) {
      content.example = styleProblem(content.example as ProblemBody, settings);
    }
  }
  const challenge = (components.headers ?? {})['WWW-Authenticate'] as
    OpenAPIV3_1.HeaderObject | undefined;
  if (challenge !== undefined && settings.realm !== DEFAULT_COMPATIBILITY.realm) {
    restate(challenge, 'realm is `stockmock`', `realm is \`${settings.realm}\``);
    const schema = challenge.schema as OpenAPIV3_1.SchemaObject | undefined;
    if (schema !== undefined) {
      schema.example = `Bearer realm="${settings.realm}", error="invalid_token"`;
    }
  }
}
