/**
 * Correct services that decide one open point of the interface otherwise than PRODUCT.md: a
 * checker must pass them at the interface level and tell them apart at the stand-in level.
 */
import type { Decisions } from './reference-server.ts';
import type { VariantSpec } from './servers.ts';

function different(name: string, rule: string, decisions: Partial<Decisions>): VariantSpec {
  return { name, kind: 'different', rule, level: 'stand-in', options: { decisions } };
}

const OWN_PROBLEM_TYPES = 'https://errors.example.com/stock/';
const OWN_REALM = 'stock-api';

const EACH: readonly VariantSpec[] = [
  different(
    'unknown query parameters ignored',
    'Unknown query parameters (interface "Errors": not shown; PRODUCT.md: 400 by default, a ' +
      'setting ignores them): ignored',
    { unknownParameters: 'ignore' },
  ),
  different(
    'page past the end answers 404',
    'Page past the end (interface: not shown; PRODUCT.md: 200 with empty data): a 404 problem',
    { pastTheEnd: 'not-found' },
  ),
  different(
    'problem types about:blank',
    'Problem type URIs (interface "Errors": not shown; PRODUCT.md: RFC 9457 problems, the ' +
      "stand-in's own urn types): about:blank, titles the HTTP status phrases (RFC 9457 §4.2.1)",
    { problemTypeBase: null },
  ),
  different(
    'own problem types and realm',
    `Problem type URIs and bearer realm (PRODUCT.md: urn:problem-type:stockmock:…, realm ` +
      `"stockmock"): types under ${OWN_PROBLEM_TYPES}, realm "${OWN_REALM}"`,
    { problemTypeBase: OWN_PROBLEM_TYPES, realm: OWN_REALM },
  ),
  different(
    '400 without an errors member',
    'Error body (interface "Errors": not shown; PRODUCT.md: a 400 adds errors: [{parameter, in, ' +
      'message}]): RFC 9457 members only',
    { parameterErrors: false },
  ),
  different(
    'items ordered by name',
    'Order of list items (interface: not shown; PRODUCT.md: by id ascending): by name, ties ' +
      'by id, stable across pages',
    { order: 'name' },
  ),
  different(
    'absolute level named stock',
    'Name of the absolute stock level (interface "Stock object": `stock` in the field list, ' +
      '`quantity` in the samples; PRODUCT.md: quantity): stock',
    { quantityField: 'stock' },
  ),
  different(
    'product ids as strings',
    'Type of product_id (interface "Stock object": string in the field list, integer in the ' +
      'samples; PRODUCT.md: integer): a string of digits, for product_id and product record ids',
    { productIdType: 'string' },
  ),
  different(
    'case-sensitive name filter',
    'Case of the name filter (interface: "substring match", case not stated; PRODUCT.md: ' +
      'case-insensitive with Unicode folding): case-sensitive, still literal',
    { nameMatch: 'case-sensitive' },
  ),
  different(
    'Accept ignored',
    'Accept (PRODUCT.md: 406 when it excludes JSON; RFC 9110 §12.5.1 lets a server disregard ' +
      'it): always JSON, never 406',
    { accept: 'ignore' },
  ),
];

export const DIFFERENT: readonly VariantSpec[] = [
  ...EACH,
  different(
    'all differences combined',
    'Every choice above at once (own problem types rather than about:blank): unknown ' +
      'parameters ignored, 404 past the end, own types and realm, no errors member, order by ' +
      'name, `stock`, string ids, case-sensitive name filter, Accept ignored',
    {
      unknownParameters: 'ignore',
      pastTheEnd: 'not-found',
      problemTypeBase: OWN_PROBLEM_TYPES,
      realm: OWN_REALM,
      parameterErrors: false,
      order: 'name',
      quantityField: 'stock',
      productIdType: 'string',
      nameMatch: 'case-sensitive',
      accept: 'ignore',
    },
  ),
];
