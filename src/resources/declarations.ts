/**
 * @module The resources a spec declares, read from its `x-stockmock` keywords and checked
 * against the spec itself: what cannot be served as declared is refused at start with file,
 * line and field, and nothing the spec declares is left unserved (docs/declare-a-resource.md).
 */
import type { Static } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3_1 } from 'openapi-types';
import { SourceError, type SourceIssue } from '../problems/source-error.ts';
import { cyclePath } from './schema-cycle.ts';
import { createAjv } from '../source/create-ajv.ts';
import { describeAjvError, fieldPathOf, formatField } from '../source/describe-ajv-error.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import {
  HTTP_METHODS,
  operationIssues,
  operationKey,
  type HttpMethod,
} from '../spec/operation-rules.ts';
import type { KeyColumn } from '../query/keys.ts';
import type { RankKind, SortKey } from '../query/sort.ts';
import { readSortKeys } from './sort-order.ts';
import {
  cursorValueOf,
  FALLBACK_PAGE_SIZE,
  pagingByNames,
  PAGING_PARTS,
  type PagingNames,
  type PagingPart,
} from '../spec/pagination.ts';
import type { PagePosition } from '../query/links.ts';
import { strictRefusals } from '../spec/served-faults.ts';
import { parameterShapeOf, type ParameterShape } from '../spec/parameter-style.ts';
import {
  DEFAULT_ITEM_ENVELOPE,
  DEFAULT_LIST_ENVELOPE,
  envelopeIssues,
  LIST_PARTS,
  memberPathOf,
  successSchemaOf,
  type ItemEnvelope,
  type ListEnvelope,
  type ListPart,
  type MemberPath,
} from './envelope.ts';
import {
  CollectionsSchema,
  DataOperationSchema,
  DocumentOperationSchema,
  FIELD_SETTINGS,
  HealthOperationSchema,
  type CollectionInput,
  type DataOperationInput,
  type FieldSetting,
  type Match,
  type ViewInput,
  type WriteOperationInput,
  WriteOperationSchema,
} from './declaration-schema.ts';
import { readWrite, type ReadOperation, type WriteDeclaration } from './write-declarations.ts';

export type { FieldSetting, Match } from './declaration-schema.ts';

/** The keyword of the collections, at the spec's top level. */
export const COLLECTIONS_KEYWORD = 'x-stockmock-collections';
/** The keyword of an operation's declaration. */
export const OPERATION_KEYWORD = 'x-stockmock';

/**
 * What a field holds, as far as filters and keys care: `date` is text of `format: date` or
 * `date-time`, which `exact` and `contains` read as text and `min` and `max` as instants.
 */
export type FieldType = 'integer' | 'number' | 'boolean' | 'string' | 'date' | 'other';

/** A value that follows from another field, unless a record gives its own. */
export interface Derivation {
  readonly field: string;
  readonly from: string;
  readonly rule: 'stock-level';
  readonly positive: string;
  readonly zero: string;
  readonly unknown: string;
}

export interface CollectionDeclaration {
  /** The fixture's key that lists its records: `products`. */
  readonly name: string;
  /** The field that identifies a record: lists are in its order unless sorted. */
  readonly key: string;
  /** What the key holds: integers order by value, strings by code point. */
  readonly keyType: KeyColumn['type'];
  /** The record's human name, which ordering by name reads. */
  readonly label: string | undefined;
  /** The JSON Schema every record must satisfy. */
  readonly record: object;
  /** Every declared field, with its type: the record's properties, then derived ones. */
  readonly fields: ReadonlyMap<string, FieldType>;
  readonly derived: readonly Derivation[];
  /** The field each compatibility setting acts on. */
  readonly settings: Readonly<Partial<Record<FieldSetting, string>>>;
  /** Fields that hold a key of another collection, and that collection. */
  readonly references: ReadonlyMap<string, string>;
  /** Fields a write fills with the record a referencing field names: field → that field. */
  readonly embeds: ReadonlyMap<string, string>;
}

/** A list's sort parameter: what it may order by, and the order when it is not given. */
export interface SortDeclaration {
  readonly parameter: string;
  /** How its value is written in a URL: links repeat it so. */
  readonly shape: ParameterShape;
  /** Each field it may name, and how its values compare. */
  readonly fields: ReadonlyMap<string, RankKind>;
  /** The order without the parameter: the declared `default`, else none (key order). */
  readonly byDefault: readonly SortKey[] | undefined;
}

export interface FilterDeclaration {
  /** The query parameter. */
  readonly parameter: string;
  /** How its value is written in a URL: links repeat it so. */
  readonly shape: ParameterShape;
  readonly field: string;
  readonly match: Match;
}

export interface ViewDeclaration {
  /** Output member and the field it shows, in order. */
  readonly fields: readonly (readonly [output: string, field: string])[];
  /** Then every other field of the record, but those in `omit`. */
  readonly rest: boolean;
  readonly omit: readonly string[];
}

/** One view for every caller, or one per access level. */
export type Views =
  | { readonly kind: 'every'; readonly view: ViewDeclaration }
  | { readonly kind: 'by-level'; readonly views: ReadonlyMap<string, ViewDeclaration> };

/**
 * How a list is paged: by a page size and a position (a page number or an offset), a size
 * alone (the first page only), a position alone (pages of a fixed size), or neither (the whole
 * list in one answer).
 */
export interface PagingDeclaration {
  /** The page size; undefined: the whole list. */
  readonly size:
    | {
        /** Its query parameter; undefined where pages have a fixed size. */
        readonly parameter: string | undefined;
        /** The size when the parameter is not given. */
        readonly byDefault: number;
      }
    | undefined;
  readonly position: PagePosition | undefined;
}

/**
 * A parent a nested list or item is served under (`/events/{eventId}/tickets`): its path
 * parameter, the record field that holds its key, and the collection whose key that is (an
 * unknown parent is a 404).
 */
export interface ParentDeclaration {
  readonly parameter: string;
  /** The parent's collection. */
  readonly collection: string;
  /**
   * The collection whose records hold the parent's key: the operation's own for the nearest
   * parent, the nearer parent's for one further out (`/venues/{venueSlug}/events/{eventId}/
   * tickets`: a ticket holds its event, the event its venue).
   */
  readonly holder: string;
  /** The holder's field that holds the parent's key. */
  readonly field: string;
}

export type OperationDeclaration =
  | {
      readonly kind: 'list';
      readonly collection: string;
      readonly parents: readonly ParentDeclaration[];
      readonly filters: readonly FilterDeclaration[];
      readonly sort: SortDeclaration | undefined;
      readonly paging: PagingDeclaration;
      readonly views: Views;
      readonly envelope: ListEnvelope;
    }
  | {
      readonly kind: 'item';
      readonly collection: string;
      readonly parents: readonly ParentDeclaration[];
      /** The path parameter that holds the key. */
      readonly parameter: string;
      readonly views: Views;
      readonly envelope: ItemEnvelope;
    }
  | WriteDeclaration
  | { readonly kind: 'health'; readonly counts: readonly (readonly [string, string])[] }
  | { readonly kind: 'document'; readonly format: 'json' | 'yaml' };

export interface Declarations {
  readonly collections: ReadonlyMap<string, CollectionDeclaration>;
  /** The operations served from data, by key (operationKey); every other one is answered from examples. */
  readonly operations: ReadonlyMap<string, OperationDeclaration>;
  /** Every access level some view names. */
  readonly levels: readonly string[];
}

type Path = readonly (string | number)[];

const ajv = createAjv({ ownSchemas: true });
const validateCollections = ajv.compile<Static<typeof CollectionsSchema>>(CollectionsSchema);
const validateData = ajv.compile<DataOperationInput>(DataOperationSchema);
const validateHealth = ajv.compile<Static<typeof HealthOperationSchema>>(HealthOperationSchema);
const validateDocument =
  ajv.compile<Static<typeof DocumentOperationSchema>>(DocumentOperationSchema);
const validateWrite = ajv.compile<WriteOperationInput>(WriteOperationSchema);

/**
 * Reads every declaration of the spec. Throws a SourceError with every issue found: a write
 * declared where no list or item is, a query parameter no filter honours, a field the record
 * does not declare, a filter the engine cannot run.
 */
export function readDeclarations(
  spec: LoadedSpec,
  options: { readonly strict?: boolean } = {},
): Declarations {
  const issues: SourceIssue[] = [];
  const report = (path: Path, message: string): void => {
    issues.push({ file: spec.file, at: spec.locate(path), field: formatField(path), message });
  };
  const shaped = <T>(validate: ValidateFunction<T>, value: unknown, path: Path): value is T => {
    if (validate(value)) return true;
    for (const error of validate.errors ?? []) {
      report([...path, ...fieldPathOf(error)], describeAjvError(error));
    }
    return false;
  };

  issues.push(...operationIssues(spec));
  // What is otherwise served around with a warning: a schema's fault, a template's name.
  if (options.strict === true) issues.push(...strictRefusals(spec.faults));
  const document = spec.dereferenced as OpenAPIV3_1.Document & Record<string, unknown>;
  const collections = new Map<string, CollectionDeclaration>();
  const declared = document[COLLECTIONS_KEYWORD] ?? {};
  if (shaped(validateCollections, declared, [COLLECTIONS_KEYWORD])) {
    for (const [name, input] of Object.entries(declared)) {
      const collection = readCollection(name, input, [COLLECTIONS_KEYWORD, name], report);
      if (collection !== undefined) collections.set(name, collection);
    }
  }
  for (const collection of collections.values()) {
    for (const [field, target] of collection.references) {
      const at = [COLLECTIONS_KEYWORD, collection.name, 'references', field];
      const referred = collections.get(target);
      if (referred === undefined) {
        report(at, `names no declared collection (${target})`);
      } else if (collection.fields.get(field) !== referred.keyType) {
        report(
          at,
          `${field} must be of type ${referred.keyType} to hold a key of ${target} (${referred.key})`,
        );
      }
    }
  }

  const operations = new Map<string, OperationDeclaration>();
  const levels = new Set<string>();
  // By path: a path holds one GET.
  const reads = new Map<string, ReadOperation>();
  for (const [pathName, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const declared = item?.[method];
      if (declared === undefined) continue;
      if (options.strict === true && (method !== 'get' || !(OPERATION_KEYWORD in declared))) {
        const key = operationKey(method.toUpperCase() as HttpMethod, pathName, declared);
        report(
          ['paths', pathName, method],
          `${method.toUpperCase()} ${pathName}${key.includes(' ') ? '' : ` (${key})`} has no ` +
            `\`${OPERATION_KEYWORD}\` data: strict refuses operations answered from the spec's examples`,
        );
      }
    }
    const operation = item?.get;
    const input = (operation as Record<string, unknown> | undefined)?.[OPERATION_KEYWORD];
    // A GET that declares nothing is answered from the spec's examples (route-table.ts).
    if (operation === undefined || input === undefined) continue;
    const at: Path = ['paths', pathName, 'get', OPERATION_KEYWORD];
    const parameters = [
      ...(item?.parameters ?? []),
      ...(operation.parameters ?? []),
    ] as OpenAPIV3_1.ParameterObject[];
    const open = (operation.security ?? document.security ?? []).length === 0;
    const context: OperationContext = {
      pathName,
      parameters,
      collections,
      report,
      at,
      open,
      operation,
    };
    let declaration: OperationDeclaration | undefined;
    if (typeof input === 'object' && input !== null && 'health' in input) {
      if (shaped(validateHealth, input, at)) declaration = readHealth(input.health, context);
    } else if (typeof input === 'object' && input !== null && 'document' in input) {
      if (shaped(validateDocument, input, at)) {
        declaration = { kind: 'document', format: input.document };
      }
    } else if (shaped(validateData, input, at)) {
      declaration = readDataOperation(input, context);
    }
    if (declaration === undefined) continue;
    operations.set(operationKey('GET', pathName, operation), declaration);
    if (declaration.kind === 'list' || declaration.kind === 'item') {
      const { kind, collection, parents, views } = declaration;
      reads.set(
        pathName,
        kind === 'list'
          ? { path: pathName, kind, collection, parents, views }
          : { path: pathName, ...declaration },
      );
    }
    if ('views' in declaration && declaration.views.kind === 'by-level') {
      for (const level of declaration.views.views.keys()) levels.add(level);
    }
  }
  // Writes last: each is served on a declared GET's path, as that GET reads the collection.
  for (const [pathName, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (method === 'get' || operation === undefined) continue;
      const at: Path = ['paths', pathName, method, OPERATION_KEYWORD];
      const input: unknown = (operation as Record<string, unknown>)[OPERATION_KEYWORD];
      if (input !== undefined && !shaped(validateWrite, input, at)) continue;
      const write = readWrite(method, pathName, operation, input, reads);
      if (typeof write === 'string') report(at, write);
      else if (write !== undefined) {
        operations.set(
          operationKey(method.toUpperCase() as HttpMethod, pathName, operation),
          write,
        );
      }
    }
  }
  if (issues.length > 0) throw new SourceError(issues);
  return { collections, operations, levels: [...levels] };
}

type Report = (path: Path, message: string) => void;

interface OperationContext {
  readonly pathName: string;
  readonly parameters: readonly OpenAPIV3_1.ParameterObject[];
  readonly collections: ReadonlyMap<string, CollectionDeclaration>;
  readonly report: Report;
  readonly at: Path;
  /** Whether the operation needs no token (`security: []`): then no level is known. */
  readonly open: boolean;
  readonly operation: OpenAPIV3_1.OperationObject;
}

function readCollection(
  name: string,
  input: CollectionInput,
  at: Path,
  report: Report,
): CollectionDeclaration | undefined {
  const record = input.record as OpenAPIV3_1.SchemaObject;
  const properties = (record.properties ?? {}) as Record<string, OpenAPIV3_1.SchemaObject>;
  const fields = new Map<string, FieldType>(
    Object.entries(properties).map(([field, schema]) => [field, fieldTypeOf(schema)]),
  );
  let valid = true;
  const derived: Derivation[] = Object.entries(input.derive ?? {}).map(([field, rule]) => {
    if (fields.get(rule.from) !== 'integer' && fields.get(rule.from) !== 'number') {
      report(
        [...at, 'derive', field, 'from'],
        `must name a number field of the record (${rule.from} is not one)`,
      );
      valid = false;
    }
    if (!fields.has(field)) fields.set(field, 'string');
    return { field, ...rule };
  });
  if (record.type !== 'object') {
    report([...at, 'record', 'type'], 'must be object: a record is an object');
    valid = false;
  }
  const cycle = cyclePath(record);
  if (cycle !== undefined) {
    report(
      [...at, 'record', ...cycle],
      'refers back to a schema that holds it (a $ref cycle): a record schema must be finite, ' +
        'so that each record can be validated; describe the nested part without the cycle',
    );
    valid = false;
  }
  const keyType = fields.get(input.key);
  if (
    (keyType !== 'integer' && keyType !== 'string') ||
    !(record.required ?? []).includes(input.key)
  ) {
    report(
      [...at, 'key'],
      `must name a required integer or string field of the record (${input.key} is not one)`,
    );
    valid = false;
  }
  for (const [field, from] of Object.entries(input.embed ?? {})) {
    if (!fields.has(field) || input.references?.[from] === undefined) {
      report(
        [...at, 'embed', field],
        `must name a field of the record, filled from a field that \`references\` declares (${field}: ${from})`,
      );
      valid = false;
    }
  }
  for (const field of Object.keys(input.references ?? {})) {
    if (!fields.has(field)) {
      report([...at, 'references', field], `${field} is not a field of the record`);
      valid = false;
    }
  }
  if (input.label !== undefined && fields.get(input.label) !== 'string') {
    report([...at, 'label'], `must name a string field of the record (${input.label} is not one)`);
    valid = false;
  }
  const settings: Partial<Record<FieldSetting, string>> = {};
  for (const setting of FIELD_SETTINGS) {
    const field = input.settings?.[setting];
    if (field === undefined) continue;
    if (!fields.has(field)) {
      report([...at, 'settings', setting], `names ${field}, which the record does not declare`);
      valid = false;
    }
    settings[setting] = field;
  }
  if (!valid) return undefined;
  return {
    name,
    key: input.key,
    keyType: keyType === 'integer' ? 'integer' : 'string',
    label: input.label,
    record,
    fields,
    derived,
    settings,
    references: new Map(Object.entries(input.references ?? {})),
    embeds: new Map(Object.entries(input.embed ?? {})),
  };
}

function readHealth(
  counts: Readonly<Record<string, string>>,
  context: OperationContext,
): OperationDeclaration | undefined {
  let valid = true;
  for (const [output, collection] of Object.entries(counts)) {
    if (!context.collections.has(collection)) {
      context.report(
        [...context.at, 'health', output],
        `names no declared collection (${collection})`,
      );
      valid = false;
    }
  }
  return valid ? { kind: 'health', counts: Object.entries(counts) } : undefined;
}

function readDataOperation(
  input: DataOperationInput,
  context: OperationContext,
): OperationDeclaration | undefined {
  const { at, report, parameters } = context;
  const collection = context.collections.get(input.collection);
  if (collection === undefined) {
    report([...at, 'collection'], `names no declared collection (${input.collection})`);
    return undefined;
  }
  const views = readViews(input, collection, context);
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const query = parameters.filter((parameter) => parameter.in === 'query');
  const parents = readParents(
    input.parents,
    pathParameters.filter((parameter) => parameter.name !== input.item),
    collection,
    context,
  );
  if (input.item !== undefined) {
    const keyParameter = pathParameters.find((parameter) => parameter.name === input.item);
    if (keyParameter === undefined) {
      report([...at, 'item'], `names no path parameter of GET ${context.pathName}`);
      return undefined;
    }
    if (parameterType(keyParameter) !== collection.keyType) {
      report(
        [...at, 'item'],
        `the path parameter ${input.item} must be of type ${collection.keyType}, as the key of ${collection.name} (${collection.key}) is`,
      );
    }
    if (input.filters !== undefined) {
      report([...at, 'filters'], 'an item operation has no filters');
    }
    for (const parameter of query) {
      report(
        [...at, 'item'],
        `query parameter ${parameter.name} is declared, but an item is not filtered`,
      );
    }
    const envelope = readEnvelope(input.envelope, 'item', context);
    return views === undefined || envelope === undefined || parents === undefined
      ? undefined
      : {
          kind: 'item',
          collection: collection.name,
          parents,
          parameter: input.item,
          views,
          envelope,
        };
  }
  const filters: FilterDeclaration[] = [];
  for (const [name, filter] of Object.entries(input.filters ?? {})) {
    const where = [...at, 'filters', name];
    const parameter = query.find((candidate) => candidate.name === name);
    const fieldType = collection.fields.get(filter.field);
    if (parameter === undefined) {
      report(where, `names no query parameter of GET ${context.pathName}`);
      continue;
    }
    if (fieldType === undefined) {
      report(
        [...where, 'field'],
        `${filter.field} is not a field of ${collection.name} (declare it in its record)`,
      );
      continue;
    }
    const shape = parameterShapeOf(parameter);
    if (typeof shape === 'string') {
      report(where, `the query parameter ${name}: ${shape}`);
      continue;
    }
    const onKey = filter.field === collection.key;
    const problem = filterProblem(filter.match, fieldType, parameter, shape, onKey);
    if (problem !== undefined) report([...where, 'match'], problem);
    else filters.push({ parameter: name, shape, field: filter.field, match: filter.match });
  }
  const sort = input.sort === undefined ? undefined : readSort(input.sort, collection, context);
  const claimed = new Set([...Object.keys(input.filters ?? {}), input.sort?.parameter]);
  const envelope = readEnvelope(input.envelope, 'list', context);
  const paging = readPaging(
    input.paging,
    query.filter((parameter) => !claimed.has(parameter.name)),
    envelope,
    context,
  );
  const position = paging?.position;
  const pagingParameters = new Set<string | undefined>([
    paging?.size?.parameter,
    position?.parameter,
    position?.kind === 'cursor' ? position.before : undefined,
  ]);
  // Where the paging could not be read, its issues say which parameters to look at first.
  for (const parameter of paging === undefined ? [] : query) {
    if (pagingParameters.has(parameter.name)) continue;
    if (parameter.name === input.sort?.parameter) continue;
    if (input.filters?.[parameter.name] === undefined) {
      report(
        [...at, 'filters'],
        `query parameter ${parameter.name} is declared by GET ${context.pathName} but no filter honours it: declare filters.${parameter.name}`,
      );
    }
  }
  if (
    views === undefined ||
    envelope === undefined ||
    paging === undefined ||
    parents === undefined ||
    (input.sort !== undefined && sort === undefined) ||
    filters.length !== Object.keys(input.filters ?? {}).length
  ) {
    return undefined;
  }
  return {
    kind: 'list',
    collection: collection.name,
    parents,
    filters,
    sort,
    paging,
    views,
    envelope,
  };
}

/**
 * The parents a nested operation is served under: each path parameter but the item's key names
 * a parent, whose key a field of the record holds (as `parents` says, else the field of the
 * parameter's name, compared without case and separators: `eventId` finds `event_id`), of the
 * collection the field references (else the one the path names just before the parameter:
 * `/events/{eventId}`). Undefined, with each issue reported, where one cannot be read.
 */
function readParents(
  input: DataOperationInput['parents'],
  parameters: readonly OpenAPIV3_1.ParameterObject[],
  collection: CollectionDeclaration,
  context: OperationContext,
): ParentDeclaration[] | undefined {
  const parents: ParentDeclaration[] = [];
  const faults: (readonly [Path, string])[] = [];
  const fail = (path: Path, message: string): void => {
    faults.push([path, message]);
  };
  for (const name of Object.keys(input ?? {})) {
    if (!parameters.some((parameter) => parameter.name === name)) {
      fail([...context.at, 'parents', name], `names no path parameter of GET ${context.pathName}`);
    }
  }
  // Nearest first: each parent is held by the records of the one nearer to the operation's.
  const nearestFirst = [...parameters].sort(
    (a, b) => context.pathName.indexOf(`{${b.name}}`) - context.pathName.indexOf(`{${a.name}}`),
  );
  let holder: CollectionDeclaration = collection;
  for (const parameter of nearestFirst) {
    const declared = input?.[parameter.name];
    const where = declared === undefined ? context.at : [...context.at, 'parents', parameter.name];
    const field: string | undefined = declared ?? fieldNamed(parameter.name, holder);
    if (field === undefined || !holder.fields.has(field)) {
      fail(
        where,
        `path parameter ${parameter.name}: no field of ${holder.name} holds its key; name the field in \`parents\` (docs/declare-a-resource.md#nested-lists)`,
      );
      break;
    }
    const parent: string | undefined =
      holder.references.get(field) ?? collectionBefore(parameter.name, context);
    const parentCollection: CollectionDeclaration | undefined =
      parent === undefined ? undefined : context.collections.get(parent);
    if (parentCollection === undefined) {
      fail(
        where,
        `path parameter ${parameter.name}: which collection's key ${holder.name}.${field} holds is not known; declare it in the collection's \`references\` (${field}: COLLECTION)`,
      );
      break;
    }
    const type = parameterType(parameter);
    if (type !== parentCollection.keyType || holder.fields.get(field) !== type) {
      fail(
        where,
        `path parameter ${parameter.name}, ${holder.name}.${field} and the key of ${parentCollection.name} must be of one type (${parentCollection.keyType})`,
      );
      break;
    }
    parents.push({
      parameter: parameter.name,
      collection: parentCollection.name,
      holder: holder.name,
      field,
    });
    holder = parentCollection;
  }
  for (const [path, message] of faults) context.report(path, message);
  return faults.length === 0 ? parents : undefined;
}

/** The record field a parameter's name names, exactly or without case and separators. */
function fieldNamed(parameter: string, collection: CollectionDeclaration): string | undefined {
  if (collection.fields.has(parameter)) return parameter;
  const loose = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return [...collection.fields.keys()].find((field) => loose(field) === loose(parameter));
}

/** The collection the path names just before a parameter: `events` in `/events/{eventId}`. */
function collectionBefore(parameter: string, context: OperationContext): string | undefined {
  const segments = context.pathName.split('/');
  const at = segments.indexOf(`{${parameter}}`);
  const before = at > 0 ? segments[at - 1] : undefined;
  return before !== undefined && context.collections.has(before) ? before : undefined;
}

/**
 * A list's paging, as declared or as its parameters' names say (spec/pagination.ts), each
 * parameter an integer of the query; undefined, with each issue reported, where it cannot be.
 */
function readPaging(
  input: DataOperationInput['paging'],
  /** The query parameters no filter and no sort claims. */
  free: readonly OpenAPIV3_1.ParameterObject[],
  /** The answer's envelope (undefined where it is at fault): whether it gives cursors. */
  envelope: ListEnvelope | undefined,
  context: OperationContext,
): PagingDeclaration | undefined {
  const at = [...context.at, 'paging'];
  if (input === 'none') return { size: undefined, position: undefined };
  let names: PagingNames;
  let declared = true;
  if (input === undefined) {
    declared = false;
    const { found, ambiguous } = pagingByNames(free.map(({ name }) => name));
    for (const [part, candidates] of ambiguous) {
      context.report(
        context.at,
        `query parameters ${candidates.join(' and ')} could each be the ${PART_WORDS[part]}: declare \`paging\` (docs/declare-a-resource.md#paging)`,
      );
    }
    if (ambiguous.length > 0) return undefined;
    names = found;
  } else {
    names = input;
  }
  let valid = true;
  const schemas: Partial<Record<(typeof PAGING_PARTS)[number], OpenAPIV3_1.SchemaObject>> = {};
  for (const part of PAGING_PARTS) {
    const name = names[part];
    if (name === undefined) continue;
    const parameter = free.find((candidate) => candidate.name === name);
    const where = declared ? [...at, part] : context.at;
    if (parameter === undefined) {
      context.report(
        where,
        `names no query parameter of GET ${context.pathName} that is not a filter or the sort`,
      );
      valid = false;
    } else if (parameterType(parameter) !== (isCursorPart(part) ? 'string' : 'integer')) {
      // A cursor is text (opaque, or a key); every other part is a count.
      const type = isCursorPart(part) ? 'a string' : 'an integer';
      context.report(
        where,
        `the query parameter ${name} ${declared ? 'pages the list' : `reads as the ${PART_WORDS[part]}`}, so it must be ${type}${declared ? '' : '; if it is not, declare `paging` (docs/declare-a-resource.md#paging)'}`,
      );
      valid = false;
    } else {
      schemas[part] = (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject;
    }
  }
  const starts = (['page', 'offset', 'cursor'] as const).filter(
    (part) => names[part] !== undefined,
  );
  if (starts.length > 1) {
    context.report(
      declared ? at : context.at,
      `a page starts at ${starts.map((part) => `${PART_ARTICLES[part]} (${names[part] ?? ''})`).join(' or at ')}: declare \`paging\` with one`,
    );
    valid = false;
  }
  if (names.before !== undefined && names.cursor === undefined) {
    context.report(
      declared ? [...at, 'before'] : context.at,
      `the query parameter ${names.before} asks for the page before an item, so the list needs a cursor parameter too (docs/declare-a-resource.md#paging)`,
    );
    valid = false;
  }
  if (!valid) return undefined;
  const position: PagePosition | undefined =
    names.page !== undefined
      ? { kind: 'page', parameter: names.page, first: firstPageOf(schemas.page ?? {}) }
      : names.offset !== undefined
        ? { kind: 'offset', parameter: names.offset }
        : names.cursor !== undefined
          ? {
              kind: 'cursor',
              parameter: names.cursor,
              before: names.before,
              value: cursorValueOf(
                typeof input === 'object' ? input.cursorValue : undefined,
                envelope === undefined || givesCursors(envelope),
              ),
            }
          : undefined;
  if (names.size === undefined) {
    // A position alone pages by a size the server chooses; neither is the whole list.
    return position === undefined
      ? { size: undefined, position }
      : { size: { parameter: undefined, byDefault: FALLBACK_PAGE_SIZE }, position };
  }
  return {
    size: { parameter: names.size, byDefault: defaultSizeOf(schemas.size ?? {}) },
    position,
  };
}

const PART_WORDS = {
  size: 'page size',
  page: 'page number',
  offset: 'offset',
  cursor: 'cursor',
  before: 'cursor of the page before',
} as const;

function isCursorPart(part: PagingPart): boolean {
  return part === 'cursor' || part === 'before';
}

/** Whether a list answer gives its clients cursors to follow: a cursor member, links, or `Link`. */
function givesCursors(envelope: ListEnvelope): boolean {
  return (
    envelope.kind === 'none' ||
    envelope.parts.some(
      ([part]) => part === 'nextCursor' || part === 'previousCursor' || part === 'links',
    )
  );
}
const PART_ARTICLES = { page: 'a page number', offset: 'an offset', cursor: 'a cursor' } as const;

/** The page size without the parameter: its default, else a usual size within its bounds. */
function defaultSizeOf(schema: OpenAPIV3_1.SchemaObject): number {
  if (typeof schema.default === 'number') return schema.default;
  const minimum = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
  const maximum = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : Infinity;
  return Math.max(1, minimum, Math.min(FALLBACK_PAGE_SIZE, maximum));
}

/** The first page's number: 0 where the schema starts there (Spring's pages), else 1. */
function firstPageOf(schema: OpenAPIV3_1.SchemaObject): number {
  if (typeof schema.minimum === 'number') return schema.minimum <= 0 ? 0 : 1;
  return schema.default === 0 ? 0 : 1;
}

/** How each type of field sorts; other fields (objects, arrays, mixed types) do not. */
const RANK_KINDS: Readonly<Partial<Record<FieldType, RankKind>>> = {
  integer: 'number',
  number: 'number',
  date: 'date',
  string: 'text',
  boolean: 'boolean',
};

function readSort(
  input: NonNullable<DataOperationInput['sort']>,
  collection: CollectionDeclaration,
  context: OperationContext,
): SortDeclaration | undefined {
  const at = [...context.at, 'sort'];
  let valid = true;
  const parameter = context.parameters.find(
    (candidate) => candidate.in === 'query' && candidate.name === input.parameter,
  );
  const shape = parameter === undefined ? undefined : parameterShapeOf(parameter);
  const textual =
    typeof shape === 'object' && (shape.kind === 'scalar' ? shape.scalar : shape.item) === 'string';
  if (parameter === undefined) {
    context.report([...at, 'parameter'], `names no query parameter of GET ${context.pathName}`);
    valid = false;
  } else if (!textual) {
    context.report(
      [...at, 'parameter'],
      `the query parameter ${input.parameter} must be a string (or an array of strings)`,
    );
    valid = false;
  }
  const fields = new Map<string, RankKind>();
  input.fields.forEach((field, index) => {
    const type = field === collection.key ? collection.keyType : collection.fields.get(field);
    const kind = type === undefined ? undefined : RANK_KINDS[type];
    if (type === undefined) {
      context.report([...at, 'fields', index], `${field} is not a field of ${collection.name}`);
      valid = false;
    } else if (kind === undefined) {
      context.report(
        [...at, 'fields', index],
        `${field} cannot be sorted: only numbers, text, dates and booleans are`,
      );
      valid = false;
    } else {
      fields.set(field, kind);
    }
  });
  let byDefault: readonly SortKey[] | undefined;
  if (input.default !== undefined && valid) {
    const keys = readSortKeys(input.default, new Set(fields.keys()));
    if (typeof keys === 'string') {
      context.report([...at, 'default'], keys);
      valid = false;
    } else byDefault = keys;
  }
  return valid && typeof shape === 'object'
    ? { parameter: input.parameter, shape, fields, byDefault }
    : undefined;
}

/**
 * An answer's envelope, as declared or the interface's, held to the operation's own response
 * schema; undefined (with each issue reported) where the two disagree.
 */
function readEnvelope(
  input: DataOperationInput['envelope'],
  role: 'list',
  context: OperationContext,
): ListEnvelope | undefined;
function readEnvelope(
  input: DataOperationInput['envelope'],
  role: 'item',
  context: OperationContext,
): ItemEnvelope | undefined;
function readEnvelope(
  input: DataOperationInput['envelope'],
  role: 'list' | 'item',
  context: OperationContext,
): ListEnvelope | ItemEnvelope | undefined {
  const at = [...context.at, 'envelope'];
  let valid = true;
  const pathOf = (part: string, text: string): MemberPath => {
    const path = memberPathOf(text);
    if (path === undefined) {
      context.report([...at, part], `${JSON.stringify(text)} is not a member path (a.b.c)`);
      valid = false;
    }
    return path ?? [];
  };
  let envelope: ListEnvelope | ItemEnvelope;
  if (input === undefined) {
    envelope = role === 'list' ? DEFAULT_LIST_ENVELOPE : DEFAULT_ITEM_ENVELOPE;
  } else if (input === 'none') {
    envelope = { kind: 'none' };
  } else if (role === 'item') {
    for (const part of Object.keys(input).filter((part) => part !== 'item')) {
      context.report([...at, part], "an item's envelope places `item` only");
      valid = false;
    }
    if (input['item'] === undefined) {
      context.report(at, "an item's envelope needs `item`: where the record goes");
      return undefined;
    }
    envelope = { kind: 'object', path: pathOf('item', input['item']) };
  } else {
    if (input['item'] !== undefined) {
      context.report([...at, 'item'], "a list's envelope places `items`, not `item`");
      valid = false;
    }
    if (input['items'] === undefined) {
      context.report(at, "a list's envelope needs `items`: where the page's records go");
      return undefined;
    }
    // In the order written: the answer's members follow it.
    const parts = Object.keys(input).flatMap((part) => {
      const text = input[part];
      return isListPart(part) && text !== undefined ? [[part, pathOf(part, text)] as const] : [];
    });
    const seen = new Map<string, string>();
    for (const [part, path] of parts) {
      const text = path.join('.');
      const clash = [...seen].find(
        ([other]) => other === text || other.startsWith(`${text}.`) || text.startsWith(`${other}.`),
      );
      if (clash !== undefined) {
        context.report([...at, part], `${text} overlaps ${clash[1]}'s ${clash[0]}`);
        valid = false;
      }
      seen.set(text, part);
    }
    envelope = { kind: 'object', parts };
  }
  if (!valid) return undefined;
  const issues = envelopeIssues(envelope, role, successSchemaOf(context.operation));
  for (const issue of issues) {
    context.report(
      issue.part === undefined || input === undefined ? at : [...at, issue.part],
      input === undefined
        ? `${issue.message}: declare \`envelope\` to answer as the response schema says (docs/declare-a-resource.md)`
        : issue.message,
    );
  }
  return issues.length === 0 ? envelope : undefined;
}

function isListPart(part: string): part is ListPart {
  return (LIST_PARTS as readonly string[]).includes(part);
}

function readViews(
  input: DataOperationInput,
  collection: CollectionDeclaration,
  context: OperationContext,
): Views | undefined {
  const { at, report } = context;
  if (input.view !== undefined && input.views !== undefined) {
    report(at, 'declare either `view` (every access level) or `views` (one per level), not both');
    return undefined;
  }
  // No view: every level sees the record as it is.
  if (input.view === undefined && input.views === undefined) {
    return { kind: 'every', view: { fields: [], rest: true, omit: [] } };
  }
  const check = (view: ViewInput, where: Path): ViewDeclaration | undefined => {
    let valid = true;
    if (Object.keys(view.fields ?? {}).length === 0 && view.rest !== true) {
      report(where, 'shows nothing: name `fields`, or `rest: true` for the whole record');
      valid = false;
    }
    for (const [output, field] of Object.entries(view.fields ?? {})) {
      if (!collection.fields.has(field)) {
        report([...where, 'fields', output], `${field} is not a field of ${collection.name}`);
        valid = false;
      } else if (view.rest === true && output !== field) {
        // The rest of a record comes under the fields' own names: a renamed member could meet
        // a field of the same name there, and an answer would hold one key twice.
        report(
          [...where, 'fields', output],
          `a view with \`rest\` shows each field under its own name (${field}, not ${output})`,
        );
        valid = false;
      }
    }
    for (const [index, field] of (view.omit ?? []).entries()) {
      if (!collection.fields.has(field)) {
        report([...where, 'omit', index], `${field} is not a field of ${collection.name}`);
        valid = false;
      }
    }
    return valid
      ? {
          fields: Object.entries(view.fields ?? {}),
          rest: view.rest === true,
          omit: view.omit ?? [],
        }
      : undefined;
  };
  if (input.view !== undefined) {
    const view = check(input.view, [...at, 'view']);
    return view === undefined ? undefined : { kind: 'every', view };
  }
  if (context.open) {
    report(
      [...at, 'views'],
      'an operation open to all (security: []) knows no access level: declare one `view`',
    );
    return undefined;
  }
  const views = new Map<string, ViewDeclaration>();
  for (const [level, view] of Object.entries(input.views ?? {})) {
    const checked = check(view, [...at, 'views', level]);
    if (checked === undefined) return undefined;
    views.set(level, checked);
  }
  return { kind: 'by-level', views };
}

/** The type a schema gives its values, a null alongside aside. */
export function fieldTypeOf(schema: OpenAPIV3_1.SchemaObject): FieldType {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type) => type !== 'null' && type !== undefined,
  );
  if (types.length === 0 && Array.isArray(schema.enum)) {
    return schema.enum.every((value) => typeof value === 'string') ? 'string' : 'other';
  }
  const [type] = types;
  if (types.length !== 1) return 'other';
  if (type === 'string') {
    return schema.format === 'date' || schema.format === 'date-time' ? 'date' : 'string';
  }
  return type === 'integer' || type === 'number' || type === 'boolean' ? type : 'other';
}

function parameterType(parameter: OpenAPIV3_1.ParameterObject): FieldType {
  return fieldTypeOf((parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject);
}

/**
 * Why a filter cannot match its field with its parameter, or undefined if it can. `exact`
 * compares like with like (numbers, booleans, text) and takes an array parameter as "any of";
 * `contains` needs text; `min` and `max` need numbers or dates on both sides, or the key, which
 * is in order whatever its type.
 */
function filterProblem(
  match: Match,
  field: FieldType,
  parameter: OpenAPIV3_1.ParameterObject,
  shape: ParameterShape,
  onKey: boolean,
): string | undefined {
  const schema = (parameter.schema ?? {}) as OpenAPIV3_1.SchemaObject;
  const given =
    shape.kind === 'array'
      ? fieldTypeOf('items' in schema ? schema.items : {})
      : fieldTypeOf(schema);
  const kindOf = (type: FieldType) =>
    type === 'integer' || type === 'number' ? 'number' : type === 'date' ? 'string' : type;
  if (match === 'exact') {
    return field !== 'other' && kindOf(field) === kindOf(given)
      ? undefined
      : `exact needs the parameter to be of the field's type (${field}), or an array of it`;
  }
  if (shape.kind === 'array') return `${match} takes one value, not an array`;
  if (match === 'contains') {
    return kindOf(field) === 'string' && kindOf(given) === 'string'
      ? undefined
      : 'contains needs a string field and a string parameter';
  }
  const ordered =
    (kindOf(field) === 'number' && kindOf(given) === 'number') ||
    (field === 'date' && given === 'date') ||
    (onKey && field === given);
  return ordered
    ? undefined
    : `${match} needs a number field and a number parameter, or a date field and a date parameter (format date or date-time)`;
}
