/** @module The spec as the compatibility settings make the server speak: what it serves and checks. */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { DEFAULT_COMPATIBILITY, type Compatibility } from '../access/compatibility.ts';
import type { ProblemBody } from '../problems/problem-error.ts';
import { styleProblem } from '../problems/problem-style.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import type { LoadedSpec } from './load-spec.ts';

type Schemas = Record<string, OpenAPIV3_1.SchemaObject>;

/** Where the served spec states every setting, for programs: the contract checker reads it. */
export const COMPATIBILITY_EXTENSION = 'x-stockmock-compatibility';

/**
 * Rewrites the spec for the settings, so that it describes what this stand-in answers: the
 * stock object schemas and examples (`stock` for `quantity`, string ids), the responses an
 * operation can give (a 404 for a page past the end, no 406 when Accept is ignored), problem
 * examples and the 400's `errors`, the challenge's realm, and the texts that state the open
 * points. Every setting is also stated in `info.x-stockmock-compatibility`. The default
 * settings return the spec unchanged.
 */
export async function applyCompatibility(
  spec: LoadedSpec,
  compatibility: Compatibility,
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
  const schemas = (document.components?.schemas ?? {}) as Schemas;
  const quantityView = schemas['StockQuantityView'];
  const statusView = schemas['StockStatusView'];
  const reshapes = changed.includes('stockField') || changed.includes('productIdType');
  if (reshapes && (quantityView === undefined || statusView === undefined)) {
    throw new Error(
      `${spec.file}: compatibility settings need the StockQuantityView and StockStatusView schemas`,
    );
  }
  const product = schemas['Product'];
  if (product?.properties !== undefined && compatibility.productIdType === 'string') {
    product.properties = {
      ...product.properties,
      id: { type: 'string', pattern: '^[1-9][0-9]*$' },
    };
  }
  for (const view of [quantityView, statusView]) {
    if (view !== undefined && compatibility.productIdType === 'string') {
      view.properties = {
        ...view.properties,
        product_id: { type: 'string', pattern: '^[1-9][0-9]*$' },
      };
    }
  }
  if (quantityView !== undefined && compatibility.stockField === 'stock') {
    const { quantity, ...rest } = quantityView.properties ?? {};
    quantityView.properties = {
      product_id: rest['product_id'] ?? {},
      stock: quantity ?? {},
      status: rest['status'] ?? {},
    };
    quantityView.required = (quantityView.required ?? []).map((name) =>
      name === 'quantity' ? 'stock' : name,
    );
    quantityView.description = (quantityView.description ?? '').replaceAll('`quantity`', '`stock`');
  }
  for (const path of ['/v1/stock', '/v1/stock/{id}']) {
    const examples = document.paths?.[path]?.get?.responses['200'] as
      OpenAPIV3_1.ResponseObject | undefined;
    for (const example of Object.values(examples?.content?.['application/json']?.examples ?? {})) {
      const value = (example as { value?: { data?: unknown } }).value;
      if (value?.data !== undefined) value.data = rewriteData(value.data, compatibility);
    }
  }
  if (compatibility.productIdType === 'string') {
    for (const path of ['/v1/products', '/v1/products/{id}']) {
      const response = document.paths?.[path]?.get?.responses['200'] as
        OpenAPIV3_1.ResponseObject | undefined;
      const content = response?.content?.['application/json'];
      const value = content?.example as { data?: unknown } | undefined;
      if (value?.data !== undefined) value.data = recordIdsAsText(value.data);
    }
  }
  const dereferenced = (await SwaggerParser.dereference(
    structuredClone(document) as never,
  )) as OpenAPIV3_1.Document;
  return deepFreeze({ file: spec.file, document, dereferenced });
}

/** Product records of an example, their ids as strings of digits. */
function recordIdsAsText(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(recordIdsAsText);
  if (typeof data !== 'object' || data === null) return data;
  const record = data as Record<string, unknown>;
  const id = record['id'];
  return typeof id === 'number' ? { ...record, id: String(id) } : record;
}

function rewriteData(data: unknown, compatibility: Compatibility): unknown {
  if (Array.isArray(data)) return data.map((item) => rewriteData(item, compatibility));
  if (typeof data !== 'object' || data === null) return data;
  const { product_id: id, quantity, ...rest } = data as Record<string, unknown>;
  const productId = compatibility.productIdType === 'string' ? String(id) : id;
  if (quantity === undefined) return { product_id: productId, ...rest };
  return { product_id: productId, [compatibility.stockField]: quantity, ...rest };
}

type Operation = OpenAPIV3_1.OperationObject;

/** Each operation of the spec's paths, with its path. */
function operationsOf(document: OpenAPIV3_1.Document): [string, Operation][] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    item?.get === undefined ? [] : [[path, item.get] as [string, Operation]],
  );
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
  if (settings.order === 'name') {
    const byName = 'by name (code units), ties by product id';
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
    for (const [, operation] of lists) {
      if (operation.parameters?.some((p) => '$ref' in p && p.$ref.endsWith('/Page')) === true) {
        operation.responses = {
          ...operation.responses,
          '404': operation.responses?.['404'] ?? { $ref: '#/components/responses/NotFound' },
        };
      }
    }
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
