/**
 * Round 8 of the billing variants: each breaks one rule, chosen from examples/billing/openapi.yaml,
 * billing.yaml, the docs (declare-a-resource, behaviour, PRODUCT.md) and HTTP alone: filters at
 * their edges (a UUID's case, a boolean's spelling, an offset, a bound of 0, non-ASCII case), sort
 * keys, the envelope and links, views per level, keys, problems and tokens.
 */
import {
  brokenBilling,
  isJsonObject,
  authenticateBearer,
  decodePath,
  parseDateTime,
  type BillingServer,
  type InvoiceFilters,
  type Json,
  type JsonObject,
  type Reply,
} from './billing-servers.ts';

const broken = brokenBilling;

const isObject = isJsonObject;

function isList(value: Json | undefined): value is readonly Json[] {
  return Array.isArray(value);
}

/** The reply's body with `change` applied to it when it is an object. */
function mapBody(reply: Reply, change: (body: JsonObject) => JsonObject): Reply {
  return isObject(reply.body) ? { ...reply, body: change(reply.body) } : reply;
}

/** The filters without those `drop` names. */
function without(filters: InvoiceFilters, drop: (name: string, value: unknown) => boolean) {
  return Object.fromEntries(
    Object.entries(filters).filter(([name, value]) => !drop(name, value)),
  ) as InvoiceFilters;
}

/** The query of a request target, as name/value pairs. */
const queryOf = (target: string): URLSearchParams =>
  new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : '');

/** Lower-cases A-Z only, as SQL lower() of SQLite, or a byte-wise collation, does. */
const asciiLower = (text: string): string =>
  text.normalize('NFC').replace(/[A-Z]/g, (letter) => letter.toLowerCase());

export const BILLING_ROUND8: readonly BillingServer[] = [
  // Filters
  broken(
    'customer_id in upper case drops the filter',
    'interface',
    'listInvoices customer_id: CustomerId, format: uuid (RFC 9562 §4: hex digits in either ' +
      'case), x-stockmock match: exact: the invoices kept all have that customer (none, where the ' +
      'id is compared as text; only its own, where without case). Here the value is checked ' +
      'against a lower-case pattern and, failing it, the filter is dropped without a word: ' +
      'customer_id=EB60A975-07B8-4415-9114-F501D7B25A9E (Lumen Labs in upper case) answers ' +
      "all 57 invoices, every customer's",
    {
      invoiceFiltersOf: (filters, raw) => {
        const given = raw('customer_id');
        return given !== undefined && given !== given.toLowerCase()
          ? without(filters, (name) => name === 'customer_id')
          : filters;
      },
    },
  ),
  broken(
    'recurring=TRUE read as false',
    'stand-in',
    'docs/declare-a-resource.md ("type: boolean true or false") and docs/behaviour.md (invalid ' +
      'values are a 400 naming the parameter): recurring=TRUE is a 400. Here recurring is read ' +
      "as `value === 'true'`, so TRUE, 1 and yes are taken as false: recurring=TRUE answers 200 " +
      'with the 46 invoices that are not recurring (billing.yaml has 11 recurring ones), the ' +
      'opposite of what the client meant',
    { parseBoolean: (raw) => ({ ok: true, value: raw === 'true' }) },
  ),
  broken(
    'issued_after offset ignored',
    'interface',
    'listInvoices issued_after: format: date-time, "Issued at or after this instant" (RFC 3339 ' +
      '§5.6: the offset is part of the instant; docs/declare-a-resource.md: min on date-times ' +
      'compares instants): the bound is read as its wall-clock time in UTC, its offset dropped. ' +
      'issued_after=2024-03-17T05:30:00+05:30 (2024-03-17T00:00Z) is read as 05:30Z and leaves ' +
      'out inv_sfbnx8, issued 2024-03-17T10:08:00+05:30 (04:38Z); bounds in Z are right',
    {
      invoiceFiltersOf: (filters, raw) => {
        const given = raw('issued_after');
        if (given === undefined || filters.issued_after === undefined) return filters;
        const asUtc = parseDateTime(given.replace(/(?:[Zz]|[+-]\d{2}:\d{2})$/, 'Z'));
        return asUtc === undefined ? filters : { ...filters, issued_after: asUtc };
      },
    },
  ),
  broken(
    'amount_max=0 ignored',
    'interface',
    'listInvoices amount_max: type: number, minimum: 0 (so 0 is a bound a client may give), ' +
      'x-stockmock match: max, inclusive: amount_max=0 keeps the invoices of amount 0 ' +
      '(billing.yaml has 5: inv_sfbnx8, inv_i24yqf, inv_rbu2fv, inv_txux83, inv_qnn12t). Here a ' +
      'bound is applied only when truthy (`if (amount_max)`), so amount_max=0 answers all 57 ' +
      '(amount_min=0 too, where it does no harm)',
    {
      invoiceFiltersOf: (filters) =>
        without(filters, (name, value) => name.startsWith('amount_') && value === 0),
    },
  ),
  broken(
    'q folds ASCII letters only',
    'interface',
    'listCustomers q: "Case-insensitive, literal substring of the customer\'s name": the name ' +
      'and the needle are lower-cased A-Z only (as SQLite lower() does), so q=øresund finds no ' +
      'Café Øresund, q=MÜLLER no Bäckerei Müller and q=ōsaka no Garage Ōsaka; ASCII needles ' +
      '(q=ADA) are right',
    {
      customerMatchers: {
        q: (customer, value) => asciiLower(customer.name).includes(asciiLower(value)),
      },
    },
  ),
  // Sorting
  broken(
    'second sort key takes the first key direction',
    'interface',
    'listInvoices sort: "Fields to order by, comma-separated, each ascending or, with a ' +
      'leading -, descending" (x-stockmock sort): the direction is read once, from the whole ' +
      "value's leading -, and every key takes it, so sort=status,-amount orders each status by " +
      'amount ascending (status=draft: inv_qnn12t and inv_rbu2fv, of 0, first, where ' +
      'inv_xm2eo9, of 1598.29, should be), and -status,amount orders amounts descending',
    {
      sortKeysOf: (keys) =>
        keys.map((key) => ({ ...key, descending: keys[0]?.descending ?? false })),
    },
  ),
  broken(
    'unknown sort field is a 500',
    'interface',
    'listInvoices sort: its schema is a pattern that sort=currency keeps (currency is a field of ' +
      'the Invoice, but not one of x-stockmock sort.fields); the operation declares 200, 400, ' +
      "401, 405 and 406. Here the field's comparer is looked up and called without a check, " +
      'and sort=currency (or memo, id) is a 500 problem: a client error reported as the ' +
      "server's (RFC 9110 §15.6), which no operation declares",
    { unknownSortFields: 'throw' },
  ),
  // Envelope, pagination and links
  broken(
    'meta.limit missing without limit',
    'interface',
    'listInvoices 200: meta requires total, page and limit (limit: integer, 1..50; the ' +
      'x-stockmock envelope puts the page size there, default 20). Here meta.limit is copied ' +
      'from the request, so GET /v1/invoices (no limit: pages of 20) answers meta {total: 57, ' +
      'page: 1} without limit; with limit=20 given it is right',
    {
      rewrite: (reply, context) =>
        context.operation === 'listInvoices' &&
        reply.status === 200 &&
        !queryOf(context.target).has('limit')
          ? mapBody(reply, (body) => {
              const meta = body['meta'];
              return isObject(meta)
                ? {
                    ...body,
                    meta: Object.fromEntries(
                      Object.entries(meta).filter(([name]) => name !== 'limit'),
                    ),
                  }
                : body;
            })
          : reply,
    },
  ),
  broken(
    'links drop recurring',
    'interface',
    'listInvoices links (components.schemas.Links: the first, last, previous and next pages of ' +
      'this list; docs/declare-a-resource.md: "links that keep every filter"): the link builder ' +
      'lists the filters it keeps by hand and misses recurring, so the next link of ' +
      'recurring=true&limit=5 (11 recurring invoices in billing.yaml, 3 pages) leads to page 2 ' +
      'of all 57 invoices, and a client walking next shows non-recurring ones',
    {
      linkQuery: (pairs, context) =>
        context.operation === 'listInvoices'
          ? pairs.filter(([name]) => name !== 'recurring')
          : pairs,
    },
  ),
  broken(
    'Link header repeats the page asked',
    'interface',
    'listCustomers Link: "RFC 8288 links to the first, last, previous and next pages"; Page is ' +
      "one integer. Each link is the request's own query with its page appended, so on a page " +
      'asked with page=, the links name page twice: /v1/customers?limit=5&page=2 (12 customers, ' +
      '3 pages) links next to …&page=2&page=3, which this service answers 400 (a single-valued ' +
      'parameter given twice) and other readers as page 2 again; without page= the links are right',
    {
      linkHeader: (links, request) => {
        const asked = /[?&]page=([^&]*)/.exec(request.target)?.[1];
        return links
          .map((link) => {
            const url =
              asked === undefined
                ? link.url
                : link.url.replace(/([?&])page=(\d+)$/, `$1page=${asked}&page=$2`);
            return `<${url}>; rel="${link.relation}"`;
          })
          .join(', ');
      },
    },
  ),
  // Access levels
  broken(
    'partner sees every field when the list is sorted',
    'interface',
    'x-stockmock.views of listCustomers (partner: id, name, country) and bearerAuth ' +
      '("partner-demo-token sees … a customer\'s id, name and country only"): a sorted list ' +
      'is read by another query that skips the view, so GET /v1/customers?sort=name with the ' +
      "partner token shows each customer's email, created_at and vat_number; unsorted lists " +
      'and getCustomer are right',
    {
      customerView: (customer, context, standard) =>
        context.level === 'partner' && context.place === 'list' && context.sorted
          ? customer.record
          : standard,
    },
  ),
  broken(
    'HEAD as partner has the support view length',
    'interface',
    'RFC 9110 §8.6: a Content-Length in a response to HEAD must equal the length of the GET ' +
      "response's content (and §9.3.2: the same header fields as GET). HEAD renders the record " +
      "before the level's view, so HEAD /v1/customers/{id} with the partner token announces " +
      'the length of the whole record (email, created_at, …), not of {data: {id, name, ' +
      'country}} that GET sends the partner; the same on the list; support is right',
    {
      customerView: (customer, context, standard) =>
        context.method === 'HEAD' ? customer.record : standard,
    },
  ),
  // Keys
  broken(
    'upper-case customer id refused',
    'interface',
    'getCustomer customerId: CustomerId, format: uuid (RFC 9562 §4: hex digits are ' +
      'case-insensitive on input), and 400 declared for a value its schema refuses: the path is ' +
      'checked against a lower-case pattern, so /v1/customers/EB60A975-07B8-4415-9114-F501D7B25A9E ' +
      '(Lumen Labs in upper case, a valid UUID) is a 400 naming customerId, not a 404 (no such ' +
      'key, compared as text) nor 200',
    {
      decodeItemSegment: (segment, operation) => {
        const decoded = decodePath(segment);
        return operation === 'getCustomer' && decoded !== undefined && /[A-F]/.test(decoded)
          ? undefined
          : decoded;
      },
    },
  ),
  broken(
    'trailing slash on an item is 404',
    'stand-in',
    'docs/behaviour.md (Surface): "A trailing slash names the same resource as without it: ' +
      '/v1/stock/1/ is product 1". Items are routed by a pattern that ends at the key, so ' +
      '/v1/invoices/inv_xm2eo9/ (an invoice of billing.yaml) and /v1/customers/{id}/ are 404 ' +
      'problems; the lists with a slash are right',
    {
      routePath: (pathname) =>
        /^\/v1\/(?:invoices|customers)\/[^/]+\/$/.test(pathname) ? undefined : pathname,
    },
  ),
  // Problems
  broken(
    '401 problem says status 403',
    'interface',
    'RFC 9457 §3.1.3 (the spec: "Errors are RFC 9457 problem details"): the problem\'s status is ' +
      'the HTTP status, and generators must use the same status in the response: every 401 ' +
      '(no token, an unknown one) carries a problem whose status is 403, so a client that ' +
      'reads the problem decides the caller is forbidden and does not ask for a token',
    {
      rewrite: (reply) =>
        reply.status === 401 ? mapBody(reply, (body) => ({ ...body, status: 403 })) : reply,
    },
  ),
  broken(
    'errors name only the first bad parameter',
    'stand-in',
    'PRODUCT.md (error body: 400 adds errors) and docs/behaviour.md ("the problem\'s errors ' +
      'names each bad parameter"): validation stops at the first fault, so ' +
      '/v1/invoices?limit=0&page=0 names limit alone, and a client fixing it meets a second 400 ' +
      'for page',
    {
      rewrite: (reply) =>
        reply.status === 400
          ? mapBody(reply, (body) => {
              const errors: readonly Json[] = isList(body['errors']) ? body['errors'] : [];
              const first = errors[0];
              if (errors.length < 2 || !isObject(first)) return body;
              const { parameter, message } = first;
              const detail =
                typeof parameter === 'string' && typeof message === 'string'
                  ? `Invalid parameters: ${parameter} ${message}.`
                  : (body['detail'] ?? null);
              return { ...body, detail, errors: [first] };
            })
          : reply,
    },
  ),
  broken(
    '405 without Allow',
    'interface',
    'RFC 9110 §15.5.6 ("The origin server MUST generate an Allow header field in a 405 ' +
      'response") and components.responses.MethodNotAllowed (Allow: required: true): POST, PUT, ' +
      'DELETE on /v1/invoices and the other paths answer 405 without Allow',
    {
      rewrite: (reply) =>
        reply.status === 405
          ? {
              ...reply,
              headers: Object.fromEntries(
                Object.entries(reply.headers).filter(([name]) => name.toLowerCase() !== 'allow'),
              ),
            }
          : reply,
    },
  ),
  broken(
    'Accept read from its first media range',
    'interface',
    'RFC 9110 §12.5.1: Accept is a list of media ranges with weights, and any that admits ' +
      'application/json with q > 0 is served (every operation answers application/json; 406 ' +
      'only when Accept excludes it): only the first range is read, so a browser-like ' +
      'Accept: text/html, application/json;q=0.9 gets a 406 (and application/json;q=0, which ' +
      'excludes JSON, is served)',
    {
      accepts: (accept) => {
        if (accept === undefined || accept.trim() === '') return true;
        const first = (accept.split(',')[0] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        return ['application/json', 'application/*', '*/*'].includes(first);
      },
    },
  ),
  // Tokens
  broken(
    'bearer scheme case-sensitive',
    'interface',
    'RFC 9110 §11.1 ("a case-insensitive token to identify the authentication scheme") and ' +
      'RFC 6750 §2.1, for bearerAuth (type: http, scheme: bearer): only "Bearer " is read, so ' +
      'Authorization: bearer partner-demo-token (a token of examples/billing/stockmock.config.yaml) ' +
      'is a 401 as if no token were sent',
    {
      authenticate: (authorization, tokens) =>
        authorization !== undefined && !authorization.startsWith('Bearer ')
          ? { kind: 'missing' }
          : authenticateBearer(authorization, tokens),
    },
  ),
  broken(
    'two spaces after Bearer refused',
    'interface',
    'RFC 6750 §2.1 (credentials = "Bearer" 1*SP b64token) and RFC 9110 §11.4: one or more ' +
      'spaces part the scheme from the token. The token is read as everything after ' +
      '"Bearer " (seven characters), so Authorization: Bearer  support-demo-token (two ' +
      'spaces; trailing whitespace never reaches the service, HTTP strips it, RFC 9110 §5.5) ' +
      'is a 401 invalid_token',
    {
      authenticate: (authorization, tokens) => {
        const standard = authenticateBearer(authorization, tokens);
        if (standard.kind !== 'level' || authorization === undefined) return standard;
        const token = authorization.slice('Bearer '.length);
        return token === tokens[standard.level] ? standard : { kind: 'invalid' };
      },
    },
  ),
];
