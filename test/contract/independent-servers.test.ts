/**
 * The checker against servers written apart from it (test/contract/independent/, from the
 * interface and PRODUCT.md alone): the reference passes both levels; each broken server is
 * caught by the check that owns its rule; each correct-but-different server passes the
 * interface level, with its difference reported, and fails the stand-in level naming the
 * decision.
 */
import { describe, expect, it } from 'vitest';
import { judgeAt, runContract, type Report } from '../../src/contract/run-contract.ts';
import { shippedSpecOnce } from '../helpers/test-app.ts';
import { INDEPENDENT_SERVERS, REFERENCE, type IndependentServer } from './independent/servers.ts';

/** The check that owns the rule each server breaks, or the decision each one takes otherwise. */
const CAUGHT_BY: Readonly<Record<string, string | readonly string[]>> = {
  'HEAD sends a body': 'http.head',
  'HEAD answers 405': 'http.head',
  'HEAD answers 404 where GET answers 200': 'http.head',
  'HEAD answers 200 where GET answers 404': 'http.head',
  'HEAD has another content type than GET': 'http.head',
  'POST answered like GET': 'http.other-methods',
  'DELETE answers 404': 'http.other-methods',
  '405 without Allow': ['http.other-methods', 'conformance.interface'],
  'Allow does not list GET': ['http.other-methods', 'conformance.interface'],
  'lowercase bearer scheme refused': 'http.auth-scheme',
  'uppercase BEARER scheme refused': 'http.auth-scheme',
  'two spaces after the scheme refused': 'http.auth-scheme',
  'unknown token accepted': 'http.missing-token',
  'missing token served at the status level': 'http.missing-token',
  'missing token answers 403': 'http.missing-token',
  '401 without WWW-Authenticate': ['http.missing-token', 'conformance.interface'],
  '401 challenges with Basic': ['http.missing-token', 'conformance.interface'],
  'invalid token challenge without error="invalid_token"': 'http.bearer-realm',
  'challenge without realm': 'http.bearer-realm',
  'success answered as text/plain': 'conformance.interface',
  'single items answered as text/html': ['single./v1/stock/{id}', 'conformance.interface'],
  'JSON body behind an XSSI prefix': 'conformance.interface',
  'errors answered as plain text': 'conformance.interface',
  'Accept with a charset parameter refused': 'http.accept-admits-json',
  'Accept */* refused': 'http.accept-admits-json',
  'Accept application/* refused': 'http.accept-admits-json',
  'only the first Accept range considered': 'http.accept-admits-json',
  'Accept excluding JSON answered 400': 'http.accept-without-json',
  'problem status member differs from the HTTP status': 'conformance.interface',
  'problem status member is a string': 'conformance.interface',
  'problem type is not a URI reference': 'conformance.interface',
  'problem detail is an array': 'conformance.interface',
  'problems lack a title': 'conformance.stand-in',
  'problem+json body is HTML': 'conformance.interface',
  'limit 0 falls back to the default': 'generated.stock',
  'limit over 100 clamped to 100': 'negative.invalid-parameters-400',
  'limit read with parseInt': 'generated.stock',
  'non-numeric limit ignored': 'generated.stock',
  'page 0 served as page 1': 'generated.stock',
  'page 0 crashes with 500': ['conformance.interface', 'generated.stock'],
  'unknown status value answered with every item': 'generated.stock',
  'repeated parameter answered, the last one wins': 'negative.invalid-parameters-400',
  'invalid values answered 500': ['single./v1/stock/{id}', 'generated.stock'],
  'invalid values answered 422': ['negative.invalid-parameters-400', 'single.stock.bad-id-400'],
  '400 names only the first bad parameter': 'negative.invalid-parameters-400',
  'path ids that are not positive integers answer 404': 'single.stock.bad-id-400',
  'non-numeric path id crashes with 500': 'single./v1/stock/{id}',
  'path id read with parseInt': 'single./v1/stock/{id}',
  'last link one past the end when the limit divides the total': 'generated.stock',
  'extra empty page when the limit divides the total': 'generated.stock',
  'next link on every non-empty page (7 products)': 'generated.stock',
  'last link names page 0 on an empty list': 'generated.stock',
  'empty list has a next link': 'generated.stock',
  'empty filtered list answers 404': 'generated.stock',
  'page past the end repeats the last page': 'pagination.stock.past-the-end-empty',
  'page past the end crashes with 500': 'generated.stock',
  'first link names page 0': 'generated.stock',
  'prev link goes back two pages': 'generated.stock',
  'prev link on the first page': 'generated.stock',
  'next link null on the second-to-last page': 'generated.stock',
  'next link names the same page': 'generated.stock',
  'links drop the name filter': 'generated.stock',
  'links drop the status filter': 'generated.stock',
  'links drop the limit': 'generated.stock',
  'links are relative': 'pagination.stock.links-absolute',
  'last page misses its final item': 'generated.stock',
  'pages overlap by one item': 'generated.stock',
  'default page size is 20': 'generated.stock',
  'limit honoured only up to 50': 'generated.stock',
  'order changes between requests': 'generated.stock',
  'name filter treats % and _ as LIKE wildcards': 'generated.stock',
  'name filter is a regular expression': 'generated.stock',
  'name filter regular expression crashes on (': 'generated.stock',
  'name filter treats * and ? as glob wildcards': 'generated.stock',
  'name filter matches prefixes only': 'generated.stock',
  'name filter folds ASCII case only': 'filters.stock.name-case-insensitive',
  'name filter ignored on /v1/products': 'generated.products.filters',
  'status filter ignores incoming': 'generated.stock',
  'status filter out_of_stock inverted': 'generated.stock',
  'id filter ignored': 'generated.stock',
  'filters combined with OR': 'generated.stock',
  'name filter dropped from page 2 on': 'generated.stock',
  // A status rule of the target's own: most of a class of quantity contradicted (PRODUCT.md).
  'quantity 0 reported available': 'access.status-rule',
  'low positive quantities reported out_of_stock': 'access.status-rule',
  'large quantities reported on_request': 'access.status-rule',
  'out-of-stock quantities negative (backorders)': 'access.quantity-not-negative',
  'quantity sent as a string': 'access.quantity-shows-quantity',
  'single item shows another status (status level)': 'single./v1/stock/{id}',
  'single item shows another quantity (quantity level)': 'single./v1/stock/{id}',
  'single product record lacks the extra fields': 'single./v1/products/{id}',
  'unknown id answers 200 with null data': 'single./v1/stock/{id}',
  'unknown id crashes with 500': 'single./v1/stock/{id}',
  'quantity leaks to status tokens in lists': 'access.status-hides-quantity',
  'quantity leaks to status tokens on single items': 'access.status-hides-quantity',
  'quantity missing for quantity tokens in lists': 'access.quantity-shows-quantity',
  'product records carry stock fields': 'access.status-hides-quantity',
  'product records lack id': 'generated.products',
  'product records lack name': 'conformance.stand-in',
  'stock objects carry the product name': 'conformance.stand-in',
  'single-page lists have no links': 'conformance.interface',
  'single envelope has extra members': 'conformance.interface',
  'list cache keyed by URL only': 'access.no-cross-level-answers',
  'single-item cache keyed by URL only': 'access.no-cross-level-answers',
  // Broken at the edges: 5xx, tokens near a real one, Allow, HEAD's length, links and needles.
  'page past 2^31 crashes with 500': ['generated.stock', 'conformance.interface'],
  'plain OPTIONS crashes with 500': 'conformance.interface',
  'Allow names a method that answers 405': 'http.other-methods',
  'HEAD has Content-Length 0': 'http.head',
  'empty bearer token crashes with 500': ['http.exact-token', 'conformance.interface'],
  'token accepted by prefix': 'http.exact-token',
  'token accepted in another case': 'http.exact-token',
  'Basic credentials served at the status level': 'http.exact-token',
  'links write spaces as + that the server reads literally': 'generated.stock',
  'links encode the name filter twice': 'generated.stock',
  'name filter trims its needle': 'generated.stock',
  'name filter also matches ids as text': 'generated.stock',
  'empty name filter matches nothing': 'generated.stock',
  // Round five, written apart from the checker (issue 36): the faults an outside round found,
  // then faults aimed at inputs a checker might not try.
  'Accept media type compared case-sensitively': 'http.accept-admits-json',
  'CORS preflight answered 401': 'http.cors',
  'token-dependent answers publicly cacheable without Vary: Authorization': 'conformance.interface',
  'next null before a last page holding one item': 'generated.stock',
  'space in a name needle matches any run of characters': 'generated.stock',
  'ids compared as text': 'single./v1/stock/{id}',
  'bearer scheme in another case served at the status level': 'http.auth-scheme',
  'errors sent as application/json': 'conformance.stand-in',
  'name needle trimmed (" chair" finds "armchair")': 'generated.stock',
  'unknown quantity shown as 0': 'access.status-rule',
  'limit with a leading zero read as octal': 'generated.stock',
  'page sizes below 5 raised to 5': 'generated.stock',
  'last link rounds total/limit': 'generated.stock',
  'prev past the end names the page before the requested one': [
    'pagination.stock.past-the-end-empty',
    'pagination.products.past-the-end-empty',
  ],
  'links append page to the request query': 'generated.stock',
  'links omit their null members': 'conformance.interface',
  'path id truncated to 32 bits': 'single./v1/stock/{id}',
  'id filter beyond 2^53 crashes with 500': 'conformance.interface',
  'percent-encoded path id refused': 'single./v1/stock/{id}',
  'status filter ignored when name is also given': 'generated.stock',
  'id filter short-circuits the other filters': 'generated.stock',
  'name filter does not normalize (composed é ≠ decomposed é)': [
    'filters.stock.name-case-insensitive',
    'filters.products.name-case-insensitive',
  ],
  'query decoded as Latin-1': 'generated.stock',
  'query percent-decoded before it is split': 'generated.stock',
  'status filter case-insensitive': 'negative.invalid-parameters-400',
  'quantity level omits status': 'conformance.interface',
  'unknown quantity omitted (a serializer that drops nulls)': 'access.quantity-shows-quantity',
  'Authorization header name matched case-sensitively': 'http.auth-scheme',
  'HEAD skips authentication': 'http.head',
  'only the highest-weighted Accept range honoured': 'http.accept-admits-json',
  'Accept with application/json;q=0 served JSON': 'http.accept-without-json-406',
  'challenge names invalid_token when no token was sent': 'http.bearer-realm',
  'preflight asking for the Authorization header answered 403': 'http.cors',
  'Content-Length counts UTF-16 code units': 'conformance.interface',
  'JSON bodies start with a byte order mark': 'conformance.interface',
  'one strong ETag for both access levels, 304 across them': 'access.no-cross-level-answers',
  'chunked transfer coding': [],
  'weak ETags and 304 per representation': [],
  'JSON members in another order': [],
  'private caching with a longer Vary': [],
  'challenge auth-params in another order': [],
  'CORS headers on every answer': [],
  // Round six, written apart from the checker: faults met in generated list requests.
  'non-BMP needle crashes with 500': 'generated.stock',
  'filtered HEAD reports the unfiltered length': 'generated.stock',
  'name needle cut to 16 characters': 'generated.stock',
  'page read before limit': 'generated.stock',
  // Round seven, written apart from the checker after the model of declared lists.
  'empty value read as absent': 'negative.invalid-parameters-400',
  'level kept for the connection': ['http.missing-token', 'access.no-cross-level-answers'],
  'id filter ignores page': 'pagination.stock.past-the-end-empty',
  // Round eight, written apart from the checker after the model; measured before the checks
  // that catch the last nine (run-contract's notes: issue 51).
  'next link concatenates the given page and 1': 'generated.stock',
  'one-item last page merged into the page before': 'generated.stock',
  'last link drops the filters': 'generated.stock',
  'status filter applied after paging': 'generated.stock',
  'a given limit becomes the default of later requests': 'generated.stock',
  'name filter ignores accents': 'filters.stock.name-case-insensitive',
  'name filter folds case under the Turkish locale': 'filters.stock.name-case-insensitive',
  'percent-encoded plus read as a space': 'generated.stock',
  'malformed percent escape in the query crashes with 500': 'generated.stock',
  'parameter names matched case-insensitively': 'negative.unknown-parameters-400',
  'identical repeated parameter accepted': 'negative.invalid-parameters-400',
  'page read with Number()': 'negative.invalid-parameters-400',
  'path id read as Python int()': 'single.stock.bad-id-400',
  'quantity leaks to status tokens when filtering by status': 'generated.stock',
  'HEAD skips parameter validation': 'generated.stock',
  'Connection: close ignored': 'http.wire-fields',
  'second Accept field line ignored': 'http.wire-fields',
  '401 answers publicly cacheable without Vary: Authorization': 'conformance.interface',
  '400 names page as offset': 'negative.invalid-parameters-400',
  'truncated token accepted': 'http.exact-token',
  // Correct, but deciding an open point otherwise.
  'unknown query parameters ignored': 'negative.unknown-parameters-400',
  'page past the end answers 404': 'pagination.stock.past-the-end-empty',
  // Problem type values are free (PRODUCT.md): reported, failed only when pinned (below).
  'own problem types and realm': 'http.bearer-realm',
  'problem types about:blank': [],
  '400 without an errors member': 'negative.invalid-parameters-400',
  'items ordered by name': 'pagination.stock.order-by-id',
  'absolute level named stock': 'reading.stand-in',
  'product ids as strings': 'reading.stand-in',
  'case-sensitive name filter': 'filters.stock.name-case-insensitive',
  'Accept ignored': 'http.accept-without-json-406',
  'order by lower-cased name': ['pagination.stock.order-by-id', 'pagination.products.order-by-id'],
  'order by locale collation': ['pagination.stock.order-by-id', 'pagination.products.order-by-id'],
  'string product_id in stock objects, integer record ids': 'reading.stand-in',
  // Correct in ways PRODUCT.md allows too: they pass both levels.
  'challenge with error_description and scope': [],
  'reserved stock: a few explicit statuses disagree with the quantity': [],
  'one problem type URI per problem, no common base': [],
  'gzip when asked': [],
  'pretty-printed JSON with extra headers': [],
  'a health answer of its own': ['health./healthz', 'conformance.stand-in'],
  'all differences combined': [
    'reading.stand-in',
    'pagination.stock.order-by-id',
    'pagination.stock.past-the-end-empty',
    'filters.stock.name-case-insensitive',
    'negative.invalid-parameters-400',
    'negative.unknown-parameters-400',
    'http.bearer-realm',
    'http.accept-without-json-406',
  ],
};

async function check(server: IndependentServer, pinProblemTypes = false): Promise<Report> {
  const running = await server.start();
  try {
    return await runContract({
      pinProblemTypes,
      baseUrl: running.url,
      tokens: running.tokens,
      spec: await shippedSpecOnce(),
      level: 'stand-in',
      seed: 11,
      runs: 30,
      timeoutMs: 5000,
      concurrency: 4,
    });
  } finally {
    await running.close();
  }
}

function withOutcome(report: Report, kind: string): string[] {
  return report.results.filter((result) => result.outcome.kind === kind).map((r) => r.id);
}

const expected = (name: string): readonly string[] => [CAUGHT_BY[name] ?? []].flat();

describe('servers written apart from the checker', () => {
  it('every server has the check that catches it, and no entry is left over', () => {
    const named = INDEPENDENT_SERVERS.map((server) => server.name);
    const mapped = Object.keys(CAUGHT_BY);
    expect([...named].sort()).toEqual([...mapped].sort());
    expect(INDEPENDENT_SERVERS.filter((server) => server.kind === 'broken').length).toBeGreaterThan(
      90,
    );
    expect(
      INDEPENDENT_SERVERS.filter((server) => server.kind === 'different').length,
    ).toBeGreaterThanOrEqual(10);
  });

  it('the reference, deciding as PRODUCT.md does, passes both levels with no difference', async () => {
    const report = await check(REFERENCE);
    expect(withOutcome(judgeAt(report, 'stand-in'), 'failed')).toEqual([]);
    expect(withOutcome(judgeAt(report, 'interface'), 'differs')).toEqual([]);
  });

  const interfaceBreakers = INDEPENDENT_SERVERS.filter(
    (server) => server.kind === 'broken' && server.level === 'interface',
  );
  it.each(interfaceBreakers.map((server) => [server.name, server] as const))(
    'fails at both levels: %s',
    async (name, server) => {
      const report = await check(server);
      const failed = withOutcome(judgeAt(report, 'interface'), 'failed');
      for (const id of expected(name)) expect(failed).toContain(id);
      expect(withOutcome(judgeAt(report, 'stand-in'), 'failed')).toEqual(
        expect.arrayContaining(failed),
      );
    },
  );

  const standInOnly = INDEPENDENT_SERVERS.filter(
    (server) => server.kind === 'different' || server.level === 'stand-in',
  );
  it.each(standInOnly.map((server) => [server.name, server] as const))(
    'passes the interface level and reports the difference; fails the stand-in level: %s',
    async (name, server) => {
      const report = await check(server);
      const asInterface = judgeAt(report, 'interface');
      expect(withOutcome(asInterface, 'failed')).toEqual([]);
      const differs = withOutcome(asInterface, 'differs');
      for (const id of expected(name)) expect(differs).toContain(id);
      const asStandIn = judgeAt(report, 'stand-in');
      expect(withOutcome(asStandIn, 'failed')).toEqual(differs);
      // The failure names the PRODUCT.md decision it differs from.
      for (const id of expected(name)) {
        const result = asStandIn.results.find((candidate) => candidate.id === id);
        expect(result?.level).toBe('stand-in');
        expect(result?.source).toMatch(/^(PRODUCT\.md: |the spec under test)/);
      }
    },
  );

  it('reports problem type values that differ, and fails them only where they are pinned', async () => {
    const server = INDEPENDENT_SERVERS.find((one) => one.name === 'problem types about:blank');
    if (server === undefined) throw new Error('the about:blank server is gone');
    const free = judgeAt(await check(server), 'stand-in');
    const types = free.results.find((result) => result.id === 'problems.types');
    expect(types?.outcome.kind).toBe('passed');
    expect(types?.observed).toMatch(/about:blank; differs from the stand-in's/);
    expect(types?.decided).toEqual([expect.objectContaining({ value: 'about:blank' })]);
    const pinned = await check(server, true);
    expect(withOutcome(judgeAt(pinned, 'stand-in'), 'failed')).toEqual(['problems.types']);
    expect(withOutcome(judgeAt(pinned, 'interface'), 'failed')).toEqual([]);
  });
});
