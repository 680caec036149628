/**
 * @module The points the interface leaves open, as settings: one schema gives the config's
 * validation, the type and the defaults. The defaults are PRODUCT.md's decisions; each other
 * value is a choice a real service may make and still be correct, so that the stand-in can be
 * made to answer like the service it stands in for (docs/testers-toolbox.md, "Make the stand-in match your
 * service").
 *
 * The contract checker keeps a reading of its own (src/contract/reading.ts): it judges what a
 * target does, and must not move with the stand-in's settings.
 */
import { Type, type Static } from '@sinclair/typebox';

/** A closed set of strings, typed as its union (TypeBox's Union of Literals says it less plainly). */
function oneOf<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
}

/** A URI with a scheme. */
const ABSOLUTE_URI = '^[A-Za-z][A-Za-z0-9+.-]*:[^\\s"]*$';

/**
 * Problem `type` URIs: stockmock's URNs (`urn:problem-type:stockmock:not-found`), `about:blank`
 * (with the HTTP status phrase as the title, RFC 9457 §4.2.1), a base URI of the service's
 * own that each problem's name is appended to (`https://errors.example.com/not-found`), or one
 * URI per problem, by its name (`not-found: tag:example.com,2026:missing`); a problem the map
 * does not name keeps stockmock's URN.
 */
const ProblemTypesSchema = Type.Union([
  oneOf(['stockmock', 'about:blank'] as const),
  Type.String({ pattern: ABSOLUTE_URI }),
  Type.Record(
    Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
    Type.String({ pattern: ABSOLUTE_URI }),
    { minProperties: 1 },
  ),
]);

const ID_TYPE = oneOf(['integer', 'string'] as const);

/** The names the absolute level may go by. */
export const STOCK_FIELD_NAMES = ['quantity', 'stock'] as const;

export const CompatibilitySchema = Type.Object(
  {
    /** The name of the absolute level: `quantity` in the samples, `stock` in the field list. */
    stockField: oneOf(STOCK_FIELD_NAMES),
    /**
     * The type of `product_id`: integer in the samples, string in the field list. One type for
     * every member that shows a product's id, or a type per member by its name
     * (`{product_id: string, id: integer}`: strings in stock objects, integers in records); a
     * member the map does not name is an integer.
     */
    productIdType: Type.Union([
      ID_TYPE,
      Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' }), ID_TYPE, {
        minProperties: 1,
      }),
    ]),
    /** A query parameter that no operation declares: a 400 naming it, or ignored. */
    unknownQueryParameters: oneOf(['reject', 'ignore'] as const),
    /**
     * A page past the last: 200 with empty `data`, a 404 problem, or a 400 problem naming the
     * page parameter (for a spec whose lists declare a 400 and no 404).
     */
    pastTheEnd: oneOf(['empty', 'not-found', 'bad-request'] as const),
    /**
     * The order of list items: by product id; by name (code units; ties by id); by the name
     * lower-cased (JavaScript's toLowerCase, then code units; ties by id), as a database that
     * sorts on lower(name) lists them; or by the name under the Unicode Collation Algorithm's
     * root collation (CLDR; ties by id), as a database with an ICU collation lists them.
     */
    order: oneOf(['id', 'name', 'name-lowercase', 'name-locale'] as const),
    /** The `name` filter's case rule; every character stays literal either way. */
    nameMatch: oneOf(['case-insensitive', 'case-sensitive'] as const),
    /** An `Accept` that excludes JSON: a 406 problem, or JSON all the same. */
    accept: oneOf(['negotiate', 'ignore'] as const),
    /**
     * Whether a list's links name `limit` when the request named none: always (the default
     * page size, written out), or only when the request did.
     */
    linkLimit: oneOf(['when-asked', 'always'] as const),
    /**
     * How a link's query values are encoded: as URI components (`%20` for a space), or as an
     * HTML form and URLSearchParams write them (`+` for a space; `!'()~` escaped too).
     */
    linkEncoding: oneOf(['percent', 'form'] as const),
    /** A 400's `errors` member naming each bad parameter: listed, or omitted. */
    parameterErrors: oneOf(['listed', 'omitted'] as const),
    problemTypes: ProblemTypesSchema,
    /** The realm of the 401 challenge, `WWW-Authenticate: Bearer realm="…"`. */
    realm: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^"\\\\\\x00-\\x1f]+$' }),
  },
  { additionalProperties: false },
);

export type Compatibility = Readonly<Static<typeof CompatibilitySchema>>;

/** The two settings that shape a stock object. */
export type StockShape = Pick<Compatibility, 'stockField' | 'productIdType'>;

/** PRODUCT.md's decisions, which follow the interface's samples where it has them. */
export const DEFAULT_COMPATIBILITY: Compatibility = {
  stockField: 'quantity',
  productIdType: 'integer',
  unknownQueryParameters: 'reject',
  pastTheEnd: 'empty',
  order: 'id',
  nameMatch: 'case-insensitive',
  accept: 'negotiate',
  linkLimit: 'when-asked',
  linkEncoding: 'percent',
  parameterErrors: 'listed',
  problemTypes: 'stockmock',
  realm: 'stockmock',
};

/** Where each setting may also come from: one environment variable each. */
export const COMPATIBILITY_ENV: Readonly<Record<string, keyof Compatibility>> = {
  STOCKMOCK_STOCK_FIELD: 'stockField',
  STOCKMOCK_PRODUCT_ID_TYPE: 'productIdType',
  STOCKMOCK_UNKNOWN_QUERY_PARAMETERS: 'unknownQueryParameters',
  STOCKMOCK_PAST_THE_END: 'pastTheEnd',
  STOCKMOCK_ORDER: 'order',
  STOCKMOCK_NAME_MATCH: 'nameMatch',
  STOCKMOCK_ACCEPT: 'accept',
  STOCKMOCK_LINK_LIMIT: 'linkLimit',
  STOCKMOCK_LINK_ENCODING: 'linkEncoding',
  STOCKMOCK_PARAMETER_ERRORS: 'parameterErrors',
  STOCKMOCK_PROBLEM_TYPES: 'problemTypes',
  STOCKMOCK_REALM: 'realm',
};
