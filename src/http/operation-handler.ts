/**
 * @module The handler of each declared operation: a data operation's one call and its writer,
 * health, or the spec itself. No operation is named here: each comes from the spec's
 * declarations (src/resources/).
 */
import type { FastifyRequest } from 'fastify';
import { stringify } from 'yaml';
import type { DataOperation, Dataset, ListQuery } from '../dataset/dataset.ts';
import { buildLinks } from '../query/links.ts';
import { itemAnswerWriter, listAnswerWriter } from './answer-envelope.ts';
import type { Condition } from '../query/query.ts';
import type { OperationDeclaration } from '../resources/declarations.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { LIMIT_PARAMETER, PAGE_PARAMETER } from '../spec/pagination.ts';
import type { ParameterValue } from '../spec/parameter-parser.ts';
import { queryPairsOf } from '../spec/parameter-style.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
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
    case 'document':
      return documentHandler(spec, declaration.format);
    case 'item':
    case 'list':
      if (data === undefined) throw new Error(`${declaration.kind}: no data operation`);
      return data.kind === 'list' ? listHandler(data) : itemHandler(data);
  }
}

function listHandler(operation: Extract<DataOperation, { kind: 'list' }>): OperationHandler {
  const { filters, envelope, sort } = operation.declaration;
  const answer = listAnswerWriter(envelope);
  const sortFields = new Set(sort?.fields.keys());
  return (context) => {
    const { values } = context;
    const conditions: Condition[] = [];
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
        throw ProblemError.from(PROBLEMS.INVALID_PARAMETERS, '1 parameter is invalid.', {
          errors: [{ parameter: sort.parameter, in: 'query', message: keys }],
        });
      }
      order = keys;
      repeated.push(...queryPairsOf(sort.parameter, asked, sort.shape));
    }
    const query: ListQuery = { conditions, order, page: pageRequestOf(values) };
    const page = operation.list(context.dataset, query);
    // Links name the collection as the spec does, also when it was asked for with a trailing slash.
    const path = (context.request.url.split('?', 1)[0] ?? '').replace(/(?<=.)\/+$/, '');
    const links = buildLinks(
      {
        url: `${context.origin()}${path}`,
        filters: repeated,
        // Fastify's query, parsed once already: its names are decoded, however they were sent.
        namesLimit:
          operation.linkLimit === 'always' ||
          Object.hasOwn(context.request.query as object, LIMIT_PARAMETER),
        encoding: operation.linkEncoding,
      },
      page,
    );
    const items = operation.writePage(context.dataset, page, context.request.accessLevel);
    const { total, limit, lastPage } = page;
    const written = answer({ items, links, total, page: page.page, limit, pages: lastPage });
    return { ...written, type: JSON_TYPE };
  };
}

function itemHandler(operation: Extract<DataOperation, { kind: 'item' }>): OperationHandler {
  const { parameter, envelope } = operation.declaration;
  const answer = itemAnswerWriter(envelope);
  return (context) => {
    const key = context.values.get(parameter);
    if (typeof key !== 'number' && typeof key !== 'string') {
      throw new Error(`${parameter} must be of the key's type by the spec`);
    }
    const item = operation.get(context.dataset, key, context.request.accessLevel);
    return { body: answer(item), type: JSON_TYPE };
  };
}

/** `limit` and `page` always have values: the declarations require their defaults. */
function pageRequestOf(values: ReadonlyMap<string, ParameterValue>): ListQuery['page'] {
  const limit = values.get(LIMIT_PARAMETER);
  const page = values.get(PAGE_PARAMETER);
  if (typeof limit !== 'number' || typeof page !== 'number') {
    throw new Error('The spec must give limit and page integer schemas with defaults');
  }
  return { limit, page };
}

/** Stands for the origin in the rendered spec; no spec holds it (its NULs cannot be typed). */
const ORIGIN = '\u0000origin\u0000';

function documentHandler(spec: LoadedSpec, format: 'json' | 'yaml'): OperationHandler {
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
    return (context) => ({ body: fill(json, context.origin()), type: JSON_TYPE });
  }
  // The YAML only when first asked for: rendering it took 36 ms of every start, and most runs
  // never ask.
  let yaml: string[] | undefined;
  return (context) => ({
    body: fill((yaml ??= stringify(served).split(stringify(ORIGIN).trim())), context.origin()),
    type: 'application/yaml; charset=utf-8',
  });
}
