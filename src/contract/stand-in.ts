/**
 * @module What the stand-in answers on each point the interface leaves open: PRODUCT.md's
 * decisions, or the settings a stockmock states in its served spec
 * (`info.x-stockmock-compatibility`). The stand-in-level checks compare the target with these;
 * at the interface level a difference is reported, not failed, and each check says what the
 * target decided, so that `--suggest-config` can write the settings that match it.
 *
 * The checker keeps this definition of its own rather than importing the stand-in's
 * (src/compatibility/compatibility.ts): it judges targets, and must not move with stockmock's code.
 */
import type { LoadedSpec } from '../spec/load-spec.ts';
import { readingOfSpec, type Reading } from './reading.ts';

export type IdType = 'integer' | 'string';

/** A type per member that shows a product's id, by the member's name (`product_id`, `id`). */
export type IdTypeMap = Readonly<Record<string, IdType>>;

export interface StandInSettings {
  readonly stockField: 'quantity' | 'stock';
  /** One type for every member that shows a product's id, or one per member. */
  readonly productIdType: IdType | IdTypeMap;
  readonly unknownQueryParameters: 'reject' | 'ignore';
  readonly pastTheEnd: 'empty' | 'not-found' | 'bad-request';
  readonly order: 'id' | 'name' | 'name-lowercase' | 'name-locale';
  readonly nameMatch: 'case-insensitive' | 'case-sensitive';
  readonly accept: 'negotiate' | 'ignore';
  /** Whether links name `limit` when the request did not. */
  readonly linkLimit: 'always' | 'when-asked';
  /** How links encode their query values: `%20` or `+` for a space. */
  readonly linkEncoding: 'percent' | 'form';
  readonly parameterErrors: 'listed' | 'omitted';
  /** `stockmock`, `about:blank`, a base URI that problem names follow, or a URI per problem. */
  readonly problemTypes: string | ProblemTypeMap;
  readonly realm: string;
}

/** PRODUCT.md's decisions. */
export const PRODUCT_SETTINGS: StandInSettings = {
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

/** The values each setting may take; undefined: any text. */
const CHOICES: { readonly [K in keyof StandInSettings]?: readonly string[] } = {
  stockField: ['quantity', 'stock'],
  productIdType: ['integer', 'string'],
  unknownQueryParameters: ['reject', 'ignore'],
  pastTheEnd: ['empty', 'not-found', 'bad-request'],
  order: ['id', 'name', 'name-lowercase', 'name-locale'],
  nameMatch: ['case-insensitive', 'case-sensitive'],
  accept: ['negotiate', 'ignore'],
  linkLimit: ['when-asked', 'always'],
  linkEncoding: ['percent', 'form'],
  parameterErrors: ['listed', 'omitted'],
};

export interface StandIn {
  /** The name of the absolute level and the type of product_id, as the spec's schemas say. */
  readonly reading: Reading;
  readonly settings: StandInSettings;
}

/** One `type` URI per problem, by the problem's name (`not-found`). */
export type ProblemTypeMap = Readonly<Record<string, string>>;

/** A setting's value: a word or a URI, or a map (a URI per problem, a type per member). */
export type SettingValue = string | ProblemTypeMap | IdTypeMap;

/** Whether two values of a setting are the same. */
export function sameSetting(a: SettingValue, b: SettingValue): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** What one check saw the target decide: a setting's value, or what no setting covers. */
export type Decided =
  | {
      readonly setting: keyof StandInSettings;
      readonly value: SettingValue;
      readonly seen: string;
    }
  | { readonly uncovered: string };

/** The stand-in the spec describes: its stated settings, else PRODUCT.md's decisions. */
export function standInOf(spec: LoadedSpec): StandIn {
  const reading = readingOfSpec(spec);
  const stated = (spec.document.info as unknown as Record<string, unknown>)[
    'x-stockmock-compatibility'
  ];
  const settings: Record<string, SettingValue> = { ...PRODUCT_SETTINGS };
  if (typeof stated === 'object' && stated !== null) {
    for (const [key, value] of Object.entries(stated)) {
      const mapOf =
        key === 'problemTypes' ? isStringMap : key === 'productIdType' ? isIdTypeMap : undefined;
      if (mapOf?.(value) === true) {
        settings[key] = value;
        continue;
      }
      if (!(key in PRODUCT_SETTINGS) || typeof value !== 'string' || value === '') continue;
      const choices = CHOICES[key as keyof StandInSettings];
      if (choices === undefined || choices.includes(value)) settings[key] = value;
    }
  }
  return {
    reading,
    settings: {
      ...(settings as unknown as StandInSettings),
      stockField: reading.stockField,
      // The spec's schemas say what is served: the stock objects' product_id, the records' id.
      productIdType: idTypesOf({ stock: reading.productIdType, records: recordIdTypeOf(spec) }),
    },
  };
}

/** The id type of the stock objects' `product_id` and of the product records' `id`. */
export interface IdTypes {
  readonly stock: IdType;
  readonly records: IdType;
}

/** The setting's value for two types: one word where they agree, a type per member otherwise. */
export function idTypesOf(types: IdTypes): IdType | IdTypeMap {
  return types.stock === types.records
    ? types.stock
    : { product_id: types.stock, id: types.records };
}

/** The two types a value of the setting gives; a member a map does not name is an integer. */
export function idTypesIn(value: IdType | IdTypeMap): IdTypes {
  if (typeof value === 'string') return { stock: value, records: value };
  return { stock: value['product_id'] ?? 'integer', records: value['id'] ?? 'integer' };
}

/** The type of a product record's id, as the spec's `Product` schema gives it. */
function recordIdTypeOf(spec: LoadedSpec): IdType {
  const product = spec.dereferenced.components?.schemas?.['Product'];
  const id = product?.properties?.['id'] as { type?: unknown } | undefined;
  return id?.type === 'string' ? 'string' : 'integer';
}

function isStringMap(value: unknown): value is Readonly<Record<string, string>> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((uri) => typeof uri === 'string')
  );
}

function isIdTypeMap(value: unknown): value is IdTypeMap {
  return (
    isStringMap(value) &&
    Object.values(value).every((type) => type === 'integer' || type === 'string')
  );
}
