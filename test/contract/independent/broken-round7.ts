/**
 * Round 7: variants of the stock reference written from the interface and PRODUCT.md alone, each
 * breaking one rule: a parameter given with an empty value, the access level of a kept-alive
 * connection, and the page of a list filtered by id.
 */
import type { Socket } from 'node:net';
import { matchesAll, pageSlice } from './query.ts';
import { authenticateBearer, DEFAULT_TOKENS, type ReferenceOptions } from './reference-server.ts';
import type { VariantSpec } from './servers.ts';
import { broken } from './variant-helpers.ts';

// ---- an empty value read as absent --------------------------------------------------------------

/** The parameters whose empty value (`?id=`, `?limit=`, or the bare `?id`) is read as absent. */
const EMPTY_MEANS_ABSENT: readonly string[] = ['id', 'limit'];

/**
 * The query as a form reader that skips empty fields reads it: `id` or `limit` given with an
 * empty value only is dropped before the parameters are validated, as if the request had not
 * named it. Every other value (`id=x`, `limit=0`, an empty `page`, `id=&id=3` repeated) is
 * validated as the reference does.
 */
function readQueryWithoutEmpty(search: string): URLSearchParams {
  const parameters = new URLSearchParams(search);
  const empty = EMPTY_MEANS_ABSENT.filter((name) => {
    const values = parameters.getAll(name);
    return values.length > 0 && values.every((value) => value === '');
  });
  return new URLSearchParams([...parameters].filter(([name]) => !empty.includes(name)));
}

// ---- the level kept for the connection ----------------------------------------------------------

/**
 * A session cached on the TCP connection: the Authorization of the first request on a connection
 * that authenticates (gives a level) is kept for that connection, and every later request on it
 * is read with that Authorization instead of its own. A request on a new connection is read as
 * the reference reads it.
 */
function levelKeptForTheConnection(): ReferenceOptions {
  const kept = new WeakMap<Socket, string>();
  return {
    faults: {
      readAuthorization: (request) => {
        const remembered = kept.get(request.socket);
        if (remembered !== undefined) return remembered;
        const own = request.headers.authorization;
        if (own !== undefined && authenticateBearer(own, DEFAULT_TOKENS).kind === 'level') {
          kept.set(request.socket, own);
        }
        return own;
      },
    },
  };
}

// ---- the id filter ignores the page -------------------------------------------------------------

/**
 * A list filtered by id is served as page 1 whatever the page asked: the id is noted when the list
 * is selected, and the slice taken right after (both within one synchronous answer) ignores the
 * page for such a list. Links are the reference's, computed from the page asked.
 */
function idFilterIgnoresPage(): ReferenceOptions {
  let byId = false;
  return {
    faults: {
      select: (products, query, { nameMatches }) => {
        byId = query.id !== undefined;
        return products.filter((p) => matchesAll(p, query, nameMatches));
      },
      slice: (items, page, limit) => pageSlice(items, byId ? 1 : page, limit),
    },
  };
}

export const ROUND7_STOCK: readonly VariantSpec[] = [
  broken(
    'stand-in',
    'empty value read as absent',
    'PRODUCT.md "invalid parameter values": an empty id or limit is no integer, so 400; here ' +
      '?id= lists every product and ?limit= serves the default 10, as if the parameter were ' +
      'absent (other bad values, id=x or limit=0, still give 400). The interface level leaves ' +
      'it open: many services and frameworks read an empty value as none',
    { faults: { readQuery: readQueryWithoutEmpty } },
  ),
  broken(
    'interface',
    'level kept for the connection',
    'RFC 9110 §3.3: HTTP is stateless, each request is understood in isolation and the ' +
      'connection it comes on has no bearing on it; interface "Authentication": each request ' +
      "carries its bearer token and the caller's level decides the presentation. The level of " +
      'the first authenticated request on a connection is kept for it: a later request on the ' +
      'same kept-alive connection without a token is answered 200 (not 401), and a status token ' +
      'after a quantity token sees quantity; a new connection is answered correctly',
    levelKeptForTheConnection,
  ),
  broken(
    'stand-in',
    'id filter ignores page',
    'PRODUCT.md "page past the end": 200 with empty data (the interface leaves a page past the ' +
      'end open); with id given the page is ignored, so ?id=N&page=2, past the end of a list of ' +
      'one, still holds product N (as page 1 does)',
    idFilterIgnoresPage,
  ),
];
