/**
 * @module The points the interface leaves open, as settings: one schema gives the config's
 * validation, the type and the defaults.
 *
 * The contract checker keeps a reading of its own (src/contract/reading.ts): it judges what a
 * target does, and must not move with the stand-in's settings.
 */
import { Type, type Static } from '@sinclair/typebox';

/** The name of the absolute level: `quantity` in the samples, `stock` in the field list. */
const STOCK_FIELDS = ['quantity', 'stock'] as const;
/** The type of `product_id`: integer in the samples, string in the field list. */
const PRODUCT_ID_TYPES = ['integer', 'string'] as const;

/** A closed set of strings, typed as its union (TypeBox's Union of Literals says it less plainly). */
function oneOf<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
}

export const CompatibilitySchema = Type.Object(
  {
    stockField: oneOf(STOCK_FIELDS),
    productIdType: oneOf(PRODUCT_ID_TYPES),
  },
  { additionalProperties: false },
);

export type Compatibility = Readonly<Static<typeof CompatibilitySchema>>;

/** The defaults follow the interface's samples. */
export const DEFAULT_COMPATIBILITY: Compatibility = {
  stockField: 'quantity',
  productIdType: 'integer',
};
