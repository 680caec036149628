/** @module The JSON Schema of a fixture file. */
import { Type, type Static } from '@sinclair/typebox';
import { STOCK_STATUSES, type StockStatus } from './stock-status.ts';

export const FixtureProductSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    name: Type.String({ minLength: 1 }),
    // Plain `type: [integer, null]` and `enum` rather than unions: one clear error per field.
    quantity: Type.Optional(
      Type.Unsafe<number | null>({
        type: ['integer', 'null'],
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
      }),
    ),
    status: Type.Optional(Type.Unsafe<StockStatus>({ type: 'string', enum: [...STOCK_STATUSES] })),
  },
  // Extra fields are kept and shown by /v1/products.
  { additionalProperties: true },
);

export const FixtureSchema = Type.Object(
  { products: Type.Array(FixtureProductSchema) },
  { additionalProperties: false },
);

export type FixtureProduct = Static<typeof FixtureProductSchema>;
export type Fixture = Static<typeof FixtureSchema>;
