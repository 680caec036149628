/**
 * @module The handler of each declared operation: a data operation's one call and its writer,
 * health, or the spec itself. No operation is named here: each comes from the spec's
 * declarations (src/resources/).
 */
import type { FastifyRequest } from 'fastify';
import { stringify } from 'yaml';
import {
  parentsIn,
  requireParents,
  type DataOperation,
  type Dataset,
  type ParentKey,
} from '../dataset/dataset.ts';
import { decodeCursor, encodeCursor, listTagger } from '../query/cursor.ts';
import type { Key, KeyColumn } from '../query/keys.ts';
import { buildLinks, type Links, type PagePosition } from '../query/links.ts';
import { itemAnswerWriter, listAnswerWriter } from './answer-envelope.ts';
import type { Condition } from '../query/query.ts';
import type { OperationDeclaration } from '../resources/declarations.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { MAX_ANSWER_ITEMS } from '../spec/pagination.ts';
import type { PagingDeclaration, ParentDeclaration } from '../resources/declarations.ts';
import type { PageRequest } from '../query/query.ts';
import type { ParameterValue } from '../spec/parameter-parser.ts';
import { queryPairsOf } from '../spec/parameter-style.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { LIST_PROBLEMS, PROBLEMS } from '../problems/problem-types.ts';
import { readSortKeys } from '../resources/sort-order.ts';

export interface OperationContext {
  readonly request: FastifyRequest;
  /** Parameters parsed and validated by the spec, defaults applied. */
  readonly values: ReadonlyMap<string, ParameterValue>;
  /** The data this request is answered from, read once. */
  readonly dataset: Dataset;
  /** `http://host:port`: where absolute links start. A function: only lists need it. */
  origin(): string;
}

export interface OperationResult {
  /** Serialised as JSON; a string is sent as it is, as text of `type`. */
  readonly body: unknown;
  /** Defaults to application/json. */
  readonly type?: string;
  /** Headers the answer carries parts in (a list's `Link`). */
  readonly headers?: Readonly<Record<string, string>>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export type OperationHandler = (context: OperationContext) => OperationResult;

/** The handler of a declared operation. */
export function operationHandler(
  declaration: Exclude<OperationDeclaration, { kind: 'write' }>,
  data: DataOperation | undefined,
  spec: LoadedSpec,
): OperationHandler {
  switch (declaration.kind) {
    case 'health':
      return (context) => ({
        body: {
          status: 'ok',
          ...Object.fromEntries(
            declaration.counts.map(([output, collection]) => [
              output,
              context.dataset.sizes.get(collection) ?? 0,
            ]),
          ),
        },
      });
    case 'document': {
      const document = servedDocument(spec, declaration.format);
      return (context) => document(context.origin());
    }
    case 'item':
    case 'list':
      if (data === undefined) throw new Error(`${declaration.kind}: no data operation`);
      if (data.kind === 'list') return listHandler(data, spec.fingerprint);
      if (data.kind === 'item') return itemHandler(data);
      throw new Error(`${declaration.kind}: a write's data operation`);
  }
}

function listHandler(
  operation: Extract<DataOperation, { kind: 'list' }>,
  /** The spec's digest: a cursor of a former spec is refused. */
  specFingerprint: string,
): OperationHandler {
  const { filters, envelope, sort, paging, parents } = operation.declaration;
  const answer = listAnswerWriter(envelope);
  const sortFields = new Set(sort?.fields.keys());
  const sizeParameter = paging.size?.parameter;
  const { position } = paging;
  const listTag = listTagger(specFingerprint);
  const showsLinks = envelope.kind === 'none' || envelope.parts.some(([part]) => part === 'links');
  // A key names the page before an item only through a parameter of its own (ending_before).
  const namesPageBefore =
    position?.kind === 'cursor' && (position.value === 'opaque' || position.before !== undefined);
  return (context) => {
    const { values } = context;
    const conditions: Condition[] = [];
    // A nested list is its parent's part of the collection; an unknown parent is a 404.
    const parentKeys = parentKeysOf(values, parents);
    requireParents(parentsIn(context.dataset), parentKeys);
    const [nearest] = parentKeys;
    if (nearest !== undefined) {
      conditions.push({ field: nearest.field, match: 'exact', value: nearest.value });
    }
    const repeated: (readonly [string, string])[] = [];
    for (const filter of filters) {
      const value = values.get(filter.parameter);
      if (value === undefined) continue;
      conditions.push({ field: filter.field, match: filter.match, value });
      repeated.push(...queryPairsOf(filter.parameter, value, filter.shape));
    }
    let order = sort?.byDefault;
    const asked = sort === undefined ? undefined : values.get(sort.parameter);
    if (sort !== undefined && asked !== undefined) {
      const text = Array.isArray(asked) ? asked.map(String) : String(asked);
      const keys = readSortKeys(text, sortFields);
      if (typeof keys === 'string') {
        throw invalidParameter(sort.parameter, keys);
      }
      order = keys;
      repeated.push(...queryPairsOf(sort.parameter, asked, sort.shape));
    }
    // Links name the collection as the spec does, also when it was asked for with a trailing slash.
    const path = (context.request.url.split('?', 1)[0] ?? '').replace(/(?<=.)\/+$/, '');
    // A cursor is of this list only: its path (parents included), filters, order and spec.
    const tag =
      position?.kind === 'cursor' && position.value === 'opaque'
        ? listTag([path, JSON.stringify(repeated), JSON.stringify(order ?? [])])
        : '';
    const records = context.dataset.collection(operation.declaration.collection);
    const request = pageRequestOf(values, paging, tag, records.keyType);
    const page = operation.list(context.dataset, { conditions, order, page: request });
    const { total, limit, start } = page;
    const end = start + page.items.length;
    // Whether items follow in the direction the page was asked for (Stripe's `has_more`).
    const hasMore = request.cursor?.position.direction === 'before' ? start > 0 : end < total;
    const cursorAt = (index: number, direction: 'after' | 'before'): string | null => {
      const item = page.items[index - start];
      if (position?.kind !== 'cursor' || item === undefined) return null;
      const key = records.keyAt(item);
      return position.value === 'key' ? String(key) : encodeCursor(tag, { key, index, direction });
    };
    const nextCursor = end < total ? cursorAt(end - 1, 'after') : null;
    const previousCursor = start > 0 && namesPageBefore ? cursorAt(start, 'before') : null;
    // The page number as asked (exact up to 2^53, where start / limit is not), or as counted.
    const askedPage = position?.kind === 'page' ? values.get(position.parameter) : undefined;
    const pageNumber =
      typeof askedPage === 'number'
        ? askedPage
        : (position?.kind === 'page' ? position.first : 1) + Math.floor(start / limit);
    // A cursor names no page to be past: a list that shrank under it ends, empty.
    if (
      start > 0 &&
      start >= total &&
      operation.pastTheEnd !== 'empty' &&
      position?.kind !== 'cursor'
    ) {
      const why =
        position?.kind === 'offset'
          ? `is past the last item, ${String(total)}`
          : `is past the last page, ${String(page.lastPage - 1 + (position?.kind === 'page' ? position.first : 1))}`;
      if (operation.pastTheEnd === 'bad-request' && position !== undefined) {
        throw invalidParameter(position.parameter, why);
      }
      throw ProblemError.from(
        PROBLEMS.NOT_FOUND,
        position?.kind === 'offset'
          ? `Offset ${String(start)} ${why}.`
          : `Page ${String(pageNumber)} ${why}.`,
      );
    }
    if (page.items.length > MAX_ANSWER_ITEMS) {
      throw ProblemError.from(
        LIST_PROBLEMS.LIST_TOO_LONG,
        `The list holds ${String(total)} items; one answer holds at most ${String(MAX_ANSWER_ITEMS)}: a filter narrows it${sizeParameter === undefined ? '' : `, or a smaller ${sizeParameter}`}.`,
        { extensions: { total } },
      );
    }
    // Links only where the answer shows them (a `links` part, or a bare array's Link header).
    const links = !showsLinks
      ? UNSHOWN_LINKS
      : buildLinks(
          {
            url: `${context.origin()}${path}`,
            filters: repeated,
            // Fastify's query, parsed once already: its names are decoded, however they were sent.
            size:
              sizeParameter !== undefined &&
              (operation.linkLimit === 'always' ||
                Object.hasOwn(context.request.query as object, sizeParameter))
                ? sizeParameter
                : undefined,
            position,
            encoding: operation.linkEncoding,
            nextCursor,
            previousCursor,
          },
          page,
        );
    const items = operation.writePage(context.dataset, page, context.request.accessLevel);
    const written = answer({
      items,
      links,
      total,
      page: pageNumber,
      limit,
      pages: page.lastPage,
      offset: start,
      nextCursor,
      previousCursor,
      hasMore,
    });
    return { ...written, type: JSON_TYPE };
  };
}

/** The links of an answer that shows none: never written. */
const UNSHOWN_LINKS: Links = { first: '', last: null, prev: null, next: null };

function itemHandler(operation: Extract<DataOperation, { kind: 'item' }>): OperationHandler {
  const { parameter, envelope, parents } = operation.declaration;
  const answer = itemAnswerWriter(envelope);
  return (context) => {
    const key = keyOf(context.values, parameter);
    const item = operation.get(
      context.dataset,
      key,
      parentKeysOf(context.values, parents),
      context.request.accessLevel,
    );
    return { body: answer(item), type: JSON_TYPE };
  };
}

/** A path parameter that holds a key: its schema, which the declarations hold to the key's, typed it. */
function keyOf(values: ReadonlyMap<string, ParameterValue>, parameter: string): Key {
  const key = values.get(parameter);
  if (typeof key !== 'number' && typeof key !== 'string') {
    throw new Error(`${parameter} must be of the key's type by the spec`);
  }
  return key;
}

/** The parents a nested request names, each with its path parameter's value. */
function parentKeysOf(
  values: ReadonlyMap<string, ParameterValue>,
  parents: readonly ParentDeclaration[],
): readonly ParentKey[] {
  // Most lists have no parent: no array is made for them on every request.
  if (parents.length === 0) return NO_PARENTS;
  return parents.map((parent) => ({ ...parent, value: keyOf(values, parent.parameter) }));
}

const NO_PARENTS: readonly ParentKey[] = [];

/**
 * Where the asked page starts and how many items it holds, from the list's paging parameters
 * (their defaults where not given); a size or a position the schema leaves open below its
 * first, or a cursor this list did not give, is a 400 problem naming it.
 */
function pageRequestOf(
  values: ReadonlyMap<string, ParameterValue>,
  paging: PagingDeclaration,
  /** The list's tag, which an opaque cursor must carry. */
  tag: string,
  /** The type of the collection's keys, which a cursor that is a key must be of. */
  keyType: KeyColumn['type'],
): PageRequest {
  const { size, position } = paging;
  if (size === undefined) return { start: 0, limit: undefined };
  const given = size.parameter === undefined ? undefined : values.get(size.parameter);
  const limit = typeof given === 'number' ? given : size.byDefault;
  if (limit < 1) throw invalidParameter(size.parameter ?? '', 'must be at least 1');
  if (position === undefined) return { start: 0, limit };
  if (position.kind === 'cursor') {
    const cursor = cursorOf(values, position, tag, keyType);
    return cursor === undefined ? { start: 0, limit } : { start: 0, limit, cursor };
  }
  const value = values.get(position.parameter);
  const first = position.kind === 'page' ? position.first : 0;
  const at = typeof value === 'number' ? value : first;
  if (at < first) throw invalidParameter(position.parameter, `must be at least ${String(first)}`);
  return { start: position.kind === 'page' ? (at - first) * limit : at, limit };
}

/**
 * The cursor a request gives, read as the list's cursors are: an opaque cursor must be this
 * list's and, where the list asks for the page before by a parameter of its own, of the page that
 * parameter asks for; a key must be of the key's type.
 */
function cursorOf(
  values: ReadonlyMap<string, ParameterValue>,
  position: Extract<PagePosition, { kind: 'cursor' }>,
  tag: string,
  keyType: KeyColumn['type'],
): PageRequest['cursor'] {
  const after = values.get(position.parameter);
  const before = position.before === undefined ? undefined : values.get(position.before);
  if (after !== undefined && before !== undefined) {
    throw invalidParameter(
      position.before ?? '',
      `is given with ${position.parameter}: a page is either after an item or before one`,
    );
  }
  const [parameter, value] =
    before === undefined ? [position.parameter, after] : [position.before ?? '', before];
  if (value === undefined) return undefined;
  const text = String(value);
  if (position.value === 'key') {
    const key = keyType === 'integer' ? integerKeyOf(text) : text;
    if (key === undefined) throw invalidParameter(parameter, 'is not a key of this list');
    const direction = before === undefined ? 'after' : 'before';
    return { position: { key, index: -1, direction }, parameter };
  }
  const read = decodeCursor(text, tag);
  if (typeof read === 'string') throw invalidParameter(parameter, read);
  if (position.before !== undefined && (read.direction === 'before') !== (before !== undefined)) {
    const other = read.direction === 'before' ? position.before : position.parameter;
    throw invalidParameter(
      parameter,
      `is the cursor of the page ${read.direction} an item: give it as ${other}`,
    );
  }
  return { position: read, parameter };
}

/** An integer key as a query writes it, or undefined. */
function integerKeyOf(text: string): number | undefined {
  if (!/^-?(?:0|[1-9]\d{0,15})$/.test(text)) return undefined;
  const key = Number(text);
  return Number.isSafeInteger(key) ? key : undefined;
}

function invalidParameter(parameter: string, message: string): ProblemError {
  return ProblemError.from(PROBLEMS.INVALID_PARAMETERS, '1 parameter is invalid.', {
    errors: [{ parameter, in: 'query', message }],
  });
}

/** Stands for the origin in the rendered spec; no spec holds it (its NULs cannot be typed). */
const ORIGIN = '\u0000origin\u0000';

/** The spec as served, JSON or YAML, with this stockmock at `origin` as its only server. */
export function servedDocument(
  spec: LoadedSpec,
  format: 'json' | 'yaml',
): (origin: string) => OperationResult {
  // The served spec's only server is this stockmock, at the origin its links use (the base URL,
  // else the request's), so that a client generated from it calls this server on any port:
  // the file's `http://localhost:4010` is right only on the default port.
  const served = { ...spec.document, servers: [{ url: ORIGIN, description: 'This stockmock' }] };
  // A double-quoted JSON string is also a YAML scalar: one escaping serves both.
  const fill = (parts: readonly string[], origin: string): string =>
    parts.join(JSON.stringify(origin));
  if (format === 'json') {
    // Rendered once around the origin: the spec does not change while the server runs.
    const json = JSON.stringify(served).split(JSON.stringify(ORIGIN));
    return (origin) => ({ body: fill(json, origin), type: JSON_TYPE });
  }
  // The YAML only when first asked for: rendering it took 36 ms of every start, and most runs
  // never ask.
  let yaml: string[] | undefined;
  return (origin) => ({
    body: fill((yaml ??= stringify(served).split(stringify(ORIGIN).trim())), origin),
    type: 'application/yaml; charset=utf-8',
  });
}
