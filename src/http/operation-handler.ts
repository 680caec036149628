/** @module The contract between the route loop and the handlers of the spec's operations. */
import type { FastifyRequest } from 'fastify';
import type { Catalog } from '../catalog/catalog.ts';
import type { Compatibility } from '../access/compatibility.ts';
import { isStockStatus } from '../catalog/stock-status.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS } from '../problems/problem-types.ts';
import { buildLinks, type Links } from '../query/links.ts';
import type { QueryEngine } from '../query/engine.ts';
import { applyListRules, type ListRules } from '../query/list-rules.ts';
import { paginate } from '../query/paginate.ts';
import type { PageRequest, ProductFilter } from '../query/query.ts';
import type { ParameterValue } from '../spec/parameter-parser.ts';

export interface OperationContext {
  readonly request: FastifyRequest;
  /** Parameters parsed and validated by the spec, defaults applied. */
  readonly values: ReadonlyMap<string, ParameterValue>;
  /** The catalogue this request is answered from, read once… */
  readonly catalog: Catalog;
  /** …and the query engine over it. */
  readonly engine: QueryEngine;
  /** `http://host:port`: where absolute links start. A function: only lists need it. */
  origin(): string;
  /** How lists are ordered, matched and paged past their end (the compatibility settings). */
  readonly listing: ListingRules;
}

export type ListingRules = ListRules & Pick<Compatibility, 'pastTheEnd'>;

export interface OperationResult {
  /** Serialised as JSON; a string is sent as it is, as text of `type`. */
  readonly body: unknown;
  /** Defaults to application/json. */
  readonly type?: string;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export type OperationHandler = (context: OperationContext) => OperationResult;

/** The list filters, in the order links repeat them. */
const FILTERS = ['name', 'id', 'status'] as const;

/** A page of the filtered catalogue, each position read by `view`, with its links. */
export function listPage<T>(
  context: OperationContext,
  view: (catalog: Catalog, position: number) => T,
): { data: T[]; links: Links } {
  const { positions, links } = pageOf(context);
  return { data: positions.map((position) => view(context.catalog, position)), links };
}

/** The same page as JSON text, each position written by `write` as the JSON of its item. */
export function listPageJson(
  context: OperationContext,
  write: (catalog: Catalog, position: number) => string,
): string {
  const { positions, links } = pageOf(context);
  let data = '';
  for (const [index, position] of positions.entries()) {
    data += index === 0 ? write(context.catalog, position) : `,${write(context.catalog, position)}`;
  }
  return `{"data":[${data}],"links":${JSON.stringify(links)}}`;
}

/** The positions on the requested page of the filtered catalogue, and the page's links. */
function pageOf(context: OperationContext): { positions: readonly number[]; links: Links } {
  const { values } = context;
  const filter: { -readonly [K in keyof ProductFilter]: ProductFilter[K] } = {};
  const name = values.get('name');
  const id = values.get('id');
  const status = values.get('status');
  if (typeof name === 'string') filter.name = name;
  if (typeof id === 'number') filter.id = id;
  if (isStockStatus(status)) filter.status = status;

  const selection = applyListRules(
    context.engine.select(filter),
    context.catalog,
    filter.name,
    context.listing,
  );
  const page = paginate(selection, pageRequestOf(values));
  if (context.listing.pastTheEnd === 'not-found' && page.page > page.lastPage) {
    throw ProblemError.from(
      PROBLEMS.NOT_FOUND,
      `Page ${String(page.page)} is past the last page, ${String(page.lastPage)}.`,
    );
  }
  // Links name the collection as the spec does, also when it was asked for with a trailing slash.
  const path = (context.request.url.split('?', 1)[0] ?? '').replace(/(?<=.)\/+$/, '');
  const links = buildLinks(
    {
      url: `${context.origin()}${path}`,
      filters: FILTERS.flatMap((key) => {
        const value = values.get(key);
        return value === undefined ? [] : [[key, value] as const];
      }),
    },
    page,
  );
  return { positions: page.items, links };
}

/** `limit` and `page` always have values: the spec gives their defaults. */
function pageRequestOf(values: ReadonlyMap<string, ParameterValue>): PageRequest {
  const limit = values.get('limit');
  const page = values.get('page');
  if (typeof limit !== 'number' || typeof page !== 'number') {
    throw new Error('The spec must give limit and page integer schemas with defaults');
  }
  return { limit, page };
}

/** The position of the product a path id names, or -1; the id is valid by the spec. */
export function positionOfPathId(context: OperationContext): number {
  const id = context.values.get('id');
  return typeof id === 'number' ? context.catalog.byId.positionOf(id) : -1;
}
