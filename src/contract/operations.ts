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
  const schemes = (document.components?.securitySchemes ?? {}) as Record<
    string,
    OpenAPIV3_1.SecuritySchemeObject
  >;
  const operations: ExampleOperation[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    const operation = item?.get;
    if (operation === undefined || 'x-stockmock' in operation || isInterfacePath(template)) {
      continue;
    }
    const parameters = [
      ...(item?.parameters ?? []),
      ...(operation.parameters ?? []),
    ] as OpenAPIV3_1.ParameterObject[];
    let path = template;
    const query = new URLSearchParams();
    const required: string[] = [];
    let askable = true;
    for (const parameter of parameters) {
      if (parameter.in === 'path') {
        const value = sampleOf(parameter);
        if (value === undefined) askable = false;
        else path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
      } else if (parameter.in === 'query' && parameter.required === true) {
        const value = sampleOf(parameter);
        if (value === undefined) askable = false;
        else {
          query.set(parameter.name, value);
          required.push(parameter.name);
        }
      } else if (parameter.in === 'header' && parameter.required === true) {
        askable = false;
      }
    }
    const security = operation.security ?? document.security ?? [];
    const open = security.length === 0 || security.some((one) => Object.keys(one).length === 0);
    const bearer = security.some((one) =>
      Object.keys(one).every((name) => takesBearer(schemes[name])),
    );
    if (!askable || (!open && !bearer)) continue;
    const search = query.toString();
    operations.push({
      template,
      path: search === '' ? path : `${path}?${search}`,
      needsToken: !open,
      required,
      // OpenAPI 3.1 lets responses be left out: spread, undefined gives none.
      statuses: new Set(Object.keys({ ...operation.responses })),
    });
  }
  return operations;
}

function takesBearer(scheme: OpenAPIV3_1.SecuritySchemeObject | undefined): boolean {
  if (scheme === undefined) return true;
  if (scheme.type === 'http') return scheme.scheme.toLowerCase() === 'bearer';
  return scheme.type === 'oauth2' || scheme.type === 'openIdConnect';
}
