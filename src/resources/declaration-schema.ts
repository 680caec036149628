/**
 * @module The shape of the `x-stockmock` keywords a spec declares its resources with: one schema
 * for the check (with file, line and field) and the types.
 *
 * Why keywords in the spec, not a block of the config: the spec is what a client team edits when
 * the interface grows, and a filter or a view belongs beside the parameter and the response it
 * serves; a config names files and tokens, which change per machine. Other tools ignore `x-`
 * keywords (OpenAPI 3.1 §4.9), so the spec stays the interface's.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MATCHES, type Match } from '../query/query.ts';
import { LIST_PARTS } from './envelope.ts';

const Name = Type.String({ minLength: 1, maxLength: 200 });

export type { Match } from '../query/query.ts';

/** The compatibility settings that act on a field a collection names. */
export const FIELD_SETTINGS = ['productIdType', 'stockField'] as const;
export type FieldSetting = (typeof FIELD_SETTINGS)[number];

const DerivationSchema = Type.Object(
  {
    from: Name,
    /**
     * `stock-level`: a known positive number gives `positive`, zero gives `zero`, null or absent
     * gives `unknown`; a value the record gives itself wins.
     */
    rule: Type.Unsafe<'stock-level'>({ type: 'string', enum: ['stock-level'] }),
    positive: Name,
    zero: Name,
    unknown: Name,
  },
  { additionalProperties: false },
);

export const CollectionSchema = Type.Object(
  {
    key: Name,
    label: Type.Optional(Name),
    /** A field → the collection whose key it holds. */
    references: Type.Optional(Type.Record(Name, Name)),
    record: Type.Object({}, { additionalProperties: true }),
    derive: Type.Optional(Type.Record(Name, DerivationSchema)),
    /**
     * A field a write fills with the whole record another field references, where the body does
     * not give it: `venue: venueSlug` fills `venue` with the venue whose key `venueSlug` holds.
     */
    embed: Type.Optional(Type.Record(Name, Name)),
    settings: Type.Optional(
      Type.Object(
        Object.fromEntries(FIELD_SETTINGS.map((setting) => [setting, Type.Optional(Name)])),
        {
          additionalProperties: false,
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const CollectionsSchema = Type.Record(Name, CollectionSchema);

const ViewSchema = Type.Object(
  {
    /** Output member → the record field it shows, in the order written. */
    fields: Type.Optional(Type.Record(Name, Name)),
    /** Then every other field the record has, but those in `omit`. */
    rest: Type.Optional(Type.Boolean()),
    omit: Type.Optional(Type.Array(Name)),
  },
  { additionalProperties: false },
);

const FilterSchema = Type.Object(
  {
    field: Name,
    match: Type.Unsafe<Match>({ type: 'string', enum: [...MATCHES] }),
  },
  { additionalProperties: false },
);

/**
 * Where an answer's parts go, as member paths (`meta.total`): a list's `items` (required),
 * `links`, `total`, `page`, `limit`, `pages`, `offset`; an item's `item`. `none`: a bare array (the links
 * in a `Link` header), or the record itself.
 */
const EnvelopeSchema = Type.Union([
  Type.Unsafe<'none'>({ type: 'string', enum: ['none'] }),
  Type.Object(
    Object.fromEntries(
      [...LIST_PARTS, 'item'].map((part) => [
        part,
        Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      ]),
    ),
    { additionalProperties: false },
  ),
]);

/** An operation served from data: a list, or one item when `item` names the key's parameter. */
export const DataOperationSchema = Type.Object(
  {
    collection: Name,
    /** The path parameter that names one item by its key: an item operation; else a list. */
    item: Type.Optional(Name),
    /**
     * A nested list or item (`/events/{eventId}/tickets`): each parent's path parameter → the
     * record field that holds its key. Without it, the field of the parameter's name says.
     */
    parents: Type.Optional(Type.Record(Name, Name)),
    filters: Type.Optional(Type.Record(Name, FilterSchema)),
    /** One view for every access level… */
    view: Type.Optional(ViewSchema),
    /** …or one per access level. */
    views: Type.Optional(Type.Record(Name, ViewSchema)),
    envelope: Type.Optional(EnvelopeSchema),
    /**
     * The query parameters that page a list: a page size and a page number, an offset or a cursor;
     * `none`: the whole list in one answer. Without it, the parameters' names say (pagination.ts).
     */
    paging: Type.Optional(
      Type.Union([
        Type.Unsafe<'none'>({ type: 'string', enum: ['none'] }),
        Type.Object(
          {
            size: Type.Optional(Name),
            page: Type.Optional(Name),
            offset: Type.Optional(Name),
            cursor: Type.Optional(Name),
            /** Beside a cursor: the parameter that asks for the page before an item. */
            before: Type.Optional(Name),
            /** What a cursor is: text the pages give, or an item's key (Stripe's). */
            cursorValue: Type.Optional(
              Type.Unsafe<'opaque' | 'key'>({ type: 'string', enum: ['opaque', 'key'] }),
            ),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
      ]),
    ),
    /** The query parameter that orders a list, the fields it may name, and the order without it. */
    sort: Type.Optional(
      Type.Object(
        {
          parameter: Name,
          fields: Type.Array(Name, { minItems: 1 }),
          default: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Health: output member → the collection whose size it gives. */
export const HealthOperationSchema = Type.Object(
  { health: Type.Record(Name, Name) },
  { additionalProperties: false },
);

/** The spec itself, as JSON or YAML. */
export const DocumentOperationSchema = Type.Object(
  { document: Type.Unsafe<'json' | 'yaml'>({ type: 'string', enum: ['json', 'yaml'] }) },
  { additionalProperties: false },
);

export type CollectionInput = Static<typeof CollectionSchema>;
export type DataOperationInput = Static<typeof DataOperationSchema>;
export type ViewInput = Static<typeof ViewSchema>;
export type DerivationInput = Static<typeof DerivationSchema>;

/** The writes a spec's operation makes on its path's collection, or `false`: from examples. */
export const WRITE_ACTIONS = ['create', 'replace', 'merge', 'delete'] as const;

/** A write operation's declaration: what it does, where the path alone does not say it. */
export const WriteOperationSchema = Type.Object(
  {
    write: Type.Unsafe<(typeof WRITE_ACTIONS)[number] | false>({
      enum: [...WRITE_ACTIONS, false],
    }),
  },
  { additionalProperties: false },
);
export type WriteOperationInput = Static<typeof WriteOperationSchema>;
