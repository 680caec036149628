/**
 * @module Faults confined to one Schema Object (a keyword of the wrong type, a member OpenAPI
 * 3.0 does not define, an `xml` member outside its list), found in the document as written and
 * taken off it, so that validation and generation read each schema without them.
 */
import { typoOf } from '../util/typo-of.ts';
import type { SchemaVersion } from './openapi-schema.ts';
import { eachSchemaPlace } from './schema-places.ts';

type Path = (string | number)[];

/** One fault, where it is written (a member to take off, or a schema read as `{}`). */
export interface SchemaFault {
  readonly path: readonly (string | number)[];
  /**
   * The field a message names: the path, but an unknown member is named only where it is a
   * likely typo of a known one, as describe-ajv-error.ts does (any other key may be a token
   * pasted in the wrong place); its line and column say which it is.
   */
  readonly field: readonly (string | number)[];
  /** Whether the line to show is the member's name (an unknown member) or its value. */
  readonly part: 'key' | 'value';
  /** What is wrong, without the value: a file's contents are never echoed. */
  readonly message: string;
  /** What is served instead. */
  readonly served: string;
}

type Members = Record<string, unknown>;

const isObject = (value: unknown): value is Members =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): boolean => typeof value === 'string';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isNames = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.every((name) => typeof name === 'string') &&
  new Set(value).size === value.length;

/** A keyword whose value is not a schema: what it must be, said in the warning. */
interface ValueRule {
  readonly kind: 'value';
  readonly expected: string;
  readonly accepts: (value: unknown) => boolean;
}

/** A keyword whose value is a schema (or `true`/`false`), a list of schemas, or schemas by name. */
interface SchemaRule {
  readonly kind: 'schema' | 'schema-or-boolean' | 'schemas' | 'schema-map';
}

type Rule = ValueRule | SchemaRule | { readonly kind: 'xml' | 'any' };

const value = (expected: string, accepts: (value: unknown) => boolean): ValueRule => ({
  kind: 'value',
  expected,
  accepts,
});
const SCHEMA: SchemaRule = { kind: 'schema' };
const SCHEMA_OR_BOOLEAN: SchemaRule = { kind: 'schema-or-boolean' };
const SCHEMAS: SchemaRule = { kind: 'schemas' };
const SCHEMA_MAP: SchemaRule = { kind: 'schema-map' };
const ANY: Rule = { kind: 'any' };
const STRING = value('a string', isString);
const NUMBER = value('a number', isNumber);
const BOOLEAN = value('true or false', isBoolean);
const COUNT = value('a whole number, 0 or more', isCount);

/** The types a 3.0 schema may name (its schema's enum); 3.1 adds `null` and lists of them. */
const TYPES_30 = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const TYPES_31 = [...TYPES_30, 'null'];

/** The keywords both versions share, with what each must be (OpenAPI 3.0 §4.7.24, JSON Schema). */
const SHARED: Readonly<Record<string, Rule>> = {
  title: STRING,
  description: STRING,
  format: STRING,
  pattern: STRING,
  multipleOf: value('a number above 0', (given) => isNumber(given) && (given as number) > 0),
  maximum: NUMBER,
  minimum: NUMBER,
  maxLength: COUNT,
  minLength: COUNT,
  maxItems: COUNT,
  minItems: COUNT,
  maxProperties: COUNT,
  minProperties: COUNT,
  uniqueItems: BOOLEAN,
  readOnly: BOOLEAN,
  writeOnly: BOOLEAN,
  deprecated: BOOLEAN,
  default: ANY,
  example: ANY,
  discriminator: value(
    'an object with a propertyName and an optional mapping of names',
    (given) =>
      isObject(given) &&
      typeof given['propertyName'] === 'string' &&
      (given['mapping'] === undefined ||
        (isObject(given['mapping']) && Object.values(given['mapping']).every(isString))),
  ),
  externalDocs: value(
    'an object with a url and an optional description',
    (given) =>
      isObject(given) &&
      typeof given['url'] === 'string' &&
      Object.entries(given).every(
        ([name, member]) =>
          name === 'url' || name.startsWith('x-') || (name === 'description' && isString(member)),
      ),
  ),
  xml: { kind: 'xml' },
  not: SCHEMA,
  items: SCHEMA,
  additionalProperties: SCHEMA_OR_BOOLEAN,
  properties: SCHEMA_MAP,
  allOf: SCHEMAS,
  anyOf: SCHEMAS,
  oneOf: SCHEMAS,
};

/** OpenAPI 3.0's Schema Object: these members and extensions, nothing else. */
const RULES_30: Readonly<Record<string, Rule>> = {
  ...SHARED,
  type: value(`one of ${TYPES_30.join(', ')}`, (given) => TYPES_30.includes(given as string)),
  exclusiveMaximum: BOOLEAN,
  exclusiveMinimum: BOOLEAN,
  nullable: BOOLEAN,
  required: value('a list of distinct names, at least one', (given) => {
    return isNames(given) && (given as unknown[]).length > 0;
  }),
  enum: value('a list of at least one value', (given) => {
    return Array.isArray(given) && given.length > 0;
  }),
};

/**
 * OpenAPI 3.1's schemas are JSON Schema 2020-12: any other member is an annotation, and these
 * keywords are checked because a validator or generator reads them.
 */
const RULES_31: Readonly<Record<string, Rule>> = {
  ...SHARED,
  type: value(
    `one of ${TYPES_31.join(', ')}, or a list of them`,
    (given) =>
      TYPES_31.includes(given as string) ||
      (isNames(given) && (given as string[]).every((name) => TYPES_31.includes(name))),
  ),
  exclusiveMaximum: NUMBER,
  exclusiveMinimum: NUMBER,
  required: value('a list of distinct names', isNames),
  enum: value('a list', Array.isArray),
  minContains: COUNT,
  maxContains: COUNT,
  dependentRequired: value(
    'an object of lists of distinct names',
    (given) => isObject(given) && Object.values(given).every(isNames),
  ),
  patternProperties: SCHEMA_MAP,
  dependentSchemas: SCHEMA_MAP,
  $defs: SCHEMA_MAP,
  prefixItems: SCHEMAS,
  contains: SCHEMA,
  propertyNames: SCHEMA,
  if: SCHEMA,
  then: SCHEMA,
  else: SCHEMA,
  unevaluatedItems: SCHEMA,
  unevaluatedProperties: SCHEMA,
  contentSchema: SCHEMA,
};

/** The XML Object's members (OpenAPI 3.0 §4.7.26, 3.1 §4.8.26), and extensions. */
const XML_MEMBERS: Readonly<Record<string, ValueRule>> = {
  name: STRING,
  namespace: STRING,
  prefix: STRING,
  attribute: BOOLEAN,
  wrapped: BOOLEAN,
};

const IGNORED = 'the schema is served without it';

const KNOWN_30 = Object.keys(RULES_30);
const XML_NAMES = Object.keys(XML_MEMBERS);

/** A member `of` does not define, at the member's line; named only where it is a likely typo. */
function unknownMember(
  at: Path,
  name: string,
  known: readonly string[],
  of: string,
  served: string,
): SchemaFault {
  const typo = typoOf(name, known);
  return typo === undefined
    ? {
        path: [...at, name],
        field: at,
        part: 'key',
        message: `holds a member that ${of} does not define (${known.length > 8 ? '' : `${known.join(', ')}; `}an extension starts x-)`,
        served,
      }
    : {
        path: [...at, name],
        field: [...at, name],
        part: 'key',
        message: `is not a member of ${of} (did you mean ${typo}?)`,
        served,
      };
}

/**
 * Finds every fault confined to one schema of the document as written (not the files it refers
 * to), takes each off, in place, and returns them in document order. A `$ref` is not followed:
 * the schema it names is read where it is written.
 */
export function takeOffSchemaFaults(document: unknown, version: SchemaVersion): SchemaFault[] {
  const faults: SchemaFault[] = [];
  const rules = version === '3.0' ? RULES_30 : RULES_31;
  const seen = new Set<object>();
  const isSchema = (given: unknown): boolean =>
    isObject(given) || (version === '3.1' && typeof given === 'boolean');
  // The walk's one path (schema-places.ts): copied only into a fault.
  let path: (string | number)[] = [];
  const fault = (key: string | number, message: string, served: string): void => {
    const at = [...path, key];
    faults.push({ path: at, field: at, part: 'value', message, served });
  };
  const under = (key: string | number, schema: unknown): void => {
    path.push(key);
    visitSchema(schema);
    path.pop();
  };

  const visitSchema = (schema: unknown): void => {
    if (!isObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    // A 3.0 Reference Object: its siblings are ignored (load-spec.ts), its target read where it is.
    if (version === '3.0' && typeof schema['$ref'] === 'string') return;
    for (const name of Object.keys(schema)) {
      if (name.startsWith('x-')) continue;
      const rule = rules[name];
      if (rule !== undefined) visitMember(schema, name, rule);
      else if (version === '3.0') {
        // 3.1 takes any other member as an annotation.
        faults.push(unknownMember([...path], name, KNOWN_30, 'an OpenAPI 3.0 schema', IGNORED));
        Reflect.deleteProperty(schema, name);
      }
    }
  };

  const visitMember = (schema: Members, name: string, rule: Rule): void => {
    const member = schema[name];
    const wrong = (expected: string): void => {
      fault(name, `must be ${expected}`, IGNORED);
      Reflect.deleteProperty(schema, name);
    };
    switch (rule.kind) {
      case 'any':
        return;
      case 'value':
        if (!rule.accepts(member)) wrong(rule.expected);
        return;
      case 'xml':
        if (isObject(member)) visitXml(member, name);
        else wrong('an object');
        return;
      case 'schema':
        if (isSchema(member)) under(name, member);
        else wrong('a schema');
        return;
      case 'schema-or-boolean':
        if (isSchema(member) || typeof member === 'boolean') under(name, member);
        else wrong('a schema, true or false');
        return;
      case 'schemas':
        if (Array.isArray(member)) visitSchemaList(schema, name, member);
        else wrong('a list of schemas');
        return;
      case 'schema-map':
        if (isObject(member)) visitSchemaMap(member, name);
        else wrong('an object of schemas by name');
        return;
    }
  };

  // An entry of allOf, anyOf, oneOf or prefixItems that is no schema is taken off the list: as
  // `{}` it would make anyOf take anything and oneOf refuse what another entry takes.
  const visitSchemaList = (schema: Members, name: string, list: unknown[]): void => {
    path.push(name);
    const kept = list.filter((entry, index) => {
      if (isSchema(entry)) under(index, entry);
      else fault(index, 'must be a schema', 'the list is read without it');
      return isSchema(entry);
    });
    path.pop();
    if (kept.length === list.length) return;
    if (kept.length > 0 || version === '3.0') schema[name] = kept;
    else Reflect.deleteProperty(schema, name);
  };

  // A property (or named schema) that is no schema is read as `{}`: taken off, the name could
  // fall to `additionalProperties: false` and be refused.
  const visitSchemaMap = (map: Members, key: string): void => {
    path.push(key);
    for (const name of Object.keys(map)) {
      const entry = map[name];
      if (isSchema(entry)) under(name, entry);
      else {
        fault(name, 'must be a schema', 'read as {}, which takes any value');
        map[name] = {};
      }
    }
    path.pop();
  };

  const visitXml = (xml: Members, key: string): void => {
    path.push(key);
    for (const name of Object.keys(xml)) {
      if (name.startsWith('x-')) continue;
      const rule = XML_MEMBERS[name];
      if (rule === undefined) {
        faults.push(unknownMember([...path], name, XML_NAMES, 'an XML object', 'ignored'));
      } else if (rule.accepts(xml[name])) continue;
      else fault(name, `must be ${rule.expected}`, 'ignored');
      Reflect.deleteProperty(xml, name);
    }
    path.pop();
  };

  eachSchemaPlace(document, version, (schema, at) => {
    path = at;
    visitSchema(schema);
  });
  return faults;
}
