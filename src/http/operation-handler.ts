/**
 * @module The handler of each declared operation: a data operation's one call and its writer,
 * health, or the spec itself. No operation is named here: each comes from the spec's
 * declarations (src/resources/).
 */
import type { FastifyRequest } from 'fastify';
import { stringify } from 'yaml';
import {
  requireParents,
  type DataOperation,
  type Dataset,
  type ParentKey,
} from '../dataset/dataset.ts';
import { decodeCursor, encodeCursor, listTag } from '../query/cursor.ts';
import { keyAt, type Key } from '../query/keys.ts';
import { buildLinks } from '../query/links.ts';
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
  declaration: OperationDeclaration,
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
      return data.kind === 'list' ? listHandler(data, spec.fingerprint) : itemHandler(data);
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
  return (context) => {
    const { values } = context;
    const conditions: Condition[] = [];
    // A nested list is its parent's part of the collection; an unknown parent is a 404.
    const parentKeys = parentKeysOf(values, parents);
    requireParents(context.dataset, parentKeys);
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
      position?.kind === 'cursor'
        ? listTag([specFingerprint, path, JSON.stringify(repeated), JSON.stringify(order ?? [])])
        : '';
    const request = pageRequestOf(values, paging, tag);
    const page = operation.list(context.dataset, { conditions, order, page: request });
    const { total, limit, start } = page;
    const hasMore = start + page.items.length < total;
    const last = page.items.at(-1);
    const nextCursor =
      position?.kind === 'cursor' && hasMore && last !== undefined
        ? encodeCursor(tag, {
            key: keyAt(
              context.dataset.collection(operation.declaration.collection).collection.keys,
              last,
            ),
            index: start + page.items.length - 1,
          })
        : null;
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
      operation.pastTheEnd === 'not-found' &&
      position?.kind !== 'cursor'
    ) {
      throw ProblemError.from(
        PROBLEMS.NOT_FOUND,
        position?.kind === 'offset'
          ? `Offset ${String(start)} is past the last item, ${String(total)}.`
          : `Page ${String(pageNumber)} is past the last page, ${String(page.lastPage - 1 + (position?.kind === 'page' ? position.first : 1))}.`,
      );
    }
    if (page.items.length > MAX_ANSWER_ITEMS) {
      throw ProblemError.from(
        LIST_PROBLEMS.LIST_TOO_LONG,
        `The list holds ${String(total)} items; one answer holds at most ${String(MAX_ANSWER_ITEMS)}: a filter narrows it${sizeParameter === undefined ? '' : `, or a smaller ${sizeParameter}`}.`,
        { extensions: { total } },
      );
    }
    const links = buildLinks(
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
      hasMore,
    });
    return { ...written, type: JSON_TYPE };
  };
}

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
 * first is a 400 problem naming it.
 */
function pageRequestOf(
  values: ReadonlyMap<string, ParameterValue>,
  paging: PagingDeclaration,
  /** The list's tag, which a cursor must carry. */
  tag: string,
): PageRequest {
  const { size, position } = paging;
  if (size === undefined) return { start: 0, limit: undefined };
  const given = size.parameter === undefined ? undefined : values.get(size.parameter);
  const limit = typeof given === 'number' ? given : size.byDefault;
  if (limit < 1) throw invalidParameter(size.parameter ?? '', 'must be at least 1');
  if (position === undefined) return { start: 0, limit };
  const value = values.get(position.parameter);
  if (position.kind === 'cursor') {
    if (value === undefined) return { start: 0, limit };
    const after = decodeCursor(String(value), tag);
    if (typeof after === 'string') throw invalidParameter(position.parameter, after);
    return { start: 0, limit, after: { position: after, parameter: position.parameter } };
  }
  const first = position.kind === 'page' ? position.first : 0;
  const at = typeof value === 'number' ? value : first;
  if (at < first) throw invalidParameter(position.parameter, `must be at least ${String(first)}`);
  return { start: position.kind === 'page' ? (at - first) * limit : at, limit };
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
