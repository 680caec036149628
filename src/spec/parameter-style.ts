/**
 * @module How a parameter's value is written in a URL, by its schema and its `style` and
 * `explode` (OpenAPI 3.1 §4.8.12.4): what the parser reads and what links write back.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

/** What one value of a parameter is, as far as reading its text goes. */
export type ScalarKind = 'integer' | 'number' | 'boolean' | 'string';

export type ScalarValue = string | number | boolean;
/** A parameter's value as read: one scalar, or the items of an array parameter. */
export type ParameterValue = ScalarValue | readonly ScalarValue[];

/**
 * An array parameter's items: one query pair each (`explode`, form's default), or one value
 * whose items a separator divides (`,` for form and simple, `|` and ` ` for the delimited
 * styles).
 */
export type ArrayStyle =
  { readonly explode: true } | { readonly explode: false; readonly separator: string };

export type ParameterShape =
  | { readonly kind: 'scalar'; readonly scalar: ScalarKind }
  | { readonly kind: 'array'; readonly item: ScalarKind; readonly style: ArrayStyle };

/** The styles an array parameter can have here; `deepObject` and `matrix`/`label` are not read. */
const SEPARATORS: Readonly<Record<string, string>> = {
  form: ',',
  simple: ',',
  pipeDelimited: '|',
  spaceDelimited: ' ',
};

/** The kind of a schema's values, a `null` alongside aside; any other schema reads as text. */
export function scalarKindOf(schema: OpenAPIV3_1.SchemaObject): ScalarKind {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type) => type !== 'null' && type !== undefined,
  );
  const [type] = types;
  return types.length === 1 && (type === 'integer' || type === 'number' || type === 'boolean')
    ? type
    : 'string';
}

/**
 * The shape of a query or path parameter's value, or a sentence saying why it cannot be read
 * (an array of arrays, a style this reader does not know).
 */
export function parameterShapeOf(parameter: OpenAPIV3_1.ParameterObject): ParameterShape | string {
  const schema = (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes('array')) return { kind: 'scalar', scalar: scalarKindOf(schema) };
  const items = ('items' in schema ? schema.items : {}) as OpenAPIV3_1.SchemaObject;
  const itemTypes = Array.isArray(items.type) ? items.type : [items.type];
  if (itemTypes.includes('array') || itemTypes.includes('object')) {
    return 'an array of arrays or objects cannot be written in a URL';
  }
  const style = parameter.style ?? (parameter.in === 'query' ? 'form' : 'simple');
  const separator = SEPARATORS[style];
  if (separator === undefined) {
    return `style ${style} is not read for arrays (form, simple, pipeDelimited and spaceDelimited are)`;
  }
  const explode = parameter.explode ?? style === 'form';
  return {
    kind: 'array',
    item: scalarKindOf(items),
    style: explode && parameter.in === 'query' ? { explode: true } : { explode: false, separator },
  };
}

/** A query parameter's value as the query pairs that give it, by its shape. */
export function queryPairsOf(
  name: string,
  value: ParameterValue,
  shape: ParameterShape,
): (readonly [string, string])[] {
  if (!Array.isArray(value)) return [[name, String(value)]];
  const items = (value as readonly ScalarValue[]).map(String);
  if (shape.kind === 'array' && !shape.style.explode) {
    return [[name, items.join(shape.style.separator)]];
  }
  return items.map((item) => [name, item] as const);
}
