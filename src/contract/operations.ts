/**
 * @module The spec's read operations that declare no data (no `x-stockmock`): a stand-in answers
 * them from the spec's examples, a real service from its own data. The checker asks each with
 * the values the spec gives for its parameters, and judges the answer by the spec alone: status,
 * headers, body. It never asks a write (spec-methods.ts).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { isInterfacePath } from './declared.ts';

export interface ExampleOperation {
  /** The spec's path template: `/v1/orders/{orderId}`. */
  readonly template: string;
  /** The template filled in, with every required query parameter: what is asked. */
  readonly path: string;
  /** Whether a token must be sent (the operation is secured by a bearer-like scheme). */
  readonly needsToken: boolean;
  /** The required query parameters, each left out once by the check. */
  readonly required: readonly string[];
  /** The statuses the operation declares (`default` included, as written). */
  readonly statuses: ReadonlySet<string>;
}

/** What can stand for a parameter: the spec's own example first, then what its schema allows. */
function sampleOf(parameter: OpenAPIV3_1.ParameterObject): string | undefined {
  const schema = (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject & {
    examples?: unknown[];
  };
  const examples = Object.values(parameter.examples ?? {}) as { value?: unknown }[];
  const candidates: unknown[] = [
    parameter.example,
    examples[0]?.value,
    schema.example,
    schema.examples?.[0],
    schema.enum?.[0],
    schema.default,
  ];
  const given = candidates.find((value) => value !== undefined && value !== null);
  if (typeof given === 'string' || typeof given === 'number' || typeof given === 'boolean') {
    return String(given);
  }
  if (given !== undefined) return undefined;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return String(schema.minimum ?? 1);
    case 'boolean':
      return 'true';
    case 'string':
    case undefined:
      return FORMAT_SAMPLES[schema.format ?? ''] ?? 'a'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return undefined;
  }
}

const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  date: '2026-01-01',
  'date-time': '2026-01-01T00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  email: 'someone@example.com',
  uri: 'https://example.com/',
};

/**
 * Every GET of the spec without a data declaration, outside the interface's own paths, that can
 * be asked: each path parameter and required query parameter has a value to send, and the
 * operation is open or takes a bearer token.
 */
export function exampleOperationsOf(document: OpenAPIV3_1.Document): ExampleOperation[] {
  const operations: ExampleOperation[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    const operation = item?.get;
    if (operation === undefined || 'x-stockmock' in operation || isInterfacePath(template)) {
      continue;
    }
    const asked = askable(document, template, item, operation);
    if (asked === undefined) continue;
    operations.push({
      template,
      path: asked.path,
      needsToken: asked.needsToken,
      required: asked.required,
      // OpenAPI 3.1 lets responses be left out: spread, undefined gives none.
      statuses: new Set(Object.keys({ ...operation.responses })),
    });
  }
  return operations;
}

/**
 * The request of an operation: its path with each path parameter and required query parameter
 * given a value; undefined when one has none, a header is required, or its security is a scheme
 * other than a bearer token.
 */
function askable(
  document: OpenAPIV3_1.Document,
  template: string,
  item: OpenAPIV3_1.PathItemObject | undefined,
  operation: OpenAPIV3_1.OperationObject,
): { path: string; needsToken: boolean; required: string[] } | undefined {
  const parameters = [
    ...(item?.parameters ?? []),
    ...(operation.parameters ?? []),
  ] as OpenAPIV3_1.ParameterObject[];
  const schemes = (document.components?.securitySchemes ?? {}) as Record<
    string,
    OpenAPIV3_1.SecuritySchemeObject
  >;
  let path = template;
  const query = new URLSearchParams();
  const required: string[] = [];
  for (const parameter of parameters) {
    const needed =
      parameter.in === 'path' || (parameter.required === true && parameter.in !== 'cookie');
    if (!needed) continue;
    const value = sampleOf(parameter);
    if (value === undefined || parameter.in === 'header') return undefined;
    if (parameter.in === 'path') {
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    } else {
      query.set(parameter.name, value);
      required.push(parameter.name);
    }
  }
  const security = operation.security ?? document.security ?? [];
  const open = security.length === 0 || security.some((one) => Object.keys(one).length === 0);
  const bearer = security.some((one) =>
    Object.keys(one).every((name) => takesBearer(schemes[name])),
  );
  if (!open && !bearer) return undefined;
  const search = query.toString();
  return { path: search === '' ? path : `${path}?${search}`, needsToken: !open, required };
}

function takesBearer(scheme: OpenAPIV3_1.SecuritySchemeObject | undefined): boolean {
  if (scheme === undefined) return true;
  if (scheme.type === 'http') return scheme.scheme.toLowerCase() === 'bearer';
  return scheme.type === 'oauth2' || scheme.type === 'openIdConnect';
}

/**
 * Whether a write on a declared list's or item's path changes that data: unless its own
 * declaration answers it from the spec's examples (`x-stockmock: {write: false}`).
 */
export function changesData(operation: OpenAPIV3_1.OperationObject): boolean {
  const declared = (operation as Record<string, unknown>)['x-stockmock'] as
    { write?: unknown } | undefined;
  return declared?.write !== false;
}

/** A write the spec declares without data, asked only under `--writes`. */
export interface WriteOperation {
  readonly method: string;
  readonly template: string;
  /** The template filled in, with every required query parameter. */
  readonly path: string;
  readonly needsToken: boolean;
  /** The request body the spec gives as an example (JSON); undefined without a body. */
  readonly body: unknown;
  /** Bodies the request body's schema refuses, each with why: each must be a 4xx. */
  readonly invalidBodies: readonly { readonly why: string; readonly body: unknown }[];
  readonly statuses: ReadonlySet<string>;
}

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;

/**
 * Every write of the spec without a data declaration whose request can be made: its parameters
 * have values, and a required JSON body has an example (the request body's, or its schema's).
 */
export function writeOperationsOf(
  document: OpenAPIV3_1.Document,
  /** Paths whose writes change declared data: write-effects.ts follows those instead. */
  declared: ReadonlySet<string> = new Set(),
): WriteOperation[] {
  const writes: WriteOperation[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const method of WRITE_METHODS) {
      const operation = item?.[method];
      if (operation === undefined || isInterfacePath(template)) continue;
      if (declared.has(template) && changesData(operation)) continue;
      const asked = askable(document, template, item, operation);
      if (asked === undefined) continue;
      const requestBody = operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
      const json = requestBody?.content['application/json'];
      const schema = json?.schema as OpenAPIV3_1.SchemaObject | undefined;
      const example = json === undefined ? undefined : exampleOf(json, schema);
      if (requestBody?.required === true && example === undefined) continue;
      writes.push({
        method: method.toUpperCase(),
        template,
        path: asked.path,
        needsToken: asked.needsToken,
        body: example,
        invalidBodies:
          schema === undefined || example === undefined ? [] : invalidBodies(schema, example),
        statuses: new Set(Object.keys({ ...operation.responses })),
      });
    }
  }
  return writes;
}

/** A write's JSON request body: its schema, a body it takes, and bodies it refuses. */
export interface RequestBody {
  readonly schema: OpenAPIV3_1.SchemaObject;
  readonly example: unknown;
  readonly invalid: readonly { readonly why: string; readonly body: unknown }[];
}

/** An operation's JSON request body, where it declares one and a body can be made for it. */
export function requestBodyOf(
  operation: OpenAPIV3_1.OperationObject | undefined,
): RequestBody | undefined {
  const content = (operation?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content;
  const media = Object.entries(content ?? {}).find(([type]) => /[/+]json\b/i.test(type))?.[1];
  const schema = media?.schema as OpenAPIV3_1.SchemaObject | undefined;
  if (media === undefined || schema === undefined) return undefined;
  const example = exampleOf(media, schema);
  if (example === undefined) return undefined;
  return { schema, example, invalid: invalidBodies(schema, example) };
}

function exampleOf(
  media: OpenAPIV3_1.MediaTypeObject,
  schema: OpenAPIV3_1.SchemaObject | undefined,
): unknown {
  const examples = Object.values(media.examples ?? {}) as { value?: unknown }[];
  return (
    media.example ??
    examples[0]?.value ??
    schema?.example ??
    (schema === undefined ? undefined : valueOf(schema, 0))
  );
}

/**
 * The smallest value a schema takes, as a client would write it: an object with its required
 * members, an array with as many items as it needs, the first of an enum, a number at its
 * minimum, a string as long as it must be. Undefined where none is made (a deep or odd schema).
 */
function valueOf(schema: OpenAPIV3_1.SchemaObject, depth: number): unknown {
  if (depth > 8) return undefined;
  if (schema.example !== undefined) return schema.example as unknown;
  if (schema.enum !== undefined) return schema.enum[0] as unknown;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, OpenAPIV3_1.SchemaObject>;
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) {
        const member = properties[name];
        const made = member === undefined ? undefined : valueOf(member, depth + 1);
        if (made === undefined) return undefined;
        value[name] = made;
      }
      return value;
    }
    case 'array': {
      const { items } = schema as { items?: OpenAPIV3_1.SchemaObject };
      const item = items === undefined ? undefined : valueOf(items, depth + 1);
      const count = schema.minItems ?? 0;
      return count > 0 && item === undefined
        ? undefined
        : Array.from({ length: count }, () => item);
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return FORMAT_SAMPLES[schema.format ?? ''] ?? 'a'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return undefined;
  }
}

/**
 * Bodies that break the schema in one way each, made from the example: a required member left
 * out, an array that must hold items emptied, a string member given a number.
 */
function invalidBodies(
  schema: OpenAPIV3_1.SchemaObject,
  example: unknown,
): { why: string; body: unknown }[] {
  if (typeof example !== 'object' || example === null || Array.isArray(example)) return [];
  const members = example as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, OpenAPIV3_1.SchemaObject>;
  const bodies: { why: string; body: unknown }[] = [];
  const [required] = schema.required ?? [];
  if (required !== undefined) {
    bodies.push({
      why: `without its required member ${required}`,
      body: Object.fromEntries(Object.entries(members).filter(([name]) => name !== required)),
    });
  }
  for (const [name, property] of Object.entries(properties)) {
    if (!(name in members)) continue;
    if (property.type === 'array' && (property.minItems ?? 0) >= 1) {
      bodies.push({
        why: `with ${name} empty (minItems ${String(property.minItems)})`,
        body: { ...members, [name]: [] },
      });
    } else if (property.type === 'string' && property.enum === undefined) {
      bodies.push({ why: `with ${name} a number, not a string`, body: { ...members, [name]: 7 } });
    }
  }
  return bodies.slice(0, 3);
}
