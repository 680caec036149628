/** @module The simulation settings of the config: latency, error rate, rate limit, per route. */
import { Type, type Static } from '@sinclair/typebox';

/** Milliseconds: a fixed delay, or a range drawn from uniformly. */
export const LatencySchema = Type.Union([
  Type.Integer({ minimum: 0, maximum: 60_000 }),
  Type.Object(
    {
      min: Type.Integer({ minimum: 0, maximum: 60_000 }),
      max: Type.Integer({ minimum: 0, maximum: 60_000 }),
    },
    { additionalProperties: false },
  ),
]);

/** Faults of one route, or of all routes. */
export const FaultsSchema = Type.Object(
  {
    latency: Type.Optional(LatencySchema),
    errors: Type.Optional(
      Type.Object(
        {
          /** The share of requests that fail, from 0 to 1. */
          rate: Type.Number({ minimum: 0, maximum: 1 }),
          /** A status the spec declares for every route it applies to; default 503. */
          status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SimulationSchema = Type.Object(
  {
    ...FaultsSchema.properties,
    /** Seeds the random choices of latency ranges and error rates, for reproducible runs. */
    seed: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Per token (or per client address without one): at most `max` requests per window. */
    rateLimit: Type.Optional(
      Type.Object(
        { max: Type.Integer({ minimum: 1 }), timeWindowMs: Type.Integer({ minimum: 1 }) },
        { additionalProperties: false },
      ),
    ),
    /** Faults for one operation, by the spec's operationId; they replace the global ones. */
    routes: Type.Optional(Type.Record(Type.String(), FaultsSchema)),
  },
  { additionalProperties: false },
);

export type Latency = Static<typeof LatencySchema>;
export type Faults = Static<typeof FaultsSchema>;
export type Simulation = Static<typeof SimulationSchema>;
