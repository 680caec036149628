/**
 * Variants that break one rule about the data served: pagination and links, filters, stock
 * semantics, single items against list items, the fields of each level, and caching.
 */
import { makeCatalogue, type Product } from './catalogue.ts';
import { without, type JsonObject } from './json.ts';
import {
  foldCase,
  caseInsensitiveSubstring,
  lastPage,
  matchesAll,
  ordered,
  pageLink,
  pageSlice,
  standardLinks,
  type Filters,
  type Links,
  type ListQuery,
  type NameMatcher,
} from './query.ts';
import type { LinkContext } from './reference-server.ts';
import type { VariantSpec } from './servers.ts';
import { broken, counter, isSingle, mapBody } from './variant-helpers.ts';

// ---- pagination and links ---------------------------------------------------------------------

/** The reference links with some members replaced. */
function linksWith(change: (context: LinkContext, standard: Links) => Partial<Links>) {
  return (context: LinkContext): Links => {
    const standard = standardLinks(context.info, (page) => context.link(page));
    return { ...standard, ...change(context, standard) };
  };
}

/** The reference links, built without one of the query parameters they should keep. */
function linksDropping(parameter: string) {
  return (context: LinkContext): Links => {
    const kept = new URLSearchParams(context.parameters);
    kept.delete(parameter);
    return standardLinks(context.info, (page) => context.link(page, kept));
  };
}

const PAGINATION: readonly VariantSpec[] = [
  broken(
    'interface',
    'last link one past the end when the limit divides the total',
    'Interface "List envelope": last is the URL of the last page; floor(total/limit)+1 names ' +
      'an empty page when limit divides total',
    {
      faults: {
        links: linksWith(({ info, link }) => ({
          last: link(Math.floor(info.total / info.limit) + 1),
        })),
      },
    },
  ),
  broken(
    'interface',
    'extra empty page when the limit divides the total',
    'Interface "List envelope": next is null at the end of the list',
    {
      faults: {
        links: linksWith(({ info, link }) => ({
          next: info.page <= Math.floor(info.total / info.limit) ? link(info.page + 1) : null,
        })),
      },
    },
  ),
  broken(
    'interface',
    'next link on every non-empty page (7 products)',
    'Interface "List envelope": next is null at the end of the list, a single page included',
    {
      catalogue: 'seven',
      faults: {
        links: linksWith(({ info, link }) => ({
          next: (info.page - 1) * info.limit < info.total ? link(info.page + 1) : null,
        })),
      },
    },
  ),
  broken(
    'interface',
    'last link names page 0 on an empty list',
    'Interface "List envelope" and "Limits": last names a page of the list, and pages start ' +
      'at 1; ceil(0/limit) = 0 names a page the service itself refuses (PRODUCT.md: max(1, …))',
    {
      faults: {
        links: linksWith(({ info, link }) => ({ last: link(Math.ceil(info.total / info.limit)) })),
      },
    },
  ),
  broken(
    'interface',
    'empty list has a next link',
    'Interface "List envelope": next is null at the end of the list; an empty list ends at once',
    {
      faults: {
        links: linksWith(({ info, link }) => (info.total === 0 ? { next: link(2) } : {})),
      },
    },
  ),
  broken(
    'interface',
    'empty filtered list answers 404',
    'Interface "Pagination of other lists": the convention applies whatever the number of ' +
      'items; a filter nothing matches is a 200 with empty data',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 200 && context.page?.total === 0
            ? context.problem(404, 'No products found.')
            : reply,
      },
    },
  ),
  broken(
    'stand-in',
    'page past the end repeats the last page',
    'PRODUCT.md "page past the end": 200 with empty data (the interface leaves it open)',
    {
      faults: {
        slice: (items, page, limit) =>
          pageSlice(items, Math.min(page, lastPage(items.length, limit)), limit),
      },
    },
  ),
  broken(
    'interface',
    'page past the end crashes with 500',
    'RFC 9110 §15.6: 5xx means the server failed; a page past the end is a valid request',
    {
      faults: {
        slice: (items, page, limit) => {
          if (page > lastPage(items.length, limit)) throw new RangeError('page out of range');
          return pageSlice(items, page, limit);
        },
      },
    },
  ),
  broken(
    'interface',
    'first link names page 0',
    'Interface "List envelope" and "Limits": first is the first page, page 1',
    { faults: { links: linksWith(({ link }) => ({ first: link(0) })) } },
  ),
  broken(
    'interface',
    'prev link goes back two pages',
    'Interface "Pagination", rule 2: prev moves to the previous page',
    {
      faults: {
        links: linksWith(({ info, link }, standard) => ({
          prev:
            info.page > 1 && info.page <= info.last
              ? link(Math.max(1, info.page - 2))
              : standard.prev,
        })),
      },
    },
  ),
  broken(
    'interface',
    'prev link on the first page',
    'Interface "List envelope": prev is null on the first page',
    {
      faults: {
        links: linksWith(({ info, link }) => ({
          prev: link(Math.max(1, Math.min(info.page - 1, info.last))),
        })),
      },
    },
  ),
  broken(
    'interface',
    'next link null on the second-to-last page',
    'Interface "Pagination", rule 3: next is null only at the end of the list',
    {
      faults: {
        links: linksWith(({ info, link }) => ({
          next: info.page < info.last - 1 ? link(info.page + 1) : null,
        })),
      },
    },
  ),
  broken(
    'interface',
    'next link names the same page',
    'Interface "Pagination", rule 2: next moves to the next page',
    {
      faults: {
        links: linksWith(({ info, link }) => ({
          next: info.page < info.last ? link(info.page) : null,
        })),
      },
    },
  ),
  broken(
    'interface',
    'links drop the name filter',
    'Interface "Pagination", rule 2: next and prev move between pages of the same list',
    { faults: { links: linksDropping('name') } },
  ),
  broken(
    'interface',
    'links drop the status filter',
    'Interface "Pagination", rule 2: next and prev move between pages of the same list',
    { faults: { links: linksDropping('status') } },
  ),
  broken(
    'interface',
    'links drop the limit',
    'Interface "Pagination", rules 1 and 2: the pages a client follows keep its page size',
    { faults: { links: linksDropping('limit') } },
  ),
  broken(
    'stand-in',
    'links are relative',
    'PRODUCT.md "links": absolute URLs (the interface only says "a URL string")',
    {
      faults: {
        links: (context) =>
          standardLinks(context.info, (page) => pageLink(context.path, context.parameters, page)),
      },
    },
  ),
  broken(
    'interface',
    'last page misses its final item',
    'Interface "GET /v1/stock": the list holds the stock of all products, every page together',
    {
      faults: {
        slice: (items, page, limit) => {
          const slice = pageSlice(items, page, limit);
          return page === lastPage(items.length, limit) ? slice.slice(0, -1) : slice;
        },
      },
    },
  ),
  broken(
    'interface',
    'pages overlap by one item',
    'Interface "Pagination": pages split the list; an item is on one page only (and the last ' +
      'one goes missing)',
    {
      faults: {
        slice: (items, page, limit) => {
          const offset = (page - 1) * limit - (page > 1 ? 1 : 0);
          return items.slice(offset, offset + limit);
        },
      },
    },
  ),
  broken(
    'interface',
    'default page size is 20',
    'Interface "Limits": when limit is omitted, a list response holds at most 10 items',
    { faults: { defaultLimit: 20 } },
  ),
  broken(
    'interface',
    'limit honoured only up to 50',
    'Interface "Limits": limit can be raised to at most 100, so 100 is honoured',
    { faults: { effectiveLimit: (limit) => Math.min(limit, 50) } },
  ),
  broken(
    'interface',
    'order changes between requests',
    'Interface "Pagination": following next walks the list; with an order that changes from ' +
      'one request to the next, items repeat or go missing (PRODUCT.md: by id, stable)',
    () => {
      const next = counter();
      return {
        faults: { arrange: (items) => (next() % 2 === 1 ? ordered(items, 'name') : items) },
      };
    },
  ),
];

// ---- filters ----------------------------------------------------------------------------------

/** The query's filters without the named one. */
function filtersWithout(query: ListQuery, drop: keyof Filters): Filters {
  return {
    ...(drop === 'name' || query.name === undefined ? {} : { name: query.name }),
    ...(drop === 'id' || query.id === undefined ? {} : { id: query.id }),
    ...(drop === 'status' || query.status === undefined ? {} : { status: query.status }),
  };
}

function escapeRegExp(character: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(character) ? `\\${character}` : character;
}

/** A matcher translating some needle characters into regular-expression wildcards. */
function wildcardMatcher(
  wildcards: Readonly<Record<string, string>>,
  anchor: '' | '^',
): NameMatcher {
  return (name, needle) => {
    // Code points, as the `u` flag reads the pattern.
    const pattern = Array.from(foldCase(needle))
      .map((character) => wildcards[character] ?? escapeRegExp(character))
      .join('');
    return new RegExp(`${anchor}${pattern}`, 'su').test(foldCase(name));
  };
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

const FILTERS: readonly VariantSpec[] = [
  broken(
    'interface',
    'name filter treats % and _ as LIKE wildcards',
    'Interface "GET /v1/stock": name is a substring match; "%" and "_" are characters of the ' +
      'substring (PRODUCT.md: every character literal)',
    { faults: { nameMatches: wildcardMatcher({ '%': '.*', _: '.' }, '') } },
  ),
  broken(
    'interface',
    'name filter is a regular expression',
    'Interface "GET /v1/stock": name is a substring match; "." or "+" are characters of the ' +
      'substring (an invalid pattern falls back to a substring here)',
    {
      faults: {
        nameMatches: (name, needle) => {
          try {
            return new RegExp(needle, 'iu').test(name);
          } catch {
            return caseInsensitiveSubstring(name, needle);
          }
        },
      },
    },
  ),
  broken(
    'interface',
    'name filter regular expression crashes on (',
    'RFC 9110 §15.6: 5xx means the server failed; "(" is a valid substring to look for',
    { faults: { nameMatches: (name, needle) => new RegExp(needle, 'iu').test(name) } },
  ),
  broken(
    'interface',
    'name filter treats * and ? as glob wildcards',
    'Interface "GET /v1/stock": name is a substring match; "*" and "?" are characters of the ' +
      'substring',
    { faults: { nameMatches: wildcardMatcher({ '*': '.*', '?': '.' }, '') } },
  ),
  broken(
    'interface',
    'name filter matches prefixes only',
    'Interface "GET /v1/stock": name is a substring match, wildcards on both sides',
    { faults: { nameMatches: (name, needle) => foldCase(name).startsWith(foldCase(needle)) } },
  ),
  broken(
    'stand-in',
    'name filter folds ASCII case only',
    'PRODUCT.md "name filter": Unicode-aware case folding (é/É, ß/SS, σ/ς/Σ); the interface ' +
      'does not even say case-insensitive',
    {
      faults: {
        nameMatches: (name, needle) => asciiLower(name).includes(asciiLower(needle)),
      },
    },
  ),
  broken(
    'stand-in',
    'name filter ignored on /v1/products',
    'PRODUCT.md "/v1/products payload": same filters as /v1/stock (the interface shows no ' +
      'filters for /v1/products)',
    {
      faults: {
        select: (products, query, { resource, nameMatches }) =>
          products.filter((p) =>
            matchesAll(
              p,
              resource === 'products' ? filtersWithout(query, 'name') : query,
              nameMatches,
            ),
          ),
      },
    },
  ),
  broken(
    'interface',
    'status filter ignores incoming',
    'Interface "GET /v1/stock": status filters on availability; status=incoming lists only ' +
      'incoming items',
    {
      faults: {
        select: (products, query, { nameMatches }) =>
          products.filter((p) =>
            matchesAll(
              p,
              query.status === 'incoming' ? filtersWithout(query, 'status') : query,
              nameMatches,
            ),
          ),
      },
    },
  ),
  broken(
    'interface',
    'status filter out_of_stock inverted',
    'Interface "GET /v1/stock": status filters on availability; status=out_of_stock lists only ' +
      'out-of-stock items',
    {
      faults: {
        select: (products, query, { nameMatches }) =>
          query.status === 'out_of_stock'
            ? products.filter(
                (p) =>
                  p.status !== 'out_of_stock' &&
                  matchesAll(p, filtersWithout(query, 'status'), nameMatches),
              )
            : products.filter((p) => matchesAll(p, query, nameMatches)),
      },
    },
  ),
  broken(
    'interface',
    'id filter ignored',
    'Interface "GET /v1/stock": id is an exact match on the product id',
    {
      faults: {
        select: (products, query, { nameMatches }) =>
          products.filter((p) => matchesAll(p, filtersWithout(query, 'id'), nameMatches)),
      },
    },
  ),
  broken(
    'interface',
    'filters combined with OR',
    'Interface "GET /v1/stock": each parameter is a filter every listed item matches ' +
      '(PRODUCT.md: AND); OR lists items that fail one of them',
    {
      faults: {
        select: (products, query, { nameMatches }) => {
          const each: Filters[] = [
            ...(query.name === undefined ? [] : [{ name: query.name }]),
            ...(query.id === undefined ? [] : [{ id: query.id }]),
            ...(query.status === undefined ? [] : [{ status: query.status }]),
          ];
          if (each.length === 0) return products;
          return products.filter((p) => each.some((filter) => matchesAll(p, filter, nameMatches)));
        },
      },
    },
  ),
  broken(
    'interface',
    'name filter dropped from page 2 on',
    'Interface "Pagination", rule 2: the pages a client follows belong to the same filtered list',
    {
      faults: {
        select: (products, query, { nameMatches }) =>
          products.filter((p) =>
            matchesAll(p, query.page >= 2 ? filtersWithout(query, 'name') : query, nameMatches),
          ),
      },
    },
  ),
];

// ---- stock semantics --------------------------------------------------------------------------

/**
 * The default catalogue with some products' stock changed: the service then serves the wrong
 * status everywhere, filters included, as a service whose data or derivation is wrong would.
 */
function changedStock(change: (product: Product) => Partial<Product>): { catalogue: Product[] } {
  return { catalogue: makeCatalogue('default').map((p) => ({ ...p, ...change(p) })) };
}

const STOCK: readonly VariantSpec[] = [
  // A status that disagrees with its quantity is data (PRODUCT.md: an explicit status wins);
  // a whole class of quantities given another status is a rule of the service's own.
  broken(
    'stand-in',
    'quantity 0 reported available',
    'PRODUCT.md "status when a fixture gives none" (interface "Status values": available means ' +
      'it can be ordered): every quantity of 0 is reported available, a rule, not a few records',
    changedStock((p) => (p.status === 'out_of_stock' ? { status: 'available' } : {})),
  ),
  broken(
    'stand-in',
    'low positive quantities reported out_of_stock',
    'PRODUCT.md "status when a fixture gives none" (interface "Status values": out_of_stock ' +
      'means not in stock): every available quantity up to 10 is reported out_of_stock, a rule',
    changedStock((p) =>
      p.status === 'available' && p.quantity !== null && p.quantity <= 10
        ? { status: 'out_of_stock' }
        : {},
    ),
  ),
  broken(
    'stand-in',
    'large quantities reported on_request',
    'PRODUCT.md "status when a fixture gives none" (interface "Status values": on_request means ' +
      'the stock is unknown): every quantity from 10 000 is reported on_request, a rule',
    changedStock((p) =>
      p.quantity !== null && p.quantity >= 10_000 ? { status: 'on_request' } : {},
    ),
  ),
  broken(
    'stand-in',
    'out-of-stock quantities negative (backorders)',
    'PRODUCT.md "quantity when stock is unknown": otherwise an integer >= 0 (the interface ' +
      'only types the level as an integer)',
    changedStock((p) => (p.status === 'out_of_stock' ? { quantity: -2 } : {})),
  ),
  broken(
    'interface',
    'quantity sent as a string',
    'Interface "Stock object": the stock level is an integer',
    {
      faults: {
        stockView: (p, view, standard) =>
          view.level === 'quantity' && p.quantity !== null
            ? { ...standard, quantity: String(p.quantity) }
            : standard,
      },
    },
  ),
];

// ---- single items against list items ----------------------------------------------------------

const SINGLE: readonly VariantSpec[] = [
  broken(
    'interface',
    'single item shows another status (status level)',
    'Interface "Endpoints": /v1/stock/:id is the stock of the product, the same current stock ' +
      'the list shows',
    {
      faults: {
        stockView: (p, view, standard) =>
          view.level === 'status' && view.place === 'single' && p.status === 'incoming'
            ? { ...standard, status: 'available' }
            : standard,
      },
    },
  ),
  broken(
    'interface',
    'single item shows another quantity (quantity level)',
    'Interface "Endpoints": /v1/stock/:id is the stock of the product, the same current stock ' +
      'the list shows',
    {
      faults: {
        stockView: (p, view, standard) =>
          view.level === 'quantity' &&
          view.place === 'single' &&
          p.quantity !== null &&
          p.quantity > 0
            ? { ...standard, quantity: p.quantity + 1 }
            : standard,
      },
    },
  ),
  broken(
    'stand-in',
    'single product record lacks the extra fields',
    'PRODUCT.md "/v1/products payload": /v1/products/:id returns the record the list shows ' +
      '(the interface has no /v1/products/:id)',
    {
      faults: {
        productView: (p, place, standard) =>
          place === 'single' ? { id: standard['id'] ?? p.id, name: p.name } : standard,
      },
    },
  ),
  broken(
    'interface',
    'unknown id answers 200 with null data',
    'Interface "List envelope": a single-object response holds the object in data (and an ' +
      'unknown product id is an error condition, interface "Errors")',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 404 && isSingle(context)
            ? {
                status: 200,
                headers: { 'content-type': 'application/json; charset=utf-8' },
                body: { data: null },
              }
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'unknown id crashes with 500',
    "RFC 9110 §15.6: 5xx means the server failed; an unknown id is the client's error (4xx)",
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 404 && isSingle(context)
            ? context.problem(500, "Cannot read properties of undefined (reading 'quantity')")
            : reply,
      },
    },
  ),
];

// ---- fields of each level ---------------------------------------------------------------------

function addQuantity(p: Product, standard: JsonObject): JsonObject {
  return { product_id: standard['product_id'] ?? p.id, quantity: p.quantity, status: p.status };
}

const FIELDS: readonly VariantSpec[] = [
  broken(
    'interface',
    'quantity leaks to status tokens in lists',
    'Interface "Authentication": the access level determines how stock is presented; a status ' +
      'level never sees the absolute value',
    {
      faults: {
        stockView: (p, view, standard) =>
          view.level === 'status' && view.place === 'list' ? addQuantity(p, standard) : standard,
      },
    },
  ),
  broken(
    'interface',
    'quantity leaks to status tokens on single items',
    'Interface "Authentication": the access level determines how stock is presented; a status ' +
      'level never sees the absolute value',
    {
      faults: {
        stockView: (p, view, standard) =>
          view.level === 'status' && view.place === 'single' ? addQuantity(p, standard) : standard,
      },
    },
  ),
  broken(
    'interface',
    'quantity missing for quantity tokens in lists',
    'Interface "Authentication": the absolute level is given as a number to the level that ' +
      'sees it, in lists as on single items',
    {
      faults: {
        stockView: (_p, view, standard) =>
          view.level === 'quantity' && view.place === 'list'
            ? without(standard, 'quantity')
            : standard,
      },
    },
  ),
  broken(
    'interface',
    'product records carry stock fields',
    'Interface "Authentication": a status level never sees the absolute value, not through ' +
      '/v1/products either (PRODUCT.md: product records are {id, name, extra fields})',
    {
      faults: {
        productView: (p, _place, standard) => ({
          ...standard,
          quantity: p.quantity,
          status: p.status,
        }),
      },
    },
  ),
  broken(
    'interface',
    'product records lack id',
    'Interface "Pagination of other lists": product records carry an id attribute',
    { faults: { productView: (_p, _place, standard) => without(standard, 'id') } },
  ),
  broken(
    'stand-in',
    'product records lack name',
    'PRODUCT.md "/v1/products payload": id and name always (the interface shows only id)',
    { faults: { productView: (_p, _place, standard) => without(standard, 'name') } },
  ),
  broken(
    'stand-in',
    'stock objects carry the product name',
    'PRODUCT.md "which access level sees what": {product_id, status} or {product_id, ' +
      'quantity, status}, nothing more (the interface lists the fields, not "only these")',
    { faults: { stockView: (p, _view, standard) => ({ ...standard, name: p.name }) } },
  ),
  broken(
    'interface',
    'single-page lists have no links',
    'Interface "List envelope" and "Pagination of other lists": every list response has ' +
      'links, whatever the number of items',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 200 && context.page?.last === 1
            ? mapBody(reply, (body) => without(body, 'links'))
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'single envelope has extra members',
    'Interface "List envelope": a single-object response is an object with one member, data',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 200 && isSingle(context)
            ? mapBody(reply, (body) => ({ ...body, meta: { level: context.level ?? null } }))
            : reply,
      },
    },
  ),
];

// ---- caching ----------------------------------------------------------------------------------

const CACHE: readonly VariantSpec[] = [
  broken(
    'interface',
    'list cache keyed by URL only',
    'Interface "Authentication": the caller\'s level determines the presentation; a list ' +
      'cached for one token is replayed to the other level',
    { faults: { cacheByUrl: 'list' } },
  ),
  broken(
    'interface',
    'single-item cache keyed by URL only',
    'Interface "Authentication": the caller\'s level determines the presentation; a single ' +
      'item cached for one token is replayed to the other level',
    { faults: { cacheByUrl: 'single' } },
  ),
];

export const BROKEN_DATA: readonly VariantSpec[] = [
  ...PAGINATION,
  ...FILTERS,
  ...STOCK,
  ...SINGLE,
  ...FIELDS,
  ...CACHE,
];
