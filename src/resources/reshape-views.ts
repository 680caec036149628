/**
 * @module The served spec as the view settings make the records look: the member that a
 * collection's `stockField` field is shown under renamed, its `productIdType` field's members
 * typed as strings of digits (all, or those the setting names). Which members those are comes from the declared views, so the
 * schemas and examples of every declared operation follow, whatever they are called.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Declarations } from './declarations.ts';

/** How a member that shows an id is typed: one type for all, or one per member name. */
export type IdTypes = 'integer' | 'string' | Readonly<Record<string, 'integer' | 'string'>>;

export interface ViewShape {
  readonly stockField: string;
  readonly productIdType: IdTypes;
}

/** Whether a member that shows the `productIdType` field shows it as a string of digits. */
export function shownAsText(types: IdTypes, member: string): boolean {
  if (typeof types === 'string') return types === 'string';
  return Object.hasOwn(types, member) && types[member] === 'string';
}

type Json = Record<string, unknown>;

/** Rewrites, in place, the success responses of every declared data operation of a document. */
export function reshapeViews(
  document: OpenAPIV3_1.Document,
  declarations: Declarations,
  shape: ViewShape,
): void {
  for (const [operationId, declaration] of declarations.operations) {
    if (declaration.kind !== 'list' && declaration.kind !== 'item') continue;
    const collection = declarations.collections.get(declaration.collection);
    if (collection === undefined) continue;
    const views =
      declaration.views.kind === 'every'
        ? [declaration.views.view]
        : [...declaration.views.views.values()];
    const shown = (field: string | undefined) =>
      new Set(views.flatMap((view) => view.fields.filter(([, f]) => f === field).map(([o]) => o)));
    const asText = new Set(
      [...shown(collection.settings.productIdType)].filter((member) =>
        shownAsText(shape.productIdType, member),
      ),
    );
    const renamed = new Map(
      [...shown(collection.settings.stockField)]
        .filter((output) => output !== shape.stockField)
        .map((output) => [output, shape.stockField]),
    );
    if (asText.size === 0 && renamed.size === 0) continue;
    const content = successContent(document, operationId);
    if (content === undefined) continue;
    for (const schema of reachableSchemas(document, content.schema)) {
      reshapeSchema(schema, asText, renamed);
    }
    const examples = [
      content.example,
      ...Object.values(content.examples ?? {}).map((example) => (example as Json)['value']),
    ];
    for (const example of examples) {
      if (typeof example === 'object' && example !== null && 'data' in example) {
        (example as Json)['data'] = reshapeData((example as Json)['data'], asText, renamed);
      }
    }
  }
}

/** The JSON content of an operation's success response, found by its operationId. */
function successContent(
  document: OpenAPIV3_1.Document,
  operationId: string,
): OpenAPIV3_1.MediaTypeObject | undefined {
  for (const item of Object.values(document.paths ?? {})) {
    const operation = item?.get;
    if (operation?.operationId !== operationId) continue;
    const entry = Object.entries(operation.responses).find(([code]) => code.startsWith('2'));
    return (entry?.[1] as OpenAPIV3_1.ResponseObject | undefined)?.content?.['application/json'];
  }
  return undefined;
}

/** Every schema object a schema reaches, following the document's own `$ref`s. */
function reachableSchemas(document: OpenAPIV3_1.Document, root: unknown): Json[] {
  const found = new Set<Json>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || found.has(node as Json)) return;
    const object = node as Json;
    found.add(object);
    const ref = object['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = decodeURIComponent(ref.slice('#/components/schemas/'.length));
      visit((document.components?.schemas as Json | undefined)?.[name]);
    }
    for (const value of Object.values(object)) visit(value);
  };
  visit(root);
  return [...found].filter((schema) => typeof schema['properties'] === 'object');
}

const DIGITS = { type: 'string', pattern: '^[1-9][0-9]*$' };

function reshapeSchema(
  schema: Json,
  asText: ReadonlySet<string>,
  renamed: ReadonlyMap<string, string>,
): void {
  const properties = schema['properties'] as Json;
  schema['properties'] = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      renamed.get(name) ?? name,
      asText.has(name) ? DIGITS : property,
    ]),
  );
  const required = schema['required'];
  if (Array.isArray(required)) {
    schema['required'] = required.map((name: unknown) =>
      typeof name === 'string' ? (renamed.get(name) ?? name) : name,
    );
  }
  const description = schema['description'];
  if (typeof description === 'string') {
    let text = description;
    for (const [from, to] of renamed) text = text.replaceAll(`\`${from}\``, `\`${to}\``);
    schema['description'] = text;
  }
}

function reshapeData(
  data: unknown,
  asText: ReadonlySet<string>,
  renamed: ReadonlyMap<string, string>,
): unknown {
  if (Array.isArray(data)) return data.map((item) => reshapeData(item, asText, renamed));
  if (typeof data !== 'object' || data === null) return data;
  return Object.fromEntries(
    Object.entries(data).map(([name, value]) => [
      renamed.get(name) ?? name,
      asText.has(name) && typeof value === 'number' ? String(value) : value,
    ]),
  );
}
