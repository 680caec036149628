/**
 * Stateful servers for the writes of the events example, on plain node:http, written apart from
 * the contract checker that will judge them. Read for it, and nothing else: the spec
 * (examples/events/openapi.yaml: its paths, schemas EventCreate, EventPatch, TicketCreate,
 * TicketPatch, the venue create body, and the x-stockmock-collections records), the data
 * (examples/events/events.yaml), the tokens (examples/events/stockmock.config.yaml), the docs
 * (docs/declare-a-resource.md, docs/behaviour.md: problem types for writes, invalid-body 422 where
 * the spec declares it, 415, 409, 507; docs/contract-checker.md: what `--writes` sends),
 * test/contract/events/events-servers.ts (the read-only servers of the same example, whose
 * exported helpers this file imports) and test/helpers/loopback-server.ts (whose listener drops
 * request bodies, so this file listens on its own). docs/writes-and-sessions.md does not exist yet.
 *
 * The reference serves every GET as events-servers.ts's reference does (no `prev_cursor`, as
 * there), over data that writes change: POST /v1/venues, POST /v1/events, PUT/PATCH/DELETE
 * /v1/events/{eventId}, POST /v1/events/{eventId}/tickets and PATCH/DELETE of a ticket. A request
 * with a `stockmock-session: NAME` header sees the loaded data plus that session's writes; one
 * without it, a default state of its own. Each variant plugs one hook into it.
 *
 * Order of checks: path (404), method (405), token (401), Accept (406; not for DELETE), query and
 * path parameters (400), the body's media type (415) and JSON syntax (422), the item or the parent
 * (404), then the body against its schema and the record it makes (422; 409 for a taken slug).
 */
import { randomInt, randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CITIES,
  DEMO_TOKENS,
  EVENT_MATCHERS,
  EVENT_SORTS,
  EVENT_STATUSES,
  SECTIONS,
  STANDARD_CURSORS,
  TICKET_STATUSES,
  byCodePoints,
  compareInstants,
  fail,
  integerIn,
  isEventId,
  isUuid,
  isVenueSlug,
  loadEvents,
  ok,
  standardResume,
  standardTicketView,
  toInstant,
  type EventRecord,
  type EventSort,
  type EventStatus,
  type EventsData,
  type Instant,
  type Json,
  type JsonObject,
  type Level,
  type ParameterError,
  type Parsed,
  type Reply,
  type Ticket,
  type TicketFilters,
  type Tokens,
  type Venue,
} from '../events/events-servers.ts';

export interface WriteServer {
  readonly name: string;
  readonly kind: 'reference' | 'broken' | 'different';
  /** What is broken (and how a client suffers), or what is chosen differently. */
  readonly rule: string;
  /**
   * 'interface': breaks (or, for 'different', chooses within) what the spec or HTTP declares;
   * 'stand-in': departs from a decision of stockmock's own (sessions).
   */
  readonly level: 'interface' | 'stand-in';
  /** Starts it on 127.0.0.1, a free port; `fixtures` replaces examples/events/events.yaml. */
  start(options?: WriteStartOptions): Promise<RunningWriteServer>;
}

export interface WriteStartOptions {
  readonly fixtures?: string;
}

export interface RunningWriteServer {
  readonly url: string;
  readonly tokens: Tokens;
  close(): Promise<void>;
}

/** The request header that names a session. */
export const SESSION_HEADER = 'stockmock-session';

// ---------------------------------------------------------------------------------------------
// Hooks

/** What a variant changes. No hook: the reference. */
export interface WriteOptions {
  /**
   * 'isolated' (the reference): each session its own state, the default one apart;
   * 'none': the header is ignored, one state for every request;
   * 'leak': the header is read, but every named session shares one state (the default apart).
   */
  readonly sessions?: 'isolated' | 'none' | 'leak';
  /** How an event's id is made: random (the reference) or from a counter. */
  readonly eventIds?: 'random' | 'counter';
  /** A 201's Location: absolute (the reference) or relative to the server. */
  readonly location?: 'absolute' | 'relative';
  /** PATCH with plain application/json: read as a merge patch (the reference) or 415. */
  readonly patchAsJson?: 'accept' | 'refuse';
  /** The status of a body that is not valid JSON: 422 (the reference) or 400. */
  readonly malformedStatus?: 400 | 422;
  /** Broken: created events are left out of the events list (and its total). */
  readonly createdListed?: boolean;
  /** Broken: the events list's total counts the loaded events, before any write. */
  readonly totalBeforeWrites?: boolean;
  /** Broken: a deleted event is still found by its id (it leaves the lists). */
  readonly deletedStillFound?: boolean;
  /** Broken: a PATCH refused with 422 has its valid members applied anyway. */
  readonly halfAppliedPatch?: boolean;
  /** Broken: a merge patch's null for an optional member is ignored instead of removing it. */
  readonly nullIgnored?: boolean;
  /** Broken: what a created event stores as its priceFrom (the answer shows the value given). */
  readonly storedPrice?: (priceFrom: number) => number;
}

// ---------------------------------------------------------------------------------------------
// Schemas of the bodies and records (components.schemas, x-stockmock-collections)

/** One fault of a body, by JSON Pointer (RFC 6901). */
interface Fault extends JsonObject {
  readonly pointer: string;
  readonly message: string;
}

type Rule =
  | { readonly type: 'text'; readonly min: number; readonly max: number }
  | { readonly type: 'venue-slug' }
  | { readonly type: 'event-id' }
  | { readonly type: 'uuid' }
  | { readonly type: 'date-time' }
  | {
      readonly type: 'number';
      readonly min: number;
      readonly max: number;
      readonly integer?: boolean;
    }
  | { readonly type: 'enum'; readonly values: readonly string[] };

interface Shape {
  /** Its members, in declared order (the order records are written in). */
  readonly members: Readonly<Record<string, Rule>>;
  readonly required: readonly string[];
  /** Members that may be null (a merge patch's removal). */
  readonly nullable?: readonly string[];
  readonly minProperties?: number;
}

/** The length in code points, as JSON Schema counts minLength and maxLength. */
const codePoints = (text: string): number =>
  text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

const pointerOf = (member: string): string =>
  `/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`;

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ruleFault(rule: Rule, value: unknown): string | undefined {
  switch (rule.type) {
    case 'text': {
      if (typeof value !== 'string') return 'must be a string';
      const length = codePoints(value);
      if (length < rule.min) return `must hold at least ${rule.min} character(s)`;
      if (length > rule.max) return `must hold at most ${rule.max} characters`;
      return undefined;
    }
    case 'venue-slug':
      return typeof value === 'string' && isVenueSlug(value)
        ? undefined
        : 'must be a venue slug (lower-case words and hyphens, at most 40 characters)';
    case 'event-id':
      return typeof value === 'string' && isEventId(value)
        ? undefined
        : 'must be an event id: evt_ and eight lower-case letters or digits';
    case 'uuid':
      return typeof value === 'string' && isUuid(value) ? undefined : 'must be a UUID';
    case 'date-time':
      return typeof value === 'string' && toInstant(value) !== undefined
        ? undefined
        : 'must be an RFC 3339 date-time';
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (rule.integer === true && !Number.isInteger(value)) return 'must be an integer';
      if (value < rule.min) return `must be at least ${rule.min}`;
      if (value > rule.max) return `must be at most ${rule.max}`;
      return undefined;
    }
    case 'enum':
      return typeof value === 'string' && rule.values.includes(value)
        ? undefined
        : `must be one of ${rule.values.join(', ')}`;
  }
}

/** Every fault of a value against a shape (an object, closed: additionalProperties false). */
function faultsOf(value: unknown, shape: Shape): Fault[] {
  if (!isObject(value)) return [{ pointer: '', message: 'must be a JSON object' }];
  const faults: Fault[] = [];
  const present = Object.keys(value);
  if (present.length < (shape.minProperties ?? 0)) {
    faults.push({ pointer: '', message: `must hold at least ${shape.minProperties ?? 0} member` });
  }
  for (const member of shape.required) {
    if (!(member in value)) faults.push({ pointer: pointerOf(member), message: 'is required' });
  }
  for (const member of present) {
    const rule = shape.members[member];
    const memberValue = value[member];
    if (rule === undefined) {
      faults.push({ pointer: pointerOf(member), message: 'is not a member of this schema' });
    } else if (!(memberValue === null && shape.nullable?.includes(member) === true)) {
      const message = ruleFault(rule, memberValue);
      if (message !== undefined) faults.push({ pointer: pointerOf(member), message });
    }
  }
  return faults;
}

const EVENT_MEMBERS = {
  name: { type: 'text', min: 1, max: 120 },
  venueSlug: { type: 'venue-slug' },
  status: { type: 'enum', values: EVENT_STATUSES },
  startsAt: { type: 'date-time' },
  priceFrom: { type: 'number', min: 0, max: 500 },
} as const satisfies Record<string, Rule>;

const TICKET_MEMBERS = {
  section: { type: 'enum', values: SECTIONS },
  price: { type: 'number', min: 0, max: 900 },
  status: { type: 'enum', values: TICKET_STATUSES },
  holderName: { type: 'text', min: 1, max: 80 },
} as const satisfies Record<string, Rule>;

const EVENT_CREATE: Shape = {
  members: EVENT_MEMBERS,
  required: ['name', 'venueSlug', 'startsAt', 'priceFrom'],
};
const EVENT_PATCH: Shape = { members: EVENT_MEMBERS, required: [], minProperties: 1 };
/** x-stockmock-collections.events.record */
const EVENT_RECORD: Shape = {
  members: { id: { type: 'event-id' }, ...EVENT_MEMBERS },
  required: ['id', 'name', 'venueSlug', 'status', 'startsAt', 'priceFrom'],
};
const TICKET_CREATE: Shape = { members: TICKET_MEMBERS, required: ['section', 'price'] };
const TICKET_PATCH: Shape = {
  members: TICKET_MEMBERS,
  required: [],
  nullable: ['holderName'],
  minProperties: 1,
};
/** x-stockmock-collections.tickets.record */
const TICKET_RECORD: Shape = {
  members: { id: { type: 'uuid' }, eventId: { type: 'event-id' }, ...TICKET_MEMBERS },
  required: ['id', 'eventId', 'section', 'price', 'status'],
};
/** createVenue's request body. */
const VENUE_CREATE: Shape = {
  members: {
    slug: { type: 'venue-slug' },
    name: { type: 'text', min: 1, max: 80 },
    city: { type: 'enum', values: CITIES },
    capacity: { type: 'number', min: 50, max: 20000, integer: true },
  },
  required: ['name', 'city', 'capacity'],
};

/** The members of a record in its shape's order (a body's members are all JSON values). */
function recordOf(values: Readonly<Record<string, unknown>>, shape: Shape): JsonObject {
  const record: Record<string, Json> = {};
  for (const member of Object.keys(shape.members)) {
    const value = values[member];
    if (value !== undefined && value !== null) record[member] = value as Json;
  }
  return record;
}

/** RFC 7396 for a flat object: null removes a member, anything else replaces it. */
function mergePatch(
  target: JsonObject,
  patch: Readonly<Record<string, unknown>>,
  shape: Shape,
  ignoreNull: boolean,
): JsonObject {
  const merged: Record<string, unknown> = { ...target };
  for (const [member, value] of Object.entries(patch)) {
    if (value === null) {
      if (!ignoreNull) merged[member] = undefined;
    } else {
      merged[member] = value;
    }
  }
  return recordOf(merged, shape);
}

function textOf(record: JsonObject, member: string): string {
  const value = record[member];
  if (typeof value !== 'string') throw new Error(`${member} is not a string`);
  return value;
}

function numberOf(record: JsonObject, member: string): number {
  const value = record[member];
  if (typeof value !== 'number') throw new Error(`${member} is not a number`);
  return value;
}

function eventOf(record: JsonObject): EventRecord {
  const startsAt = toInstant(textOf(record, 'startsAt'));
  if (startsAt === undefined) throw new Error('startsAt is not a date-time');
  return {
    id: textOf(record, 'id'),
    name: textOf(record, 'name'),
    venueSlug: textOf(record, 'venueSlug'),
    status: textOf(record, 'status') as EventStatus,
    startsAt,
    priceFrom: numberOf(record, 'priceFrom'),
    record,
  };
}

function ticketOf(record: JsonObject): Ticket {
  return {
    id: textOf(record, 'id'),
    eventId: textOf(record, 'eventId'),
    section: textOf(record, 'section') as Ticket['section'],
    status: textOf(record, 'status') as Ticket['status'],
    record,
  };
}

function venueOf(record: JsonObject): Venue {
  return {
    slug: textOf(record, 'slug'),
    city: textOf(record, 'city') as Venue['city'],
    record,
  };
}

// ---------------------------------------------------------------------------------------------
// State

/** One state of the data: the loaded data and the writes of one session (or of none). */
class State {
  readonly venues: Map<string, Venue>;
  readonly events: Map<string, EventRecord>;
  readonly tickets: Map<string, Ticket>;
  /** Every event id this state has had, deleted ones too: never given again. */
  readonly usedEventIds: Set<string>;
  /** The events created here (for a variant that forgets them in the list). */
  readonly created: Set<string>;
  /** Deleted events still found by id (for a variant that keeps them). */
  readonly ghosts: Map<string, EventRecord>;

  constructor(
    venues: Map<string, Venue>,
    events: Map<string, EventRecord>,
    tickets: Map<string, Ticket>,
    usedEventIds: Set<string>,
    created: Set<string>,
    ghosts: Map<string, EventRecord>,
  ) {
    this.venues = venues;
    this.events = events;
    this.tickets = tickets;
    this.usedEventIds = usedEventIds;
    this.created = created;
    this.ghosts = ghosts;
  }

  static of(data: EventsData): State {
    return new State(
      new Map(data.venues.map((venue) => [venue.slug, venue])),
      new Map(data.events.map((event) => [event.id, event])),
      new Map(data.tickets.map((ticket) => [ticket.id, ticket])),
      new Set(data.events.map((event) => event.id)),
      new Set(),
      new Map(),
    );
  }

  /** Records are immutable values: a copy of the maps is a copy of the state. */
  copy(): State {
    return new State(
      new Map(this.venues),
      new Map(this.events),
      new Map(this.tickets),
      new Set(this.usedEventIds),
      new Set(this.created),
      new Map(this.ghosts),
    );
  }

  venueList(): Venue[] {
    return [...this.venues.values()].sort((a, b) => byCodePoints(a.slug, b.slug));
  }
}

/** At most this many sessions hold writes at once (docs/behaviour.md: session-limit, 507). */
const MAX_SESSIONS = 1000;

// ---------------------------------------------------------------------------------------------
// Parameters (as events-servers.ts reads them)

function decodeComponent(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The query read as a form; each declared parameter at most once, an undeclared one refused. */
function queryReader(
  query: string,
  declared: readonly string[],
  errors: ParameterError[],
): (name: string) => string | undefined {
  const values = new Map<string, string>();
  const refused = new Set<string>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    const name = decodeComponent(rawName.replaceAll('+', ' '));
    const value = decodeComponent(
      (equals === -1 ? '' : part.slice(equals + 1)).replaceAll('+', ' '),
    );
    if (name === undefined || value === undefined) {
      errors.push({ parameter: name ?? rawName, in: 'query', message: 'is not valid UTF-8' });
      continue;
    }
    if (refused.has(name)) continue;
    if (!declared.includes(name)) {
      refused.add(name);
      errors.push({
        parameter: name,
        in: 'query',
        message: 'is not a parameter of this operation',
      });
    } else if (values.has(name)) {
      refused.add(name);
      values.delete(name);
      errors.push({ parameter: name, in: 'query', message: 'must be given at most once' });
    } else {
      values.set(name, value);
    }
  }
  return (name) => values.get(name);
}

function numberAtLeast(raw: string, min: number): Parsed<number> {
  if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return fail(`must be a number, not "${raw}"`);
  const value = Number(raw);
  if (!Number.isFinite(value)) return fail('must be a finite number');
  if (value < min) return fail(`must be at least ${min}`);
  return ok(value);
}

function enumValue<T extends string>(values: readonly T[]): (raw: string) => Parsed<T> {
  return (raw) =>
    values.some((value) => value === raw)
      ? ok(raw as T)
      : fail(`must be one of ${values.join(', ')}`);
}

function textIn(min: number, max: number): (raw: string) => Parsed<string> {
  return (raw) => {
    const length = codePoints(raw);
    if (length < min) return fail(`must hold at least ${min} character(s)`);
    if (length > max) return fail(`must hold at most ${max} characters`);
    return ok(raw);
  };
}

function dateTime(raw: string): Parsed<Instant> {
  const instant = toInstant(raw);
  return instant === undefined ? fail('must be an RFC 3339 date-time') : ok(instant);
}

function venueSlug(raw: string): Parsed<string> {
  return isVenueSlug(raw) ? ok(raw) : fail('must be a venue slug (lower-case words and hyphens)');
}

/** The sort orders of listEvents; ties by id, ascending, in either direction. */
function eventOrder(sort: EventSort): (a: EventRecord, b: EventRecord) => number {
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  return (a, b) => {
    const order =
      field === 'startsAt' ? compareInstants(a.startsAt, b.startsAt) : a.priceFrom - b.priceFrom;
    if (order !== 0) return descending ? -order : order;
    return byCodePoints(a.id, b.id);
  };
}

const EVENT_FILTERS = ['status', 'venue', 'starts_after', 'price_max', 'q'] as const;
const EVENTS_PAGE_SIZE = { default: 20, max: 100 };
const EVENTS_PAGE_MAX = 100_000;
const TICKETS_LIMIT = { default: 10, max: 50 };
const MAX_WHOLE_LIST = 10_000;

// ---------------------------------------------------------------------------------------------
// Slugs

const SLUG_MAX = 40;

/** A slug from a name: accents dropped, lower case, each run of other characters one `-`. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'venue' : slug;
}

/** The slug itself when free, else the first free of slug-2, slug-3, …, within 40 characters. */
export function freeSlug(base: string, taken: (slug: string) => boolean): string {
  const cut = (room: number): string => base.slice(0, room).replace(/-+$/, '');
  let candidate = cut(SLUG_MAX);
  for (let n = 2; taken(candidate); n += 1) {
    const suffix = `-${n}`;
    candidate = `${cut(SLUG_MAX - suffix.length)}${suffix}`;
  }
  return candidate;
}

// ---------------------------------------------------------------------------------------------
// Replies

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';
const MERGE_PATCH_TYPE = 'application/merge-patch+json';

const PROBLEMS = {
  'invalid-parameters': [400, 'Invalid parameters'],
  'list-too-long': [400, 'List too long'],
  unauthorized: [401, 'Unauthorized'],
  'not-found': [404, 'Not found'],
  'method-not-allowed': [405, 'Method not allowed'],
  'not-acceptable': [406, 'Not acceptable'],
  conflict: [409, 'Conflict'],
  'content-too-large': [413, 'Content too large'],
  'unsupported-media-type': [415, 'Unsupported media type'],
  'invalid-body': [422, 'Invalid body'],
  'session-limit': [507, 'Session limit'],
  internal: [500, 'Internal error'],
} as const;
type ProblemKind = keyof typeof PROBLEMS;

function problem(
  kind: ProblemKind,
  detail: string,
  extra: JsonObject = {},
  status: number = PROBLEMS[kind][0],
): Reply {
  return {
    status,
    headers: { 'content-type': PROBLEM_TYPE },
    body: {
      type: `urn:problem-type:stockmock:${kind}`,
      title: PROBLEMS[kind][1],
      status,
      detail,
      ...extra,
    },
  };
}

function invalidParameters(errors: readonly ParameterError[]): Reply {
  const detail = errors.map((error) => `${error.parameter} ${error.message}`).join('; ');
  return problem('invalid-parameters', `Invalid parameters: ${detail}.`, { errors });
}

function invalidBody(faults: readonly Fault[], status = 422): Reply {
  const detail = faults.map((fault) => `${fault.pointer || '(the body)'} ${fault.message}`);
  return problem('invalid-body', `Invalid body: ${detail.join('; ')}.`, { errors: faults }, status);
}

function json(body: Json, status = 200, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body };
}

/** RFC 9110 §12.5.1: absent, or a list whose most specific JSON range has a weight above 0. */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let best: { rank: number; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const rank = ['*/*', 'application/*', 'application/json'].indexOf(range.toLowerCase());
    if (rank === -1) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=').map((piece) => piece.trim());
      if (key.toLowerCase() === 'q' && /^[01](\.\d{0,3})?$/.test(value)) q = Number(value);
    }
    if (best === undefined || rank > best.rank) best = { rank, q };
    else if (rank === best.rank) best = { rank, q: Math.max(q, best.q) };
  }
  return best !== undefined && best.q > 0;
}

// ---------------------------------------------------------------------------------------------
// Routes

type Resource = 'venues' | 'venue' | 'events' | 'event' | 'tickets' | 'ticket';

const ROUTES: readonly (readonly [RegExp, Resource, readonly string[]])[] = [
  [/^\/v1\/venues$/, 'venues', ['GET', 'HEAD', 'POST']],
  [/^\/v1\/venues\/([^/]+)$/, 'venue', ['GET', 'HEAD']],
  [/^\/v1\/events$/, 'events', ['GET', 'HEAD', 'POST']],
  [/^\/v1\/events\/([^/]+)$/, 'event', ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']],
  [/^\/v1\/events\/([^/]+)\/tickets$/, 'tickets', ['GET', 'HEAD', 'POST']],
  [/^\/v1\/events\/([^/]+)\/tickets\/([^/]+)$/, 'ticket', ['GET', 'HEAD', 'PATCH', 'DELETE']],
];

interface Route {
  readonly resource: Resource;
  readonly methods: readonly string[];
  readonly segments: readonly string[];
}

/** A trailing slash names the same resource (docs/behaviour.md, Surface). */
function routeOf(path: string): Route | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  for (const [pattern, resource, methods] of ROUTES) {
    const match = pattern.exec(trimmed);
    if (match !== null) return { resource, methods, segments: match.slice(1) };
  }
  return undefined;
}

const allowOf = (methods: readonly string[]): string => [...methods, 'OPTIONS'].join(', ');

function preflight(request: IncomingMessage, allow: string): Reply {
  const requested = request.headers['access-control-request-method'];
  if (request.headers.origin === undefined || requested === undefined) {
    return { status: 204, headers: { allow } };
  }
  return {
    status: 204,
    headers: {
      allow,
      'access-control-allow-methods': allow,
      'access-control-allow-headers':
        request.headers['access-control-request-headers'] ??
        `Authorization, Content-Type, ${SESSION_HEADER}`,
      'access-control-max-age': '600',
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The service

interface Context {
  readonly request: IncomingMessage;
  readonly body: Buffer;
  readonly level: Level;
  readonly segments: readonly string[];
  readonly query: string;
  readonly origin: string;
}

type Body =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reply: Reply };

type PatchResult =
  | { readonly ok: true; readonly record: JsonObject }
  | { readonly ok: false; readonly reply: Reply; readonly partial?: JsonObject };

const EVENT_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

class WriteService {
  readonly tokens: Tokens = DEMO_TOKENS;
  private readonly options: WriteOptions;
  /** The loaded data: never written. */
  private readonly loaded: State;
  /** Requests without a session header. */
  private readonly unnamed: State;
  /** Named sessions that wrote (a session that never wrote reads the loaded data). */
  private readonly sessions = new Map<string, State>();
  private counter = 0;

  constructor(options: WriteOptions, fixtures: string | undefined) {
    this.options = options;
    this.loaded = State.of(loadEvents(fixtures));
    this.unnamed = this.loaded.copy();
  }

  answer(request: IncomingMessage, body: Buffer, origin: string): Reply {
    let reply: Reply;
    try {
      reply = this.handle(request, body, origin);
    } catch (error) {
      reply = problem('internal', `Unexpected error: ${String(error)}`);
    }
    if (request.headers.origin === undefined) return reply;
    return {
      ...reply,
      headers: {
        ...reply.headers,
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'Link, Location, WWW-Authenticate, Allow',
      },
    };
  }

  private handle(request: IncomingMessage, body: Buffer, origin: string): Reply {
    const target = request.url ?? '/';
    const mark = target.indexOf('?');
    const path = mark === -1 ? target : target.slice(0, mark);
    const query = mark === -1 ? '' : target.slice(mark + 1);
    const route = routeOf(path);
    if (route === undefined) return problem('not-found', `Nothing is served at ${path}.`);
    const method = request.method ?? 'GET';
    const allow = allowOf(route.methods);
    if (method === 'OPTIONS') return preflight(request, allow);
    if (!route.methods.includes(method)) {
      const reply = problem('method-not-allowed', `${path} answers ${allow}, not ${method}.`);
      return { ...reply, headers: { ...reply.headers, allow } };
    }
    const level = this.authenticate(request.headers.authorization);
    if (typeof level !== 'string') return level;
    if (method !== 'DELETE' && !acceptsJson(request.headers.accept)) {
      return problem('not-acceptable', 'Answers are application/json; Accept excludes it.');
    }
    const context: Context = { request, body, level, segments: route.segments, query, origin };
    const read = method === 'GET' || method === 'HEAD';
    switch (route.resource) {
      case 'venues':
        return read ? this.listVenues(context) : this.createVenue(context);
      case 'venue':
        return this.getVenue(context);
      case 'events':
        return read ? this.listEvents(context) : this.createEvent(context);
      case 'event':
        if (read) return this.getEvent(context);
        if (method === 'PUT') return this.replaceEvent(context);
        if (method === 'PATCH') return this.patchEvent(context);
        return this.deleteEvent(context);
      case 'tickets':
        return read ? this.listTickets(context) : this.createTicket(context);
      case 'ticket':
        if (read) return this.getTicket(context);
        if (method === 'PATCH') return this.patchTicket(context);
        return this.deleteTicket(context);
    }
  }

  /** RFC 6750 §2.1, the scheme in any case; another scheme counts as no token. */
  private authenticate(authorization: string | undefined): Level | Reply {
    const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization ?? '');
    const token = match?.[1]?.toLowerCase() === 'bearer' ? match[2] : undefined;
    if (token === this.tokens.organizer) return 'organizer';
    if (token === this.tokens.public) return 'public';
    const reply =
      token === undefined
        ? problem('unauthorized', 'Send a bearer token: Authorization: Bearer <token>.')
        : problem('unauthorized', 'The bearer token is not one this service knows.');
    const challenge = `Bearer realm="stockmock"${token === undefined ? '' : ', error="invalid_token"'}`;
    return { ...reply, headers: { ...reply.headers, 'www-authenticate': challenge } };
  }

  // -- States

  private sessionOf(request: IncomingMessage): string | undefined {
    if ((this.options.sessions ?? 'isolated') === 'none') return undefined;
    const header = request.headers[SESSION_HEADER];
    const name = (Array.isArray(header) ? header.join(', ') : (header ?? '')).trim();
    return name === '' ? undefined : name;
  }

  /** The state a request reads. */
  private reading(context: Context): State {
    const session = this.sessionOf(context.request);
    if (session === undefined) return this.unnamed;
    const key = this.options.sessions === 'leak' ? '' : session;
    return this.sessions.get(key) ?? this.loaded;
  }

  /** The state a request writes (a session's own, made on its first write). */
  private writing(context: Context): State | Reply {
    const session = this.sessionOf(context.request);
    if (session === undefined) return this.unnamed;
    const key = this.options.sessions === 'leak' ? '' : session;
    const known = this.sessions.get(key);
    if (known !== undefined) return known;
    if (this.sessions.size >= MAX_SESSIONS) {
      return problem(
        'session-limit',
        `At most ${MAX_SESSIONS} sessions hold writes at once; restart the server to free them.`,
      );
    }
    const state = this.loaded.copy();
    this.sessions.set(key, state);
    return state;
  }

  // -- Requests

  private pathParameter(
    context: Context,
    index: number,
    name: string,
    valid: (text: string) => boolean,
    message: string,
    errors: ParameterError[],
  ): string | undefined {
    const decoded = decodeComponent(context.segments[index] ?? '');
    if (decoded !== undefined && valid(decoded)) return decoded;
    errors.push({ parameter: name, in: 'path', message });
    return undefined;
  }

  private eventIdOf(context: Context, errors: ParameterError[]): string | undefined {
    return this.pathParameter(
      context,
      0,
      'eventId',
      isEventId,
      'must be an event id: evt_ and eight lower-case letters or digits',
      errors,
    );
  }

  private ticketIdOf(context: Context, errors: ParameterError[]): string | undefined {
    return this.pathParameter(context, 1, 'ticketId', isUuid, 'must be a UUID', errors);
  }

  private read<T>(
    raw: (name: string) => string | undefined,
    name: string,
    parseValue: (text: string) => Parsed<T>,
    errors: ParameterError[],
  ): T | undefined {
    const text = raw(name);
    if (text === undefined) return undefined;
    const parsed = parseValue(text);
    if (parsed.ok) return parsed.value;
    errors.push({ parameter: name, in: 'query', message: parsed.message });
    return undefined;
  }

  /** The body as JSON, of one of the media types given; 415 for another, 422 when not JSON. */
  private bodyOf(context: Context, types: readonly string[]): Body {
    const header = context.request.headers['content-type'];
    const given = (header ?? '').trim();
    if (given === '') {
      if (context.body.length === 0) {
        return {
          ok: false,
          reply: invalidBody([{ pointer: '', message: `is required (${types.join(' or ')})` }]),
        };
      }
      return {
        ok: false,
        reply: problem(
          'unsupported-media-type',
          `The body has no Content-Type; this operation takes ${types.join(' or ')}.`,
        ),
      };
    }
    const [essence = '', ...parameters] = given.split(';').map((piece) => piece.trim());
    const charset = parameters
      .map((parameter) => /^charset\s*=\s*"?([^"]*)"?$/i.exec(parameter)?.[1])
      .find((value) => value !== undefined);
    if (
      !types.includes(essence.toLowerCase()) ||
      (charset !== undefined && !/^utf-?8$/i.test(charset))
    ) {
      return {
        ok: false,
        reply: problem(
          'unsupported-media-type',
          `The body is ${given}; this operation takes ${types.join(' or ')} (UTF-8).`,
        ),
      };
    }
    const status = this.options.malformedStatus ?? 422;
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(context.body);
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        reply: invalidBody([{ pointer: '', message: `is not valid JSON: ${reason}` }], status),
      };
    }
  }

  private location(context: Context, path: string): string {
    return this.options.location === 'relative' ? path : `${context.origin}${path}`;
  }

  private newEventId(state: State): string {
    for (;;) {
      let id: string;
      if (this.options.eventIds === 'counter') {
        this.counter += 1;
        id = `evt_${this.counter.toString(36).padStart(8, '0')}`;
      } else {
        id = 'evt_';
        for (let i = 0; i < 8; i += 1) id += EVENT_ID_ALPHABET[randomInt(36)] ?? 'a';
      }
      if (!state.usedEventIds.has(id)) return id;
    }
  }

  // -- Venues

  private listVenues(context: Context): Reply {
    const errors: ParameterError[] = [];
    const raw = queryReader(context.query, ['city'], errors);
    const city = this.read(raw, 'city', enumValue(CITIES), errors);
    if (errors.length > 0) return invalidParameters(errors);
    const kept = this.reading(context)
      .venueList()
      .filter((venue) => city === undefined || venue.city === city);
    if (kept.length > MAX_WHOLE_LIST) {
      return problem(
        'list-too-long',
        `The list would hold ${kept.length} venues, more than ${MAX_WHOLE_LIST}: filter it.`,
        { total: kept.length },
      );
    }
    const self = `${context.origin}/v1/venues${city === undefined ? '' : `?city=${encodeURIComponent(city)}`}`;
    return json(
      kept.map((venue) => venue.record),
      200,
      { link: `<${self}>; rel="first", <${self}>; rel="last"` },
    );
  }

  private getVenue(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const slug = this.pathParameter(
      context,
      0,
      'venueSlug',
      isVenueSlug,
      'must be a venue slug (lower-case words and hyphens, at most 40 characters)',
      errors,
    );
    if (errors.length > 0 || slug === undefined) return invalidParameters(errors);
    const venue = this.reading(context).venues.get(slug);
    if (venue === undefined) return problem('not-found', `No venue has the slug ${slug}.`);
    return json(venue.record);
  }

  private createVenue(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    if (errors.length > 0) return invalidParameters(errors);
    const body = this.bodyOf(context, [JSON_TYPE]);
    if (!body.ok) return body.reply;
    const faults = faultsOf(body.value, VENUE_CREATE);
    if (faults.length > 0 || !isObject(body.value)) return invalidBody(faults);
    const state = this.writing(context);
    if (!(state instanceof State)) return state;
    const given = body.value['slug'];
    let slug: string;
    if (typeof given === 'string') {
      if (state.venues.has(given)) {
        return problem('conflict', `A venue has the slug ${given} already.`);
      }
      slug = given;
    } else {
      const name = body.value['name'];
      slug = freeSlug(slugFromName(typeof name === 'string' ? name : ''), (candidate) =>
        state.venues.has(candidate),
      );
    }
    const record = recordOf({ ...body.value, slug }, VENUE_CREATE);
    state.venues.set(slug, venueOf(record));
    return json(record, 201, { location: this.location(context, `/v1/venues/${slug}`) });
  }

  // -- Events

  private listEvents(context: Context): Reply {
    const errors: ParameterError[] = [];
    const raw = queryReader(context.query, [...EVENT_FILTERS, 'sort', 'page', 'pageSize'], errors);
    const filters: Record<string, unknown> = {
      status: this.read(raw, 'status', enumValue(EVENT_STATUSES), errors),
      venue: this.read(raw, 'venue', venueSlug, errors),
      starts_after: this.read(raw, 'starts_after', dateTime, errors),
      price_max: this.read(raw, 'price_max', (text) => numberAtLeast(text, 0), errors),
      q: this.read(raw, 'q', textIn(1, 120), errors),
    };
    const sort = this.read(raw, 'sort', enumValue(EVENT_SORTS), errors) ?? 'startsAt';
    const page = this.read(raw, 'page', (text) => integerIn(text, 1, EVENTS_PAGE_MAX), errors) ?? 1;
    const pageSize =
      this.read(raw, 'pageSize', (text) => integerIn(text, 1, EVENTS_PAGE_SIZE.max), errors) ??
      EVENTS_PAGE_SIZE.default;
    if (errors.length > 0) return invalidParameters(errors);
    const matchers = EVENT_MATCHERS as unknown as Record<
      string,
      (event: EventRecord, value: unknown) => boolean
    >;
    const matches = (event: EventRecord): boolean =>
      EVENT_FILTERS.every((name) => {
        const value = filters[name];
        return value === undefined || matchers[name]?.(event, value) === true;
      });
    const state = this.reading(context);
    const listed = [...state.events.values()].filter(
      (event) => this.options.createdListed !== false || !state.created.has(event.id),
    );
    const matching = listed.filter(matches);
    const ordered = matching.sort(eventOrder(sort));
    const start = (page - 1) * pageSize;
    const items = ordered.slice(start, start + pageSize).map((event) => event.record);
    const total =
      this.options.totalBeforeWrites === true
        ? [...this.loaded.events.values()].filter(matches).length
        : matching.length;
    return json({ items, total, page, pageSize });
  }

  private getEvent(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const id = this.eventIdOf(context, errors);
    if (errors.length > 0 || id === undefined) return invalidParameters(errors);
    const state = this.reading(context);
    const event = state.events.get(id) ?? state.ghosts.get(id);
    if (event === undefined) return problem('not-found', `No event has the id ${id}.`);
    return json(event.record);
  }

  private createEvent(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    if (errors.length > 0) return invalidParameters(errors);
    const body = this.bodyOf(context, [JSON_TYPE]);
    if (!body.ok) return body.reply;
    const faults = faultsOf(body.value, EVENT_CREATE);
    if (faults.length > 0 || !isObject(body.value)) return invalidBody(faults);
    const state = this.writing(context);
    if (!(state instanceof State)) return state;
    const id = this.newEventId(state);
    const record = recordOf({ status: 'scheduled', ...body.value, id }, EVENT_RECORD);
    const stored =
      this.options.storedPrice === undefined
        ? record
        : { ...record, priceFrom: this.options.storedPrice(numberOf(record, 'priceFrom')) };
    state.events.set(id, eventOf(stored));
    state.usedEventIds.add(id);
    state.created.add(id);
    return json(record, 201, { location: this.location(context, `/v1/events/${id}`) });
  }

  private replaceEvent(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const id = this.eventIdOf(context, errors);
    if (errors.length > 0 || id === undefined) return invalidParameters(errors);
    const body = this.bodyOf(context, [JSON_TYPE]);
    if (!body.ok) return body.reply;
    const state = this.writing(context);
    if (!(state instanceof State)) return state;
    if (!state.events.has(id)) return problem('not-found', `No event has the id ${id}.`);
    const faults = faultsOf(body.value, EVENT_CREATE);
    if (faults.length > 0 || !isObject(body.value)) return invalidBody(faults);
    const record = recordOf({ status: 'scheduled', ...body.value, id }, EVENT_RECORD);
    state.events.set(id, eventOf(record));
    return json(record);
  }

  private patchTypes(): readonly string[] {
    return this.options.patchAsJson === 'refuse'
      ? [MERGE_PATCH_TYPE]
      : [MERGE_PATCH_TYPE, JSON_TYPE];
  }

  /**
   * A merge patch of a record: the patch held to its schema, the merged record to the record's;
   * on a fault nothing changes, but for the half-applying variant, which keeps the valid members.
   */
  private patched(
    existing: JsonObject,
    patch: unknown,
    patchShape: Shape,
    recordShape: Shape,
  ): PatchResult {
    const ignoreNull = this.options.nullIgnored === true;
    const faults = faultsOf(patch, patchShape);
    if (faults.length === 0 && isObject(patch)) {
      const merged = mergePatch(existing, patch, recordShape, ignoreNull);
      const recordFaults = faultsOf(merged, recordShape);
      return recordFaults.length === 0
        ? { ok: true, record: merged }
        : { ok: false, reply: invalidBody(recordFaults) };
    }
    const reply = invalidBody(faults);
    if (this.options.halfAppliedPatch !== true || !isObject(patch)) return { ok: false, reply };
    const valid = Object.fromEntries(
      Object.entries(patch).filter(
        ([member, value]) =>
          faultsOf({ [member]: value }, { ...patchShape, minProperties: 0 }).length === 0,
      ),
    );
    const merged = mergePatch(existing, valid, recordShape, ignoreNull);
    const applies = Object.keys(valid).length > 0 && faultsOf(merged, recordShape).length === 0;
    return applies ? { ok: false, reply, partial: merged } : { ok: false, reply };
  }

  private patchEvent(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const id = this.eventIdOf(context, errors);
    if (errors.length > 0 || id === undefined) return invalidParameters(errors);
    const body = this.bodyOf(context, this.patchTypes());
    if (!body.ok) return body.reply;
    const state = this.writing(context);
    if (!(state instanceof State)) return state;
    const existing = state.events.get(id);
    if (existing === undefined) return problem('not-found', `No event has the id ${id}.`);
    const result = this.patched(existing.record, body.value, EVENT_PATCH, EVENT_RECORD);
    if (!result.ok) {
      if (result.partial !== undefined) state.events.set(id, eventOf(result.partial));
      return result.reply;
    }
    state.events.set(id, eventOf(result.record));
    return json(result.record);
  }

  private deleteEvent(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const id = this.eventIdOf(context, errors);
    if (errors.length > 0 || id === undefined) return invalidParameters(errors);
    const state = this.writing(context);
    if (!(state instanceof State)) return state;
    const event = state.events.get(id);
    if (event === undefined) return problem('not-found', `No event has the id ${id}.`);
    state.events.delete(id);
    state.created.delete(id);
    if (this.options.deletedStillFound === true) state.ghosts.set(id, event);
    // Its tickets go with it: nothing can reach them under an event that is gone.
    for (const ticket of [...state.tickets.values()]) {
      if (ticket.eventId === id) state.tickets.delete(ticket.id);
    }
    return { status: 204, headers: {} };
  }

  // -- Tickets

  private listTickets(context: Context): Reply {
    const errors: ParameterError[] = [];
    const raw = queryReader(context.query, ['status', 'section', 'cursor', 'limit'], errors);
    const eventId = this.eventIdOf(context, errors);
    const status = this.read(raw, 'status', enumValue(TICKET_STATUSES), errors);
    const section = this.read(raw, 'section', enumValue(SECTIONS), errors);
    const cursor = this.read(raw, 'cursor', textIn(1, 200), errors);
    const limit =
      this.read(raw, 'limit', (text) => integerIn(text, 1, TICKETS_LIMIT.max), errors) ??
      TICKETS_LIMIT.default;
    const filters: TicketFilters = {
      ...(status === undefined ? {} : { status }),
      ...(section === undefined ? {} : { section }),
    };
    const state = this.reading(context);
    let after: string | null = null;
    if (cursor !== undefined && eventId !== undefined) {
      const holds = (ticketId: string): boolean => state.tickets.get(ticketId)?.eventId === eventId;
      const decoded = STANDARD_CURSORS.decode(cursor, { eventId, ...filters, holds });
      if (decoded.ok) after = decoded.value;
      else errors.push({ parameter: 'cursor', in: 'query', message: decoded.message });
    }
    if (errors.length > 0 || eventId === undefined) return invalidParameters(errors);
    if (!state.events.has(eventId)) return problem('not-found', `No event has the id ${eventId}.`);
    const matching = [...state.tickets.values()]
      .filter(
        (ticket) =>
          ticket.eventId === eventId &&
          (status === undefined || ticket.status === status) &&
          (section === undefined || ticket.section === section),
      )
      .sort((a, b) => byCodePoints(a.id, b.id));
    const ids = matching.map((ticket) => ticket.id);
    const start = cursor === undefined ? 0 : standardResume(ids, after);
    const page = matching.slice(start, start + limit);
    const more = start + limit < matching.length;
    const last = page.at(-1)?.id;
    const next =
      more && last !== undefined
        ? STANDARD_CURSORS.encode({ eventId, ...filters, after: last })
        : null;
    return json({
      data: page.map((ticket) => standardTicketView(ticket, context.level)),
      next_cursor: next,
      has_more: more,
    });
  }

  private getTicket(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const eventId = this.eventIdOf(context, errors);
    const ticketId = this.ticketIdOf(context, errors);
    if (errors.length > 0 || eventId === undefined || ticketId === undefined) {
      return invalidParameters(errors);
    }
    const state = this.reading(context);
    if (!state.events.has(eventId)) return problem('not-found', `No event has the id ${eventId}.`);
    const ticket = state.tickets.get(ticketId);
    if (ticket?.eventId !== eventId) {
      return problem('not-found', `Event ${eventId} has no ticket ${ticketId}.`);
    }
    return json(standardTicketView(ticket, context.level));
  }

  private createTicket(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const eventId = this.eventIdOf(context, errors);
    if (errors.length > 0 || eventId === undefined) return invalidParameters(errors);
    const body = this.bodyOf(context, [JSON_TYPE]);
    if (!body.ok) return body.reply;
    const state = this.writing(context);
    if (!(state instanceof State)) return state;
    if (!state.events.has(eventId)) return problem('not-found', `No event has the id ${eventId}.`);
    const faults = faultsOf(body.value, TICKET_CREATE);
    if (faults.length > 0 || !isObject(body.value)) return invalidBody(faults);
    let id = randomUUID();
    while (state.tickets.has(id)) id = randomUUID();
    const record = recordOf({ status: 'available', ...body.value, id, eventId }, TICKET_RECORD);
    const ticket = ticketOf(record);
    state.tickets.set(id, ticket);
    return json(standardTicketView(ticket, context.level), 201, {
      location: this.location(context, `/v1/events/${eventId}/tickets/${id}`),
    });
  }

  private patchTicket(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const eventId = this.eventIdOf(context, errors);
    const ticketId = this.ticketIdOf(context, errors);
    if (errors.length > 0 || eventId === undefined || ticketId === undefined) {
      return invalidParameters(errors);
    }
    const body = this.bodyOf(context, this.patchTypes());
    if (!body.ok) return body.reply;
    const state = this.writing(context);
    if (!(state instanceof State)) return state;
    if (!state.events.has(eventId)) return problem('not-found', `No event has the id ${eventId}.`);
    const existing = state.tickets.get(ticketId);
    if (existing?.eventId !== eventId) {
      return problem('not-found', `Event ${eventId} has no ticket ${ticketId}.`);
    }
    const result = this.patched(existing.record, body.value, TICKET_PATCH, TICKET_RECORD);
    if (!result.ok) {
      if (result.partial !== undefined) state.tickets.set(ticketId, ticketOf(result.partial));
      return result.reply;
    }
    const ticket = ticketOf(result.record);
    state.tickets.set(ticketId, ticket);
    return json(standardTicketView(ticket, context.level));
  }

  private deleteTicket(context: Context): Reply {
    const errors: ParameterError[] = [];
    queryReader(context.query, [], errors);
    const eventId = this.eventIdOf(context, errors);
    const ticketId = this.ticketIdOf(context, errors);
    if (errors.length > 0 || eventId === undefined || ticketId === undefined) {
      return invalidParameters(errors);
    }
    const state = this.writing(context);
    if (!(state instanceof State)) return state;
    if (!state.events.has(eventId)) return problem('not-found', `No event has the id ${eventId}.`);
    if (state.tickets.get(ticketId)?.eventId !== eventId) {
      return problem('not-found', `Event ${eventId} has no ticket ${ticketId}.`);
    }
    state.tickets.delete(ticketId);
    return { status: 204, headers: {} };
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

/** The largest request body read (docs/behaviour.md: content-too-large). */
const MAX_BODY = 1024 * 1024;

/** The request's own scheme and host (a malformed Host falls back to the socket's). */
function originOf(request: IncomingMessage): string {
  const host = request.headers.host;
  if (
    host !== undefined &&
    /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
  ) {
    return `http://${host}`;
  }
  const address = request.socket.localAddress ?? '127.0.0.1';
  const port = request.socket.localPort ?? 80;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

function send(request: IncomingMessage, response: ServerResponse, reply: Reply): void {
  const payload = reply.body === undefined ? undefined : JSON.stringify(reply.body);
  const headers: OutgoingHttpHeaders = { ...reply.headers };
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  response.writeHead(reply.status, headers);
  // HEAD: the status and headers of GET, no body (RFC 9110 §9.3.2).
  response.end(request.method === 'HEAD' ? undefined : payload);
}

/**
 * test/helpers/loopback-server.ts's listener, but handing over the request's body (that one
 * drops it): 127.0.0.1, a free port; `close` drops kept-alive connections too.
 */
async function listenWithBodies(
  handle: (request: IncomingMessage, body: Buffer, response: ServerResponse) => void,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => {
      if (tooLarge) {
        const reply = problem('content-too-large', `A body holds at most ${MAX_BODY} bytes.`);
        send(request, response, { ...reply, headers: { ...reply.headers, connection: 'close' } });
        return;
      }
      handle(request, Buffer.concat(chunks), response);
    });
    request.on('error', () => {
      response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}

/** Starts a write server on 127.0.0.1, on a free port, from the loaded data. */
export async function startWriteServer(
  options: WriteOptions = {},
  start: WriteStartOptions = {},
): Promise<RunningWriteServer> {
  const service = new WriteService(options, start.fixtures);
  const listening = await listenWithBodies((request, body, response) => {
    send(request, response, service.answer(request, body, originOf(request)));
  });
  return { url: listening.url, tokens: service.tokens, close: () => listening.close() };
}

// ---------------------------------------------------------------------------------------------
// The reference and its variants

function server(
  name: string,
  kind: WriteServer['kind'],
  level: WriteServer['level'],
  rule: string,
  options: WriteOptions = {},
): WriteServer {
  return { name, kind, level, rule, start: (start) => startWriteServer(options, start) };
}

export const WRITE_REFERENCE: WriteServer = server(
  'reference',
  'reference',
  'interface',
  'examples/events/openapi.yaml, its writes and the x-stockmock declarations of its GETs, over ' +
    'events.yaml: every write is seen by every later read (items, lists, filters, sort, totals, ' +
    'cursors); POST /v1/events 201 with a random evt_ id and an absolute Location, status ' +
    'scheduled unless given; PUT replaces (status back to scheduled unless given); PATCH is a ' +
    'merge patch (application/merge-patch+json, or application/json) whose merged record is held ' +
    'to the collection record; DELETE 204, its tickets with it; venues slugged from the name ' +
    '(-2, -3… when taken), a given slug that exists 409; tickets a new UUID, status available ' +
    'unless given; 415 for a body not JSON, 422 invalid-body (errors by JSON Pointer) for a ' +
    'malformed or refused one, nothing changed; stockmock-session: NAME sees the loaded data and ' +
    'that session’s writes, requests without it a state of their own',
);

const WRITES_SEEN = 'a write is seen by every later read (items, lists, totals)';

/** Each breaks one rule, and nothing else. */
const BROKEN: readonly WriteServer[] = [
  server(
    'created event missing from the list',
    'broken',
    'interface',
    `${WRITES_SEEN}: an event created by POST /v1/events answers 201 and is found by its id, but ` +
      'GET /v1/events never lists it (nor counts it in total), whatever the filters or page, so ' +
      'a client that creates an event and reloads the list does not see it',
    { createdListed: false },
  ),
  server(
    'events total counted before the writes',
    'broken',
    'interface',
    `${WRITES_SEEN}; listEvents total is "the number of records the filters keep over all ` +
      'pages": total is counted over the loaded events (the fixture’s 40, or what the filters ' +
      'keep of them), while items hold the events as written, so after a create total says 40 ' +
      'over 41 events and a client paging by total never asks for the last one (after a delete, ' +
      'it asks for a page that is not there)',
    { totalBeforeWrites: true },
  ),
  server(
    'deleted event still found by id',
    'broken',
    'interface',
    'deleteEvent 204 "Deleted.": the event leaves the lists (and its tickets go), but ' +
      'GET /v1/events/{id} still answers 200 with it instead of 404, so a client that deleted it ' +
      'and reads it back believes the delete failed, or shows an event that is gone',
    { deletedStillFound: true },
  ),
  server(
    'invalid PATCH half-applied',
    'broken',
    'interface',
    'updateEvent and updateEventTicket 422 (nothing changes on a refused request): a merge patch ' +
      'refused with 422 (a member its schema refuses, e.g. {"priceFrom": -1} or {"name": null}, or ' +
      'one it does not declare) still has its valid members applied, so {"name": "New", ' +
      '"priceFrom": -1} answers 422 yet the name is changed: a client that retries or corrects ' +
      'the patch works on a record it believes unchanged (a patch with no valid member changes ' +
      'nothing, as the reference)',
    { halfAppliedPatch: true },
  ),
  server(
    'sessions leak into each other',
    'broken',
    'stand-in',
    'sessions (stockmock-session: NAME sees the loaded data and its own writes only): the header ' +
      'is read, so a write in a session is not seen without the header, but every named session ' +
      'shares one state, so a write in session A is seen in session B: two test runs side by ' +
      'side, each in its own session, see each other’s events and fail by turns',
    { sessions: 'leak' },
  ),
  server(
    'merge patch null ignored',
    'broken',
    'interface',
    'updateEventTicket (JSON Merge Patch, RFC 7396 §2: null removes the member; the spec: "a null ' +
      'holderName clears it", TicketPatch holderName [string, null]): {"holderName": null} answers ' +
      '200 but the ticket keeps its holderName, in the answer and when read back, so a client ' +
      'releasing a ticket leaves it in the former holder’s name',
    { nullIgnored: true },
  ),
  server(
    'created event stored with a rounded price',
    'broken',
    'interface',
    'createEvent 201 "The event created": the answer shows the body’s priceFrom (e.g. 12.5), but ' +
      'the event stored, read back by id or in the list (and filtered by price_max), has it ' +
      'rounded to an integer (13), so a client that trusts the 201 shows one price and the ' +
      'service charges another',
    { storedPrice: (price) => Math.round(price) },
  ),
];

/** Correct services that decide otherwise where the spec (or stockmock’s docs) leave room. */
const DIFFERENT: readonly WriteServer[] = [
  server(
    'no sessions',
    'different',
    'stand-in',
    'sessions are the stand-in’s, not the interface’s: here the stockmock-session header is ' +
      'ignored and every request shares one state, as a real service keeps one',
    { sessions: 'none' },
  ),
  server(
    'event ids from a counter',
    'different',
    'interface',
    'createEvent "its id is assigned" (EventId ^evt_[a-z0-9]{8}$): here evt_ and a base-36 ' +
      'counter padded to 8 characters (evt_00000001, evt_00000002, …), never one taken, instead ' +
      'of 8 random characters',
    { eventIds: 'counter' },
  ),
  server(
    'relative Location',
    'different',
    'interface',
    'Location (RFC 9110 §10.2.2: a URI reference, resolved against the request): here relative, ' +
      '/v1/events/evt_… (and /v1/venues/…, /v1/events/…/tickets/…), not absolute; PATCH takes ' +
      'application/json as well as application/merge-patch+json and answers both the same (as ' +
      'the reference)',
    { location: 'relative' },
  ),
  server(
    'PATCH takes merge-patch only',
    'different',
    'interface',
    'updateEvent and updateEventTicket declare application/merge-patch+json only: here a PATCH ' +
      'with plain application/json is 415 (the reference reads it as a merge patch too)',
    { patchAsJson: 'refuse' },
  ),
  server(
    'malformed JSON is 400',
    'different',
    'interface',
    'a body that is not valid JSON is a client error the spec does not name: here 400 ' +
      '(invalid-body) instead of the 422 the reference gives',
    { malformedStatus: 400 },
  ),
];

export const WRITE_VARIANTS: readonly WriteServer[] = [...BROKEN, ...DIFFERENT];
export const WRITE_SERVERS: readonly WriteServer[] = [WRITE_REFERENCE, ...WRITE_VARIANTS];
