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

export interface StandInSettings {
  readonly stockField: 'quantity' | 'stock';
  readonly productIdType: 'integer' | 'string';
  readonly unknownQueryParameters: 'reject' | 'ignore';
  readonly pastTheEnd: 'empty' | 'not-found';
  readonly order: 'id' | 'name' | 'name-lowercase';
  readonly nameMatch: 'case-insensitive' | 'case-sensitive';
  readonly accept: 'negotiate' | 'ignore';
  readonly parameterErrors: 'listed' | 'omitted';
  /** `stockmock`, `about:blank`, or a base URI that problem names follow. */
  readonly problemTypes: string;
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
  parameterErrors: 'listed',
  problemTypes: 'stockmock',
  realm: 'stockmock',
};

/** The values each setting may take; undefined: any text. */
const CHOICES: { readonly [K in keyof StandInSettings]?: readonly string[] } = {
  stockField: ['quantity', 'stock'],
  productIdType: ['integer', 'string'],
  unknownQueryParameters: ['reject', 'ignore'],
  pastTheEnd: ['empty', 'not-found'],
  order: ['id', 'name', 'name-lowercase'],
  nameMatch: ['case-insensitive', 'case-sensitive'],
  accept: ['negotiate', 'ignore'],
  parameterErrors: ['listed', 'omitted'],
};

export interface StandIn {
  /** The name of the absolute level and the type of product_id, as the spec's schemas say. */
  readonly reading: Reading;
  readonly settings: StandInSettings;
}

/** What one check saw the target decide: a setting's value, or what no setting covers. */
export type Decided =
  | { readonly setting: keyof StandInSettings; readonly value: string; readonly seen: string }
  | { readonly uncovered: string };

/** The stand-in the spec describes: its stated settings, else PRODUCT.md's decisions. */
export function standInOf(spec: LoadedSpec): StandIn {
  const reading = readingOfSpec(spec);
  const stated = (spec.document.info as unknown as Record<string, unknown>)[
    'x-stockmock-compatibility'
  ];
  const settings: Record<string, string> = { ...PRODUCT_SETTINGS };
  if (typeof stated === 'object' && stated !== null) {
    for (const [key, value] of Object.entries(stated)) {
      if (!(key in PRODUCT_SETTINGS) || typeof value !== 'string' || value === '') continue;
      const choices = CHOICES[key as keyof StandInSettings];
      if (choices === undefined || choices.includes(value)) settings[key] = value;
    }
  }
  return {
    reading,
    settings: { ...(settings as unknown as StandInSettings), ...reading },
  };
}
