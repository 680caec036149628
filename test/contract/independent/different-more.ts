/**
 * More correct services that decide one point otherwise than PRODUCT.md, where the interface (or
 * PRODUCT.md itself) leaves room: a checker must pass them at the interface level and may tell
 * them apart at the stand-in level.
 */
import { makeCatalogue, type Product } from './catalogue.ts';
import type { ReferenceOptions } from './reference-server.ts';
import type { VariantSpec } from './servers.ts';

function different(name: string, rule: string, options: ReferenceOptions): VariantSpec {
  return { name, kind: 'different', rule, level: 'stand-in', options };
}

/** Out-of-stock products that hold stock, all of it reserved: a positive quantity, by name. */
const RESERVED: Readonly<Record<string, number>> = {
  'Pine bookcase': 5,
  'Cedar wardrobe': 12,
  'Round bistro table': 2,
};

function withReservedStock(): Product[] {
  return makeCatalogue('default').map((p) => {
    const quantity = RESERVED[p.name];
    return quantity === undefined ? p : { ...p, quantity, status: 'out_of_stock' };
  });
}

/** A type URI of its own for each problem, sharing no base. */
const OWN_TYPE_PER_PROBLEM: Readonly<Record<number, string>> = {
  400: 'https://a.example/bad-request',
  401: 'https://errors.b.example/auth',
  404: 'tag:example.com,2026:not-found',
  405: 'https://methods.c.example/not-allowed',
  406: 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66',
  500: 'https://d.example/oops',
};

export const DIFFERENT_MORE: readonly VariantSpec[] = [
  different(
    'challenge with error_description and scope',
    'Auth-params of the 401 challenge (PRODUCT.md "missing or invalid token": realm, and ' +
      'error="invalid_token" when a token was given; further auth-params allowed): adds ' +
      'scope="stock", and error_description when a token was given (RFC 6750 §3, §3.1)',
    { decisions: { challenge: 'described' } },
  ),
  different(
    'reserved stock: a few explicit statuses disagree with the quantity',
    'Explicit statuses (PRODUCT.md "Resources come from the spec": an explicit status wins ' +
      'over the derived one, even where it disagrees: data, not a fault): three out_of_stock ' +
      'products hold a positive quantity, all of it reserved; every other status as derived',
    { catalogue: withReservedStock() },
  ),
  different(
    'order by lower-cased name',
    'Order of list items (interface: not shown; PRODUCT.md: by id ascending): by the name ' +
      'lower-cased (toLowerCase), compared by UTF-16 code units, ties by id, stable across pages',
    { decisions: { order: 'lower-name' } },
  ),
  different(
    'order by locale collation',
    'Order of list items (interface "Endpoints": no order given; PRODUCT.md "order of list ' +
      'items": by id ascending): by name under the Unicode Collation Algorithm\'s root ' +
      'collation (CLDR, as ICU collations in databases sort, e.g. PostgreSQL und-x-icu), ties by ' +
      'id, stable across pages',
    { decisions: { order: 'name-locale' } },
  ),
  different(
    'one problem type URI per problem, no common base',
    'Problem type URIs (interface "Errors": not shown; PRODUCT.md "error body": a real service ' +
      'may use about:blank or its own): an absolute URI of its own per problem, no common base ' +
      `(${Object.values(OWN_TYPE_PER_PROBLEM).join(', ')})`,
    { decisions: { problemTypes: OWN_TYPE_PER_PROBLEM } },
  ),
  different(
    'string product_id in stock objects, integer record ids',
    'Type of product_id (interface "Stock object": string in the field list, integer in the ' +
      'samples; PRODUCT.md: integer): a string of digits in stock objects, while /v1/products ' +
      'records keep an integer id',
    { decisions: { productIdType: 'string-in-stock' } },
  ),
  different(
    'gzip when asked',
    'Content coding (interface: responses are JSON, coding not shown; PRODUCT.md: silent): ' +
      'gzip when Accept-Encoding admits it, with Content-Encoding: gzip and Vary: ' +
      'Accept-Encoding (RFC 9110 §8.4.1.3, §12.5.3, §12.5.5)',
    { decisions: { contentCoding: 'gzip' } },
  ),
  different(
    'pretty-printed JSON with extra headers',
    'Layout and headers beyond the interface (interface: responses are JSON; PRODUCT.md: ' +
      'silent): bodies indented by two spaces (RFC 8259 §2: insignificant whitespace), plus ' +
      'X-Request-Id and Cache-Control: no-store on every answer',
    { decisions: { jsonLayout: 'indented', extraHeaders: 'request-id-and-no-store' } },
  ),
  different(
    'a health answer of its own',
    'GET /healthz (interface: not part of it; PRODUCT.md "Surface": open, up and the size of ' +
      'the catalogue): {"status":"ok"} and nothing more, as a real service\'s liveness answer',
    { decisions: { health: 'up-only' } },
  ),
];
