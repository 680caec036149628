/**
 * Round 6: variants of the stock reference written from the interface and PRODUCT.md alone, each
 * breaking one rule of the list at an input a checker may only meet in generated list requests:
 * needles outside the Basic Multilingual Plane, HEAD with a query, long needles, and the order of
 * `page` and `limit` in the query string.
 */
import { makeCatalogue, type Product } from './catalogue.ts';
import {
  caseInsensitiveSubstring,
  DEFAULT_LIMIT,
  lastPage,
  matchesAll,
  pageSlice,
  standardLinks,
} from './query.ts';
import type { ReferenceOptions } from './reference-server.ts';
import type { VariantSpec } from './servers.ts';
import { broken } from './variant-helpers.ts';

// ---- a needle outside the BMP -------------------------------------------------------------------

/** Characters beyond U+FFFF: a surrogate pair in UTF-16, four bytes in UTF-8. */
const NON_BMP = /[\u{10000}-\u{10FFFF}]/u;

/**
 * Default names given a character outside the BMP. Only the names change: ids, stock, extra
 * fields and the order of the array stay the default's, and the default already holds
 * "Rocket 🚀 lamp".
 */
const NON_BMP_NAMES: Readonly<Record<string, string>> = {
  'Rattan chair': 'Rattan chair \u{1fa91}', // 🪑 U+1FA91 chair
  'Wool rug': 'Wool rug \u{1f9f6}', // 🧶 U+1F9F6 yarn
  'Velvet sofa': 'Velvet sofa \u{1f6cb}', // 🛋 U+1F6CB couch and lamp
  'Standing desk': 'Standing desk \u{1f5a5}', // 🖥 U+1F5A5 desktop computer
  'Kitchen table': '\u{20bb7} Kitchen table', // 𠮷 U+20BB7, a CJK ideograph (Extension B)
};

/** The default catalogue with several names holding a character outside the BMP. */
function withNonBmpNames(): Product[] {
  return makeCatalogue('default').map((p) => ({ ...p, name: NON_BMP_NAMES[p.name] ?? p.name }));
}

// ---- HEAD with a query --------------------------------------------------------------------------

/**
 * HEAD /v1/stock served as if its query were empty: the request's method and path are noted when
 * its Authorization is read, and the query read right after (both within one synchronous answer)
 * is dropped for such a request. The reply is then GET /v1/stock's, status and length alike.
 */
function headIgnoresQuery(): ReferenceOptions {
  let unfilteredHead = false;
  return {
    faults: {
      readAuthorization: (request) => {
        const path = new URL(request.url ?? '/', 'http://placeholder').pathname;
        unfilteredHead = request.method === 'HEAD' && path === '/v1/stock';
        return request.headers.authorization;
      },
      readQuery: (search) => new URLSearchParams(unfilteredHead ? '' : search),
    },
  };
}

// ---- page before limit --------------------------------------------------------------------------

/** Whether `page` comes before `limit` in a query string naming both. */
function pageBeforeLimit(search: string): boolean {
  const names = [...new URLSearchParams(search).keys()];
  const page = names.indexOf('page');
  const limit = names.indexOf('limit');
  return page !== -1 && limit !== -1 && page < limit;
}

/**
 * A query read in order, the page's position fixed when `page` is read: with `page` first, the
 * page's first item and the page count come from the default page size, and the `limit` read
 * later only sets how many items are served. The query is read before the list is sliced and
 * linked, within one synchronous answer.
 */
function pageReadBeforeLimit(): ReferenceOptions {
  let pageFirst = false;
  return {
    faults: {
      readQuery: (search) => {
        pageFirst = pageBeforeLimit(search);
        return new URLSearchParams(search);
      },
      slice: (items, page, limit) => {
        if (!pageFirst) return pageSlice(items, page, limit);
        const offset = (page - 1) * DEFAULT_LIMIT;
        return items.slice(offset, offset + limit);
      },
      links: ({ info, link }) =>
        standardLinks(
          pageFirst
            ? { ...info, limit: DEFAULT_LIMIT, last: lastPage(info.total, DEFAULT_LIMIT) }
            : info,
          (page) => link(page),
        ),
    },
  };
}

export const ROUND6_STOCK: readonly VariantSpec[] = [
  broken(
    'interface',
    'non-BMP needle crashes with 500',
    'RFC 9110 §15.6: 5xx means the server failed; interface "GET /v1/stock": name is a ' +
      'substring match on the product name, whatever its characters, so name=\u{1fa91} finds ' +
      '"Rattan chair \u{1fa91}" (and a needle matching nothing is an empty list), never a 500',
    {
      catalogue: withNonBmpNames(),
      faults: {
        select: (products, query, { nameMatches }) => {
          if (query.name !== undefined && NON_BMP.test(query.name)) {
            throw new RangeError('character outside the Basic Multilingual Plane in a needle');
          }
          return products.filter((p) => matchesAll(p, query, nameMatches));
        },
      },
    },
  ),
  broken(
    'interface',
    'filtered HEAD reports the unfiltered length',
    'RFC 9110 §9.3.2 and §8.6: HEAD answers as GET would, without content, and its ' +
      'Content-Length is the one GET would send; HEAD /v1/stock with a query answers with the ' +
      'status and Content-Length of GET /v1/stock without one',
    headIgnoresQuery,
  ),
  broken(
    'interface',
    'name needle cut to 16 characters',
    'Interface "GET /v1/stock": name is a substring match with the whole needle (PRODUCT.md: ' +
      'every character literal); a needle longer than 16 characters is cut to its first 16, ' +
      'so "Oak dining tablecloth" finds "Oak dining table"',
    {
      faults: {
        nameMatches: (name, needle) =>
          // By code points: a character outside the BMP counts once, not as two code units.
          caseInsensitiveSubstring(name, Array.from(needle).slice(0, 16).join('')),
      },
    },
  ),
  broken(
    'interface',
    'page read before limit',
    'Interface "Paging rules" and "Limits": the client requests pages with page and limit, ' +
      'whatever their order in the query; ?page=2&limit=5 serves the 11th to 15th items (the ' +
      'page placed with the default size 10, links counted with it too), ?limit=5&page=2 the ' +
      '6th to 10th',
    pageReadBeforeLimit,
  ),
];
