/**
 * Round 7 of the billing variants: each breaks one rule, chosen from examples/billing/openapi.yaml,
 * billing.yaml and the docs alone (the list envelope's numbers, a percent-encoded key, a decimal
 * bound, a level's view under a filter, the problem bodies and the status of a bad parameter).
 */
import {
  brokenBilling,
  isJsonObject,
  decodePath,
  type BillingServer,
  type InvoiceFilters,
  type JsonObject,
  type Reply,
} from './billing-servers.ts';

const broken = brokenBilling;

const isObject = isJsonObject;

/** The reply's body with `change` applied to it when it is an object. */
function mapBody(reply: Reply, change: (body: JsonObject) => JsonObject): Reply {
  return isObject(reply.body) ? { ...reply, body: change(reply.body) } : reply;
}

/** The filters without the two on dates (issued_after, due_before). */
function withoutDateFilters(filters: InvoiceFilters): InvoiceFilters {
  return Object.fromEntries(
    Object.entries(filters).filter(([name]) => name !== 'issued_after' && name !== 'due_before'),
  );
}

/**
 * A page past the end answered with meta.page set to the last page, max(1, ceil(total / limit)),
 * the items left as they are (none).
 */
function clampPastTheEnd(reply: Reply): Reply {
  return mapBody(reply, (body) => {
    const meta = body['meta'];
    if (!isObject(meta)) return body;
    const { total, page, limit } = meta;
    if (typeof total !== 'number' || typeof page !== 'number' || typeof limit !== 'number') {
      return body;
    }
    const last = Math.max(1, Math.ceil(total / limit));
    return page > last ? { ...body, meta: { ...meta, page: last } } : body;
  });
}

/** A cent amount (billing.yaml's amounts have at most two decimals). */
const cents = (amount: number): number => Math.round(amount * 100);

export const BILLING_ROUND7: readonly BillingServer[] = [
  broken(
    'meta.total ignores the date filters',
    'interface',
    'listInvoices x-stockmock envelope total: meta.total, "the number of records the filters ' +
      'keep over all pages" (docs/declare-a-resource.md): issued_after and due_before are left ' +
      'out of the count while the items are filtered, so issued_after=2024-03-20T00:00:00Z ' +
      'holds 7 invoices under meta.total 57, and a client counting pages from it asks for 2 ' +
      'empty ones',
    {
      invoiceTotal: (filters, count) => count(withoutDateFilters(filters)),
    },
  ),
  broken(
    'meta.page clamped past the end',
    'interface',
    'openapi.yaml, listInvoices meta: `page` is the page of this answer, and the answer holds ' +
      'no items of page 3; page=4 of 57 invoices (limit 20) answers meta.page 3 over no items, ' +
      'while page 3 holds 17: the numbers say one page and the items another (an empty page ' +
      'past the end and the last page again are both fair; a mix of the two is not)',
    {
      rewrite: (reply, context) =>
        context.operation === 'listInvoices' && reply.status === 200
          ? clampPastTheEnd(reply)
          : reply,
    },
  ),
  broken(
    'percent-encoded string key refused',
    'interface',
    'RFC 3986 §2.3 and §6.2.2.2: a percent-encoded unreserved character is equivalent to the ' +
      'character, so /v1/invoices/inv%5Fxm2eo9 is /v1/invoices/inv_xm2eo9 (getInvoice, an ' +
      'invoice billing.yaml holds); a segment holding % is refused here with a 400 naming ' +
      'invoiceId, as if it broke the pattern',
    {
      decodeItemSegment: (segment, operation) =>
        operation === 'getInvoice' && segment.includes('%') ? undefined : decodePath(segment),
    },
  ),
  broken(
    'amount_max read in whole cents downwards',
    'interface',
    'listInvoices amount_max: type: number (a decimal), x-stockmock match: max, inclusive ' +
      '(docs/declare-a-resource.md): the bound is read as Math.floor(amount_max * 100) cents, ' +
      'and 19.99 * 100 is 1998.9999999999998 in binary floating point, so amount_max=19.99 ' +
      'leaves out the four invoices of exactly 19.99 (inv_w2pa20, inv_31p1kk, inv_0417d9, ' +
      'inv_6hb9n0); whole amounts (49, 100) and the other decimals of billing.yaml stay in ' +
      'at their own bound',
    {
      invoiceMatchers: {
        amount_max: (invoice, value) => cents(invoice.amount) <= Math.floor(value * 100),
      },
    },
  ),
  broken(
    'partner sees email when the list is filtered',
    'interface',
    'x-stockmock.views of listCustomers (partner: id, name, country) and bearerAuth ' +
      '("partner-demo-token sees … a customer\'s id, name and country only"): the partner ' +
      "level sees each customer's email in listCustomers when a filter (country, q, " +
      'created_after) is given; the unfiltered list and getCustomer are right',
    {
      customerView: (customer, context, standard) =>
        context.level === 'partner' && context.place === 'list' && context.filtered
          ? { ...standard, email: customer.record['email'] ?? null }
          : standard,
    },
  ),
  broken(
    '404 body without type and title',
    'interface',
    'getInvoice and getCustomer 404: components.responses.Problem, whose schema requires type, ' +
      'title and status: every not-found problem (an unknown key, or path) carries status and ' +
      'detail only, so a client ' +
      'reading problem.title (or dispatching on type) gets nothing',
    {
      rewrite: (reply) =>
        reply.status === 404
          ? mapBody(reply, (body) =>
              Object.fromEntries(
                Object.entries(body).filter(([name]) => name !== 'type' && name !== 'title'),
              ),
            )
          : reply,
    },
  ),
  broken(
    '422 for invalid parameters',
    'interface',
    "every operation declares '400' (components.responses.Problem) for a parameter its schema " +
      'refuses, and none declares 422: limit=0, amount_max=-1 or an invoiceId that breaks its ' +
      'pattern are answered 422 (the same problem body, status 422), a status the spec does ' +
      'not give',
    {
      rewrite: (reply) =>
        reply.status === 400
          ? mapBody({ ...reply, status: 422 }, (body) => ({ ...body, status: 422 }))
          : reply,
    },
  ),
];
