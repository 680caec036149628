/** @module The config schema: one source for the JSON Schema and the `Config` type. */
import { Type, type Static } from '@sinclair/typebox';
import { ACCESS_LEVEL_PATTERN, type AccessLevel } from '../access/access-level.ts';
import { CompatibilitySchema } from '../compatibility/compatibility.ts';
import { SimulationSchema } from './simulation-schema.ts';

/** The scenario that serves the config's `fixtures`. */
export const DEFAULT_SCENARIO = 'default';

/** A level the spec's views name (`status` and `quantity` in the shipped spec); checked at start. */
const Level = Type.Unsafe<AccessLevel>({ type: 'string', pattern: ACCESS_LEVEL_PATTERN });

export const ConfigSchema = Type.Object(
  {
    host: Type.String({ minLength: 1 }),
    port: Type.Integer({ minimum: 0, maximum: 65535 }),
    /** Base of absolute links; else the request's own scheme and host. */
    baseUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
    spec: Type.String({ minLength: 1 }),
    fixtures: Type.String({ minLength: 1 }),
    /** Named data sets: a fixture file, or a catalogue generated at start. */
    scenarios: Type.Record(
      Type.String({ pattern: '^(?!default$)[A-Za-z0-9_.-]+$' }),
      Type.Union([
        Type.String({ minLength: 1 }),
        Type.Object(
          {
            generate: Type.Object(
              {
                count: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
                seed: Type.Optional(Type.Integer({ minimum: 0 })),
              },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false },
        ),
      ]),
    ),
    /** The scenario active at start; `default` (the `fixtures`) when absent. */
    scenario: Type.Optional(Type.String({ minLength: 1 })),
    /** At least one: a stand-in nobody can call is a mistake, not a setting. */
    tokens: Type.Array(
      Type.Object(
        {
          token: Type.String({ minLength: 1, pattern: '^[\\x21-\\x7e]+$' }),
          level: Level,
          /** The security scheme (by its name in the spec) it is a credential of; all when absent. */
          scheme: Type.Optional(Type.String({ minLength: 1 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    /** Deprecated: `compatibility.unknownQueryParameters`. Still read, with a warning. */
    unknownQueryParameters: Type.Optional(
      Type.Unsafe<'reject' | 'ignore'>({ type: 'string', enum: ['reject', 'ignore'] }),
    ),
    cors: Type.Object(
      {
        /** `*` allows any origin; otherwise the exact origins allowed. */
        origins: Type.Union([Type.Literal('*'), Type.Array(Type.String({ minLength: 1 }))]),
      },
      { additionalProperties: false },
    ),
    /** The admin API: off unless a token is set. */
    admin: Type.Optional(
      Type.Object(
        {
          token: Type.Optional(Type.String({ minLength: 8, pattern: '^[\\x21-\\x7e]+$' })),
          /** How many requests the journal keeps; the oldest go first. Default 1000. */
          journalSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * The bounds of sessions (docs/writes-and-sessions.md): past one, a write is refused with a
     * problem that names it. Each unset bound keeps its default.
     */
    sessions: Type.Optional(
      Type.Object(
        {
          /** Sessions that hold writes at once. Default 1000. */
          max: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
          /** Writes one session holds. Default 10 000. */
          writes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
          /** Bytes of records (as JSON) one session holds. Default 16 MiB. */
          bytes: Type.Optional(Type.Integer({ minimum: 1024 })),
          /** A session unused this long ends, with its writes. Default 3600. */
          idleSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 * 86_400 })),
          /**
           * The largest collection writes are served on: the first read after a change rebuilds
           * the session's copy of it, on the serving thread. Default 10 000.
           */
        },
        { additionalProperties: false },
      ),
    ),
    /** How the two open points of the interface are emitted; the served spec follows. */
    compatibility: CompatibilitySchema,
    /** Simulated latency, errors and rate limits; off unless set. */
    simulation: Type.Optional(SimulationSchema),
    /** Reload changed fixture and config files. */
    watch: Type.Boolean(),
    /**
     * Refuse to start on a spec with operations that no `x-stockmock` declaration serves from
     * data, or with faults of one schema or one path template; by default those operations are
     * answered from the spec's examples, and those faults served around with a warning.
     */
    strict: Type.Boolean(),
    /**
     * A reload reads a file only once it has not changed for this long (ms), so that a file
     * being written in place is never served half-written. Saving by rename is atomic anyway.
     */
    reloadSettleMs: Type.Integer({ minimum: 0, maximum: 60_000 }),
    /**
     * The largest fixture or scenario file read, in bytes: a larger one is refused before it is
     * read. The default holds a million generated products (174 MB) and fits a machine of a few
     * GB; raise it for more.
     */
    maxFixtureBytes: Type.Integer({ minimum: 1 }),
    /**
     * Keep each large scenario as built (columns and indexes) and read it back at the next start
     * on the same data, spec and stockmock: `true` (a folder of the user's own in the system's
     * temporary folder), a folder, or `false`.
     */
    loadCache: Type.Union([Type.Boolean(), Type.String({ minLength: 1 })]),
    logLevel: Type.Unsafe<'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'>({
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    }),
    /**
     * `pretty`: one readable line per event, for a person at a terminal; `json`: JSON lines, for
     * a program; `auto`: pretty when standard output is a terminal, else JSON.
     */
    logFormat: Type.Unsafe<'auto' | 'json' | 'pretty'>({
      type: 'string',
      enum: ['auto', 'json', 'pretty'],
    }),
  },
  { additionalProperties: false },
);

/**
 * What one layer of the config may set (a config file, the environment, the flags, the
 * options of `startStockmock`): any part of it. The config file's JSON Schema for editors is
 * made from this (config-json-schema.ts).
 */
export const ConfigLayerSchema = Type.Partial(
  Type.Object(
    // Layers merge `compatibility` member by member: each may set any of its settings.
    { ...ConfigSchema.properties, compatibility: Type.Partial(CompatibilitySchema) },
    { additionalProperties: false },
  ),
);

/** The validated, frozen configuration. File paths in it are absolute. */
export type Config = Readonly<Static<typeof ConfigSchema>>;
