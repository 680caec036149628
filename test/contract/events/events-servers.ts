/**
 * Servers for the events example (examples/events/openapi.yaml), written from the spec, its
 * `x-stockmock` declarations, events.yaml and the docs (declare-a-resource: Paging, Nested lists,
 * A service's own shapes; behaviour; PRODUCT.md) alone, on plain node:http. One service answers
 * as the reference; each variant plugs one hook into it, so that it differs from the reference in
 * one thing.
 *
 * The reference: venues as one bare array (filter `city`, slug order, no paging, a `Link` header
 * naming the list itself as first and last); events by `page` and `pageSize` in an
 * `{items, total, page, pageSize}` envelope, five filters and a `sort` (default `startsAt`, ties
 * by id); each event's tickets as a nested list in id order, paged by an opaque cursor that names
 * the last ticket its page gave and the list it belongs to (event, filters), in a
 * `{data, next_cursor, has_more}` envelope, ending exactly (`has_more: false` and
 * `next_cursor: null` on the page that holds the last ticket). Items are bare records; tickets
 * through each level's view. Errors are RFC 9457 problems with stockmock's problem types.
 */
import { readFileSync } from 'node:fs';
import {
  STATUS_CODES,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { listenOnLoopback } from '../../helpers/loopback-server.ts';

export interface EventsServer {
  readonly name: string;
  readonly kind: 'reference' | 'broken' | 'different';
  /** The rule broken (and how a client suffers), or the choice made, with its source. */
  readonly rule: string;
  /**
   * 'interface': breaks (or, for 'different', chooses within) what the spec or HTTP declares;
   * 'stand-in': departs from a decision of stockmock's docs only.
   */
  readonly level: 'interface' | 'stand-in';
  /** Starts it on 127.0.0.1, a free port; `fixtures` replaces examples/events/events.yaml. */
  start(options?: StartOptions): Promise<RunningEventsServer>;
}

export interface StartOptions {
  /** A fixture file shaped as events.yaml (venues, events, tickets). */
  readonly fixtures?: string;
}

export interface Tokens {
  readonly organizer: string;
  readonly public: string;
}

export type Level = keyof Tokens;

export interface RunningEventsServer {
  readonly url: string;
  readonly tokens: Tokens;
  close(): Promise<void>;
}

export type Json = null | boolean | number | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

// ---------------------------------------------------------------------------------------------
// Values

/** An instant: seconds since the epoch and the fraction's digits (no trailing zeros). */
export interface Instant {
  readonly seconds: number;
  readonly fraction: string;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** RFC 3339 §5.6 date-time, to an instant; undefined when it is not one. */
export function toInstant(text: string): Instant | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const number = (i: number): number => Number(match[i] ?? '0');
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map(number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) return undefined;
  if (date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 60) return undefined;
  let offset = 0;
  if (match[8] === undefined) {
    const hours = number(10);
    const minutes = number(11);
    if (hours > 23 || minutes > 59) return undefined;
    offset = (match[9] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60;
  }
  const seconds = date.getTime() / 1000 + hour * 3600 + minute * 60 + second - offset;
  return { seconds, fraction: (match[7] ?? '').slice(1).replace(/0+$/, '') };
}

export function compareInstants(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const x = a.fraction.padEnd(width, '0');
  const y = b.fraction.padEnd(width, '0');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Text in Unicode code point order (UTF-16 code units differ above U+FFFF). */
export function byCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const p = a.codePointAt(i) ?? 0;
    const q = b.codePointAt(j) ?? 0;
    if (p !== q) return p - q;
    i += p > 0xffff ? 2 : 1;
    j += q > 0xffff ? 2 : 1;
  }
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

/** Caseless form for "in any case": composed first, full case mapping (ß and SS alike). */
export function caseless(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/** The length in code points, as JSON Schema counts minLength and maxLength. */
const codePoints = (text: string): number =>
  text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

// ---------------------------------------------------------------------------------------------
// Data

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const EVENTS_FIXTURE = resolve(REPO_ROOT, 'examples/events/events.yaml');

/** examples/events/stockmock.config.yaml `tokens`. */
export const DEMO_TOKENS: Tokens = {
  organizer: 'organizer-demo-token',
  public: 'public-demo-token',
};

/** components.schemas */
export const CITIES = ['Lisbon', 'Lyon', 'Oslo', 'Porto'] as const;
export const EVENT_STATUSES = ['scheduled', 'on_sale', 'sold_out', 'cancelled'] as const;
export const SECTIONS = ['floor', 'balcony', 'box'] as const;
export const TICKET_STATUSES = ['available', 'held', 'sold'] as const;
export const EVENT_SORTS = ['startsAt', '-startsAt', 'priceFrom', '-priceFrom'] as const;
export type City = (typeof CITIES)[number];
export type EventStatus = (typeof EVENT_STATUSES)[number];
export type Section = (typeof SECTIONS)[number];
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type EventSort = (typeof EVENT_SORTS)[number];

const VENUE_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const VENUE_SLUG_MAX = 40;
const EVENT_ID = /^evt_[a-z0-9]{8}$/;
/** `format: uuid` (RFC 9562: hex digits in either case). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isVenueSlug = (text: string): boolean =>
  VENUE_SLUG.test(text) && codePoints(text) <= VENUE_SLUG_MAX;
export const isEventId = (text: string): boolean => EVENT_ID.test(text);
export const isUuid = (text: string): boolean => UUID.test(text);

function oneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return values.some((item) => item === value);
}

export interface Venue {
  readonly slug: string;
  readonly city: City;
  readonly record: JsonObject;
}

export interface EventRecord {
  readonly id: string;
  readonly name: string;
  readonly venueSlug: string;
  readonly status: EventStatus;
  readonly startsAt: Instant;
  readonly priceFrom: number;
  readonly record: JsonObject;
}

export interface Ticket {
  readonly id: string;
  readonly eventId: string;
  readonly section: Section;
  readonly status: TicketStatus;
  readonly record: JsonObject;
}

export interface EventsData {
  /** Each in key order (code points). */
  readonly venues: readonly Venue[];
  readonly events: readonly EventRecord[];
  readonly tickets: readonly Ticket[];
}

type Entry = Readonly<Record<string, unknown>>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The record with its declared fields in their declared order; an undeclared one refused. */
function recordOf(entry: Entry, fields: readonly string[], where: string): JsonObject {
  const extra = Object.keys(entry).filter((key) => !fields.includes(key));
  if (extra.length > 0) throw new Error(`${where}: undeclared fields ${extra.join(', ')}`);
  const record: Record<string, Json> = {};
  for (const field of fields) {
    const value = entry[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
      throw new Error(`${where}.${field}: not a string or a number`);
    }
    record[field] = value;
  }
  return record;
}

function textField(entry: Entry, field: string, where: string, test?: (t: string) => boolean) {
  const value = entry[field];
  if (typeof value !== 'string' || value === '' || (test !== undefined && !test(value))) {
    throw new Error(`${where}.${field}: not a valid ${field}`);
  }
  return value;
}

function numberField(entry: Entry, field: string, where: string, min: number, max: number) {
  const value = entry[field];
  if (typeof value !== 'number' || !(value >= min && value <= max)) {
    throw new Error(`${where}.${field}: not a number in ${min}..${max}`);
  }
  return value;
}

function enumField<T extends string>(
  entry: Entry,
  field: string,
  values: readonly T[],
  where: string,
): T {
  const value = entry[field];
  if (!oneOf(values, value)) throw new Error(`${where}.${field}: not one of ${values.join(', ')}`);
  return value;
}

function listOf(document: Entry, name: string, file: string): readonly unknown[] {
  const list = document[name] ?? [];
  if (!Array.isArray(list)) throw new Error(`${file}: ${name} is not a list`);
  return list as readonly unknown[];
}

function keyed<T>(items: T[], key: (item: T) => string, what: string): T[] {
  if (new Set(items.map(key)).size !== items.length) throw new Error(`two ${what} share a key`);
  return items.sort((a, b) => byCodePoints(key(a), key(b)));
}

/** Venues, events and tickets of a fixture file (examples/events/events.yaml by default). */
export function loadEvents(file = EVENTS_FIXTURE): EventsData {
  const document: unknown = parse(readFileSync(file, 'utf8'));
  if (!isEntry(document)) throw new Error(`${file}: not a mapping`);
  const venues = listOf(document, 'venues', file).map((entry, i): Venue => {
    const where = `${file}: venues[${i}]`;
    if (!isEntry(entry)) throw new Error(`${where}: not a mapping`);
    const record = recordOf(entry, ['slug', 'name', 'city', 'capacity'], where);
    textField(entry, 'name', where);
    numberField(entry, 'capacity', where, 50, 20000);
    return {
      slug: textField(entry, 'slug', where, isVenueSlug),
      city: enumField(entry, 'city', CITIES, where),
      record,
    };
  });
  const slugs = new Set(venues.map((venue) => venue.slug));
  const events = listOf(document, 'events', file).map((entry, i): EventRecord => {
    const where = `${file}: events[${i}]`;
    if (!isEntry(entry)) throw new Error(`${where}: not a mapping`);
    const fields = ['id', 'name', 'venueSlug', 'status', 'startsAt', 'priceFrom'];
    const record = recordOf(entry, fields, where);
    const venueSlug = textField(entry, 'venueSlug', where, (slug) => slugs.has(slug));
    const startsAt = toInstant(textField(entry, 'startsAt', where));
    if (startsAt === undefined) throw new Error(`${where}.startsAt: not a date-time`);
    return {
      id: textField(entry, 'id', where, isEventId),
      name: textField(entry, 'name', where),
      venueSlug,
      status: enumField(entry, 'status', EVENT_STATUSES, where),
      startsAt,
      priceFrom: numberField(entry, 'priceFrom', where, 0, 500),
      record,
    };
  });
  const eventIds = new Set(events.map((event) => event.id));
  const tickets = listOf(document, 'tickets', file).map((entry, i): Ticket => {
    const where = `${file}: tickets[${i}]`;
    if (!isEntry(entry)) throw new Error(`${where}: not a mapping`);
    const fields = ['id', 'eventId', 'section', 'price', 'status', 'holderName'];
    const record = recordOf(entry, fields, where);
    numberField(entry, 'price', where, 0, 900);
    if (entry['holderName'] !== undefined) textField(entry, 'holderName', where);
    return {
      id: textField(entry, 'id', where, isUuid),
      eventId: textField(entry, 'eventId', where, (id) => eventIds.has(id)),
      section: enumField(entry, 'section', SECTIONS, where),
      status: enumField(entry, 'status', TICKET_STATUSES, where),
      record,
    };
  });
  return {
    venues: keyed(venues, (venue) => venue.slug, 'venues'),
    events: keyed(events, (event) => event.id, 'events'),
    tickets: keyed(tickets, (ticket) => ticket.id, 'tickets'),
  };
}

// ---------------------------------------------------------------------------------------------
// Parameters

export interface ParameterError extends JsonObject {
  readonly parameter: string;
  readonly in: 'query' | 'path';
  readonly message: string;
}

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const fail = (message: string): Parsed<never> => ({ ok: false, message });

function decodeComponent(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * The query's parameters, read as a form (`+` a space); each declared one at most once, an
 * undeclared one refused (docs/behaviour.md). Returns a reader of a parameter's raw value.
 */
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

export function integerIn(raw: string, min: number, max: number): Parsed<number> {
  if (!/^-?\d+$/.test(raw)) return fail(`must be an integer, not "${raw}"`);
  const value = Number(raw);
  if (value < min) return fail(`must be at least ${min}`);
  if (value > max) return fail(`must be at most ${max}`);
  return ok(value);
}

function numberAtLeast(raw: string, min: number): Parsed<number> {
  if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return fail(`must be a number, not "${raw}"`);
  const value = Number(raw);
  if (!Number.isFinite(value)) return fail('must be a finite number');
  if (value < min) return fail(`must be at least ${min}`);
  return ok(value);
}

function enumValue<T extends string>(values: readonly T[]): (raw: string) => Parsed<T> {
  return (raw) => (oneOf(values, raw) ? ok(raw) : fail(`must be one of ${values.join(', ')}`));
}

function textIn(min: number, max: number): (raw: string) => Parsed<string> {
  return (raw) => {
    const length = codePoints(raw);
    if (length < min) return fail(`must hold at least ${min} character${min === 1 ? '' : 's'}`);
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

// ---------------------------------------------------------------------------------------------
// Filters and order

export interface EventFilters {
  readonly status?: EventStatus;
  readonly venue?: string;
  readonly starts_after?: Instant;
  readonly price_max?: number;
  readonly q?: string;
}

export type EventMatchers = {
  readonly [K in keyof EventFilters]-?: (
    event: EventRecord,
    value: NonNullable<EventFilters[K]>,
  ) => boolean;
};

/** listEvents' x-stockmock.filters: exact, exact, min (instants), max, contains (any case). */
export const EVENT_MATCHERS: EventMatchers = {
  status: (event, value) => event.status === value,
  venue: (event, value) => event.venueSlug === value,
  starts_after: (event, value) => compareInstants(event.startsAt, value) >= 0,
  price_max: (event, value) => event.priceFrom <= value,
  q: (event, value) => caseless(event.name).includes(caseless(value)),
};

const EVENT_FILTERS = ['status', 'venue', 'starts_after', 'price_max', 'q'] as const;

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

export interface TicketFilters {
  readonly status?: TicketStatus;
  readonly section?: Section;
}

// ---------------------------------------------------------------------------------------------
// Cursors

/** Where a page of an event's tickets ends: after the ticket `after` (null: before the first). */
export interface CursorPosition extends TicketFilters {
  readonly eventId: string;
  readonly after: string | null;
}

export interface CursorList extends TicketFilters {
  readonly eventId: string;
  /** Whether a ticket of that id is the event's (any status or section). */
  readonly holds: (ticketId: string) => boolean;
}

export interface CursorCodec {
  encode(position: CursorPosition): string;
  /** The key the page starts after, or why the cursor is not one of this list's. */
  decode(raw: string, list: CursorList): Parsed<string | null>;
}

/** FNV-1a, 32 bits: a check that a cursor was made here, not a secret. */
function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

const NOT_THIS_LIST = "is not a cursor of this list (this event's tickets, with these filters)";

/**
 * The reference's cursors: `base64url(["t1", eventId, status, section, after]).checksum`; one
 * names its list (event and filters) and the last ticket its page gave.
 */
export const STANDARD_CURSORS: CursorCodec = {
  encode: (position) => {
    const payload = JSON.stringify([
      't1',
      position.eventId,
      position.status ?? null,
      position.section ?? null,
      position.after,
    ]);
    return `${Buffer.from(payload, 'utf8').toString('base64url')}.${checksum(payload)}`;
  },
  decode: (raw, list) => {
    const match = /^([A-Za-z0-9_-]+)\.([0-9a-z]+)$/.exec(raw);
    if (match === null) return fail('is not a cursor this service gave');
    const payload = Buffer.from(match[1] ?? '', 'base64url').toString('utf8');
    if (checksum(payload) !== match[2]) return fail('is not a cursor this service gave');
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return fail('is not a cursor this service gave');
    }
    if (!Array.isArray(value) || value.length !== 5 || value[0] !== 't1') {
      return fail('is not a cursor this service gave');
    }
    const [, eventId, status, section, after] = value as unknown[];
    if (eventId !== list.eventId || status !== (list.status ?? null)) return fail(NOT_THIS_LIST);
    if (section !== (list.section ?? null)) return fail(NOT_THIS_LIST);
    if (after !== null && (typeof after !== 'string' || !isUuid(after))) {
      return fail('is not a cursor this service gave');
    }
    return ok(after);
  },
};

// ---------------------------------------------------------------------------------------------
// Replies

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Json;
}

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

export const PROBLEMS = {
  'invalid-parameters': [400, 'Invalid parameters'],
  'list-too-long': [400, 'List too long'],
  unauthorized: [401, 'Unauthorized'],
  'not-found': [404, 'Not found'],
  'method-not-allowed': [405, 'Method not allowed'],
  'not-acceptable': [406, 'Not acceptable'],
  internal: [500, 'Internal error'],
} as const;
export type ProblemKind = keyof typeof PROBLEMS;

/** A problem's `type` and `title` (the reference: stockmock's URNs, docs/behaviour.md). */
export type ProblemNaming = (kind: ProblemKind) => {
  readonly type: string;
  readonly title: string;
};

const STOCKMOCK_PROBLEMS: ProblemNaming = (kind) => ({
  type: `urn:problem-type:stockmock:${kind}`,
  title: PROBLEMS[kind][1],
});

function json(body: Json, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status: 200, headers: { 'content-type': JSON_TYPE, ...headers }, body };
}

/**
 * RFC 9110 §12.5.1: absent or empty, or a list whose most specific range that matches
 * application/json has a weight above 0.
 */
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

export type Operation =
  'listVenues' | 'getVenue' | 'listEvents' | 'getEvent' | 'listEventTickets' | 'getEventTicket';

interface Route {
  readonly operation: Operation;
  /** The path's parameters, as sent (still percent-encoded). */
  readonly segments: readonly string[];
}

const ROUTES: readonly (readonly [RegExp, Operation])[] = [
  [/^\/v1\/venues$/, 'listVenues'],
  [/^\/v1\/venues\/([^/]+)$/, 'getVenue'],
  [/^\/v1\/events$/, 'listEvents'],
  [/^\/v1\/events\/([^/]+)$/, 'getEvent'],
  [/^\/v1\/events\/([^/]+)\/tickets$/, 'listEventTickets'],
  [/^\/v1\/events\/([^/]+)\/tickets\/([^/]+)$/, 'getEventTicket'],
];

/** A trailing slash names the same resource (docs/behaviour.md, Surface). */
function routeOf(path: string): Route | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  for (const [pattern, operation] of ROUTES) {
    const match = pattern.exec(trimmed);
    if (match !== null) return { operation, segments: match.slice(1) };
  }
  return undefined;
}

const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * OPTIONS (docs/behaviour.md, CORS): 204 with `Allow`; a CORS preflight also gets the methods
 * and the headers it asked for.
 */
function preflight(request: IncomingMessage): Reply {
  const requested = request.headers['access-control-request-method'];
  if (request.headers.origin === undefined || requested === undefined) {
    return { status: 204, headers: { allow: ALLOW } };
  }
  return {
    status: 204,
    headers: {
      allow: ALLOW,
      'access-control-allow-methods': ALLOW,
      'access-control-allow-headers':
        request.headers['access-control-request-headers'] ?? 'Authorization',
      'access-control-max-age': '600',
    },
  };
}
/** The largest whole list answered (docs/declare-a-resource.md, Paging). */
const MAX_WHOLE_LIST = 10_000;
const EVENTS_PAGE_SIZE = { default: 20, max: 100 };
const EVENTS_PAGE_MAX = 100_000;
const TICKETS_LIMIT = { default: 10, max: 50 };

// ---------------------------------------------------------------------------------------------
// Hooks

/** What a variant changes. No hook: the reference. */
export interface EventsOptions {
  readonly tokens?: Tokens;
  /** Whether a venue passes `city` (the reference: its city is the one asked). */
  readonly venueMatchesCity?: (venue: Venue, city: City) => boolean;
  /** The venues answered, from every venue the filter keeps in slug order. */
  readonly venuesAnswered?: (venues: readonly Venue[]) => readonly Venue[];
  readonly eventMatchers?: Partial<EventMatchers>;
  /** The largest `pageSize` read (the reference: 100). */
  readonly maxPageSize?: number;
  /** A `pageSize` above it: 400 (the reference) or the maximum. */
  readonly pageSizeAboveMax?: 'reject' | 'clamp';
  /** The page served, from the one asked; the envelope says the one asked. */
  readonly eventsServed?: (asked: { page: number; pageSize: number }) => {
    page: number;
    pageSize: number;
  };
  /** listEvents `total`, from the matching events and all of them (the reference: matching). */
  readonly eventsTotal?: (matching: number, all: number) => number;
  /** Whether a ticket is in an event's list, before the filters (the reference: the event's). */
  readonly inTicketList?: (ticket: Ticket, eventId: string, filters: TicketFilters) => boolean;
  /** An unknown event's tickets: 404 (the reference), an empty list, or every ticket. */
  readonly unknownEventTickets?: 'not-found' | 'empty' | 'every-ticket';
  /** Whether a ticket is found under an event (the reference: its own only). */
  readonly ticketUnderEvent?: (ticket: Ticket, eventId: string) => boolean;
  readonly cursors?: CursorCodec;
  /** Where the page after a cursor starts among the list's ids (the reference: right after). */
  readonly resumeAt?: (ids: readonly string[], after: string | null) => number;
  /**
   * How the list says it ended: 'exact' (the reference: the page holding the last ticket says
   * has_more false, next_cursor null), 'never' (has_more always true, a cursor always),
   * 'trailing-cursor' (has_more false there, but a cursor that leads to one empty page).
   */
  readonly listEnd?: 'exact' | 'never' | 'trailing-cursor';
  /** A ticket as a level sees it, from the reference's view. */
  readonly ticketView?: (ticket: Ticket, level: Level, standard: JsonObject) => JsonObject;
  readonly problemNaming?: ProblemNaming;
}

/** x-stockmock views: organizer { rest: true }; public { omit: [holderName], rest: true }. */
export function standardTicketView(ticket: Ticket, level: Level): JsonObject {
  if (level === 'organizer') return ticket.record;
  return Object.fromEntries(Object.entries(ticket.record).filter(([key]) => key !== 'holderName'));
}

/** The first id after `after` in code point order (ids are in that order). */
export function standardResume(ids: readonly string[], after: string | null): number {
  if (after === null) return 0;
  const index = ids.findIndex((id) => byCodePoints(id, after) > 0);
  return index === -1 ? ids.length : index;
}

// ---------------------------------------------------------------------------------------------
// The service

interface Request {
  readonly level: Level;
  readonly segments: readonly string[];
  readonly query: string;
  readonly origin: string;
}

class EventsService {
  readonly tokens: Tokens;
  private readonly data: EventsData;
  private readonly venues: ReadonlyMap<string, Venue>;
  private readonly events: ReadonlyMap<string, EventRecord>;
  private readonly tickets: ReadonlyMap<string, Ticket>;
  private readonly options: EventsOptions;

  constructor(options: EventsOptions, fixtures: string | undefined) {
    this.options = options;
    this.tokens = options.tokens ?? DEMO_TOKENS;
    this.data = loadEvents(fixtures);
    this.venues = new Map(this.data.venues.map((venue) => [venue.slug, venue]));
    this.events = new Map(this.data.events.map((event) => [event.id, event]));
    this.tickets = new Map(this.data.tickets.map((ticket) => [ticket.id, ticket]));
  }

  problem(kind: ProblemKind, detail: string, extra: JsonObject = {}): Reply {
    const status = PROBLEMS[kind][0];
    const { type, title } = (this.options.problemNaming ?? STOCKMOCK_PROBLEMS)(kind);
    return {
      status,
      headers: { 'content-type': PROBLEM_TYPE },
      body: { type, title, status, detail, ...extra },
    };
  }

  private invalid(errors: readonly ParameterError[]): Reply {
    const detail = errors.map((error) => `${error.parameter} ${error.message}`).join('; ');
    return this.problem('invalid-parameters', `Invalid parameters: ${detail}.`, { errors });
  }

  answer(request: IncomingMessage, origin: string): Reply {
    let reply: Reply;
    try {
      reply = this.handle(request, origin);
    } catch (error) {
      reply = this.problem('internal', `Unexpected error: ${String(error)}`);
    }
    if (request.headers.origin === undefined) return reply;
    return {
      ...reply,
      headers: {
        ...reply.headers,
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'Link, WWW-Authenticate, Allow',
      },
    };
  }

  /** Order of checks (docs/behaviour.md): path, method, token, Accept, parameters, item. */
  private handle(request: IncomingMessage, origin: string): Reply {
    const target = request.url ?? '/';
    const mark = target.indexOf('?');
    const path = mark === -1 ? target : target.slice(0, mark);
    const query = mark === -1 ? '' : target.slice(mark + 1);
    const route = routeOf(path);
    if (route === undefined) return this.problem('not-found', `Nothing is served at ${path}.`);
    const method = request.method ?? 'GET';
    if (method === 'OPTIONS') return preflight(request);
    if (method !== 'GET' && method !== 'HEAD') {
      const reply = this.problem('method-not-allowed', `${path} answers ${ALLOW}, not ${method}.`);
      return { ...reply, headers: { ...reply.headers, allow: ALLOW } };
    }
    const level = this.authenticate(request.headers.authorization);
    if (typeof level !== 'string') return level;
    if (!acceptsJson(request.headers.accept)) {
      return this.problem('not-acceptable', 'Answers are application/json; Accept excludes it.');
    }
    const context: Request = { level, segments: route.segments, query, origin };
    switch (route.operation) {
      case 'listVenues':
        return this.listVenues(context);
      case 'getVenue':
        return this.getVenue(context);
      case 'listEvents':
        return this.listEvents(context);
      case 'getEvent':
        return this.getEvent(context);
      case 'listEventTickets':
        return this.listEventTickets(context);
      case 'getEventTicket':
        return this.getEventTicket(context);
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
        ? this.problem('unauthorized', 'Send a bearer token: Authorization: Bearer <token>.')
        : this.problem('unauthorized', 'The bearer token is not one this service knows.');
    const challenge = `Bearer realm="stockmock"${token === undefined ? '' : ', error="invalid_token"'}`;
    return { ...reply, headers: { ...reply.headers, 'www-authenticate': challenge } };
  }

  /** A path parameter, decoded and checked; undefined (and an error) when it is not valid. */
  private pathParameter(
    request: Request,
    index: number,
    name: string,
    valid: (text: string) => boolean,
    message: string,
    errors: ParameterError[],
  ): string | undefined {
    const decoded = decodeComponent(request.segments[index] ?? '');
    if (decoded !== undefined && valid(decoded)) return decoded;
    errors.push({ parameter: name, in: 'path', message });
    return undefined;
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

  private listVenues(request: Request): Reply {
    const errors: ParameterError[] = [];
    const raw = queryReader(request.query, ['city'], errors);
    const city = this.read(raw, 'city', enumValue(CITIES), errors);
    if (errors.length > 0) return this.invalid(errors);
    const matches = this.options.venueMatchesCity ?? ((venue, value) => venue.city === value);
    const kept = this.data.venues.filter((venue) => city === undefined || matches(venue, city));
    if (kept.length > MAX_WHOLE_LIST) {
      return this.problem(
        'list-too-long',
        `The list would hold ${kept.length} venues, more than ${MAX_WHOLE_LIST}: filter it.`,
        { total: kept.length },
      );
    }
    const answered = this.options.venuesAnswered?.(kept) ?? kept;
    // A whole list's links are its own URL (docs/declare-a-resource.md, Paging).
    const self = `${request.origin}/v1/venues${city === undefined ? '' : `?city=${encodeURIComponent(city)}`}`;
    return json(
      answered.map((venue) => venue.record),
      { link: `<${self}>; rel="first", <${self}>; rel="last"` },
    );
  }

  private getVenue(request: Request): Reply {
    const errors: ParameterError[] = [];
    queryReader(request.query, [], errors);
    const slug = this.pathParameter(
      request,
      0,
      'venueSlug',
      isVenueSlug,
      'must be a venue slug (lower-case words and hyphens, at most 40 characters)',
      errors,
    );
    if (errors.length > 0 || slug === undefined) return this.invalid(errors);
    const venue = this.venues.get(slug);
    if (venue === undefined) return this.problem('not-found', `No venue has the slug ${slug}.`);
    return json(venue.record);
  }

  private listEvents(request: Request): Reply {
    const errors: ParameterError[] = [];
    const raw = queryReader(request.query, [...EVENT_FILTERS, 'sort', 'page', 'pageSize'], errors);
    const filters: Record<string, unknown> = {
      status: this.read(raw, 'status', enumValue(EVENT_STATUSES), errors),
      venue: this.read(raw, 'venue', venueSlug, errors),
      starts_after: this.read(raw, 'starts_after', dateTime, errors),
      price_max: this.read(raw, 'price_max', (text) => numberAtLeast(text, 0), errors),
      q: this.read(raw, 'q', textIn(1, 120), errors),
    };
    const sort = this.read(raw, 'sort', enumValue(EVENT_SORTS), errors) ?? 'startsAt';
    const page = this.read(raw, 'page', (text) => integerIn(text, 1, EVENTS_PAGE_MAX), errors) ?? 1;
    const max = this.options.maxPageSize ?? EVENTS_PAGE_SIZE.max;
    const clamp = this.options.pageSizeAboveMax === 'clamp';
    const pageSize =
      this.read(
        raw,
        'pageSize',
        (text) => {
          const parsed = integerIn(text, 1, clamp ? Number.MAX_SAFE_INTEGER : max);
          return parsed.ok && clamp ? ok(Math.min(parsed.value, max)) : parsed;
        },
        errors,
      ) ?? EVENTS_PAGE_SIZE.default;
    if (errors.length > 0) return this.invalid(errors);
    const matchers: Record<string, (event: EventRecord, value: unknown) => boolean> = {
      ...EVENT_MATCHERS,
      ...this.options.eventMatchers,
    } as Record<string, (event: EventRecord, value: unknown) => boolean>;
    const matching = this.data.events.filter((event) =>
      EVENT_FILTERS.every((name) => {
        const value = filters[name];
        return value === undefined || matchers[name]?.(event, value) === true;
      }),
    );
    const ordered = [...matching].sort(eventOrder(sort));
    const served = this.options.eventsServed?.({ page, pageSize }) ?? { page, pageSize };
    const start = (served.page - 1) * served.pageSize;
    const items = ordered.slice(start, start + served.pageSize).map((event) => event.record);
    const total =
      this.options.eventsTotal?.(matching.length, this.data.events.length) ?? matching.length;
    return json({ items, total, page, pageSize });
  }

  private getEvent(request: Request): Reply {
    const errors: ParameterError[] = [];
    queryReader(request.query, [], errors);
    const id = this.eventIdOf(request, errors);
    if (errors.length > 0 || id === undefined) return this.invalid(errors);
    const event = this.events.get(id);
    if (event === undefined) return this.problem('not-found', `No event has the id ${id}.`);
    return json(event.record);
  }

  private eventIdOf(request: Request, errors: ParameterError[]): string | undefined {
    return this.pathParameter(
      request,
      0,
      'eventId',
      isEventId,
      'must be an event id: evt_ and eight lower-case letters or digits',
      errors,
    );
  }

  private listEventTickets(request: Request): Reply {
    const errors: ParameterError[] = [];
    const raw = queryReader(request.query, ['status', 'section', 'cursor', 'limit'], errors);
    const eventId = this.eventIdOf(request, errors);
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
    const codec = this.options.cursors ?? STANDARD_CURSORS;
    let after: string | null = null;
    if (cursor !== undefined && eventId !== undefined) {
      const holds = (ticketId: string): boolean => this.tickets.get(ticketId)?.eventId === eventId;
      const decoded = codec.decode(cursor, { eventId, ...filters, holds });
      if (decoded.ok) after = decoded.value;
      else errors.push({ parameter: 'cursor', in: 'query', message: decoded.message });
    }
    if (errors.length > 0 || eventId === undefined) return this.invalid(errors);
    const known = this.events.has(eventId);
    const unknown = this.options.unknownEventTickets ?? 'not-found';
    if (!known && unknown === 'not-found') {
      return this.problem('not-found', `No event has the id ${eventId}.`);
    }
    const inList =
      !known && unknown === 'every-ticket'
        ? () => true
        : (this.options.inTicketList ?? ((ticket: Ticket) => ticket.eventId === eventId));
    const matching =
      !known && unknown === 'empty'
        ? []
        : this.data.tickets.filter(
            (ticket) =>
              inList(ticket, eventId, filters) &&
              (status === undefined || ticket.status === status) &&
              (section === undefined || ticket.section === section),
          );
    const ids = matching.map((ticket) => ticket.id);
    const start = cursor === undefined ? 0 : (this.options.resumeAt ?? standardResume)(ids, after);
    const page = matching.slice(start, start + limit);
    const more = start + limit < matching.length;
    const last = page.at(-1)?.id;
    const cursorAfter = (key: string | null): string =>
      codec.encode({ eventId, ...filters, after: key });
    let hasMore = more;
    let next: string | null = more && last !== undefined ? cursorAfter(last) : null;
    switch (this.options.listEnd ?? 'exact') {
      case 'exact':
        break;
      case 'never':
        hasMore = true;
        next = cursorAfter(last ?? after);
        break;
      case 'trailing-cursor':
        next = last === undefined ? null : cursorAfter(last);
        break;
    }
    const view = (ticket: Ticket): JsonObject => this.ticketView(ticket, request.level);
    return json({ data: page.map(view), next_cursor: next, has_more: hasMore });
  }

  private getEventTicket(request: Request): Reply {
    const errors: ParameterError[] = [];
    queryReader(request.query, [], errors);
    const eventId = this.eventIdOf(request, errors);
    const ticketId = this.pathParameter(request, 1, 'ticketId', isUuid, 'must be a UUID', errors);
    if (errors.length > 0 || eventId === undefined || ticketId === undefined) {
      return this.invalid(errors);
    }
    if (!this.events.has(eventId)) {
      return this.problem('not-found', `No event has the id ${eventId}.`);
    }
    const ticket = this.tickets.get(ticketId);
    const under = this.options.ticketUnderEvent ?? ((t: Ticket, id: string) => t.eventId === id);
    if (ticket === undefined || !under(ticket, eventId)) {
      return this.problem('not-found', `Event ${eventId} has no ticket ${ticketId}.`);
    }
    return json(this.ticketView(ticket, request.level));
  }

  private ticketView(ticket: Ticket, level: Level): JsonObject {
    const standard = standardTicketView(ticket, level);
    return this.options.ticketView?.(ticket, level, standard) ?? standard;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

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

/** Starts an events server on 127.0.0.1, on a free port. */
export async function startEventsServer(
  options: EventsOptions = {},
  start: StartOptions = {},
): Promise<RunningEventsServer> {
  const service = new EventsService(options, start.fixtures);
  const listening = await listenOnLoopback((request, response) => {
    send(request, response, service.answer(request, originOf(request)));
  });
  return { ...listening, tokens: service.tokens };
}

// ---------------------------------------------------------------------------------------------
// The reference and its variants

function server(
  name: string,
  kind: EventsServer['kind'],
  level: EventsServer['level'],
  rule: string,
  options: EventsOptions = {},
): EventsServer {
  return { name, kind, rule, level, start: (start) => startEventsServer(options, start) };
}

export const EVENTS_REFERENCE: EventsServer = server(
  'reference',
  'reference',
  'interface',
  'examples/events/openapi.yaml with its x-stockmock declarations as docs/declare-a-resource.md ' +
    'defines them (Paging, Nested lists, A service’s own shapes), and events.yaml; ' +
    'docs/behaviour.md for problems (stockmock types, 400 with errors), 401 Bearer ' +
    'realm="stockmock", 405 with Allow: GET, HEAD, OPTIONS, 406, HEAD, unknown and repeated parameters ' +
    '400, a page past the end 200 and empty; ticket cursors name their list and last ticket, and ' +
    'the list ends exactly',
);

const CURSOR_RULE =
  'listEventTickets cursor ("The next_cursor of the page before"; docs: a cursor names the last ' +
  'item its page gave, and the next page starts right after it)';
const TICKETS_RULE =
  'listEventTickets, a nested list ("One page of the event\'s tickets"; docs, Nested lists: the ' +
  "tickets whose eventId is the event's)";
const PAGE_SIZE_RULE = 'listEvents pageSize (integer, minimum 1, maximum 100, default 20)';

/** Each breaks one rule of the spec (or of HTTP), and nothing else. */
const BROKEN: readonly EventsServer[] = [
  // Cursors
  server(
    'cursor repeats the last ticket',
    'broken',
    'interface',
    `${CURSOR_RULE}: the page after a cursor starts at the ticket it names instead of after it, ` +
      'so each page after the first repeats the last ticket of the page before: a client that ' +
      'collects the tickets counts one twice per page (and with limit=1 never gets past the first)',
    {
      resumeAt: (ids, after) => {
        if (after === null) return 0;
        const index = ids.findIndex((id) => byCodePoints(id, after) >= 0);
        return index === -1 ? ids.length : index;
      },
    },
  ),
  server(
    'cursor skips a ticket',
    'broken',
    'interface',
    `${CURSOR_RULE}: the page after a cursor starts one ticket late, so the first ticket after ` +
      'each page is never listed and a client walking the list misses one per page',
    { resumeAt: (ids, after) => standardResume(ids, after) + (after === null ? 0 : 1) },
  ),
  server(
    'has_more never false',
    'broken',
    'interface',
    'listEventTickets has_more and next_cursor (docs: on the last page the cursor is null and ' +
      'hasMore false): every page says has_more: true with a next_cursor, the last one and the ' +
      'empty ones after it too, so a client paging while has_more loops for ever on empty pages',
    { listEnd: 'never' },
  ),
  // Nested lists
  server(
    'status filter drops the event',
    'broken',
    'interface',
    `${TICKETS_RULE}: with a status filter the list forgets its event and holds the tickets of ` +
      'that status of every event, so an organizer counting the sold tickets of one event counts ' +
      "every event's",
    {
      inTicketList: (ticket, eventId, filters) =>
        filters.status !== undefined || ticket.eventId === eventId,
    },
  ),
  server(
    'ticket found under another event',
    'broken',
    'interface',
    'getEventTicket ("one of an event\'s tickets"; docs: a ticket only under its own event, 404 ' +
      'under another): the ticket is found by its id alone, so /v1/events/A/tickets/T answers 200 ' +
      "with a ticket whose eventId is B, and a client showing event A's ticket shows B's",
    { ticketUnderEvent: () => true },
  ),
  server(
    "unknown event's tickets are every ticket",
    'broken',
    'interface',
    `${TICKETS_RULE}; 404 declared, and docs: an unknown parent is a 404: an event id that no ` +
      'event has answers 200 with every ticket of every event, so a client with a stale or ' +
      'mistyped event id shows strangers\' tickets instead of "no such event"',
    { unknownEventTickets: 'every-ticket' },
  ),
  // Page and pageSize
  server(
    'pageSize maximum not enforced',
    'broken',
    'interface',
    `${PAGE_SIZE_RULE}; the answer's pageSize has maximum 100 and items maxItems 100: ` +
      'pageSize=150 is served (every event, pageSize: 150) instead of refused, so a client that ' +
      'works here meets a 400 from a service that keeps the schema, and the answer breaks its own',
    { maxPageSize: Number.MAX_SAFE_INTEGER },
  ),
  server(
    'pageSize ignored',
    'broken',
    'interface',
    `${PAGE_SIZE_RULE}: the size asked for is echoed in the envelope but every page holds 20 ` +
      'events, so pageSize=5 gives 20 items and page=2&pageSize=5 starts at the 21st event: a ' +
      'client paging by 5 skips 15 events a page',
    { eventsServed: ({ page }) => ({ page, pageSize: EVENTS_PAGE_SIZE.default }) },
  ),
  server(
    'page ignored',
    'broken',
    'interface',
    'listEvents page (integer, minimum 1, default 1): the envelope echoes the page asked, but ' +
      "every page holds the first page's events, so a client walking pages sees the same 20 " +
      'events again and never the rest',
    { eventsServed: ({ pageSize }) => ({ page: 1, pageSize }) },
  ),
  server(
    'venues cut at 5',
    'broken',
    'interface',
    'listVenues: "Every venue, as one bare array (no paging)", 200 "Every venue the filter ' +
      'keeps": the list stops after 5 venues without a word (no paging parameter, no link, no ' +
      'total), so a client never learns of the others',
    { venuesAnswered: (venues) => venues.slice(0, 5) },
  ),
  server(
    'venues city filter ignored',
    'broken',
    'interface',
    'listVenues city (x-stockmock filters city: exact): city is checked against the enum but not ' +
      'applied, so city=Lyon lists the venues of every city',
    { venueMatchesCity: () => true },
  ),
  server(
    'events total before the filters',
    'broken',
    'interface',
    'listEvents envelope total: total ("the number of records the filters keep over all pages", ' +
      'docs/declare-a-resource.md): total counts every event whatever the filters, so ' +
      'status=cancelled says 40 events, a client computes pages past the end and shows wrong counts',
    { eventsTotal: (_matching, all) => all },
  ),
  // More
  server(
    'public level sees holderName',
    'broken',
    'interface',
    'x-stockmock views public: { omit: [holderName] } and bearerAuth ("public-demo-token sees ' +
      'tickets without it"): the public token sees the holder\'s name, in the list and the item',
    { ticketView: (ticket) => ticket.record },
  ),
  server(
    'q case-sensitive',
    'broken',
    'interface',
    'listEvents q: "A literal substring of the event\'s name, in any case": compared as written, ' +
      'so q=jazz finds no "Jazz at the Mill"',
    { eventMatchers: { q: (event, value) => event.name.includes(value) } },
  ),
  server(
    'price_max exclusive',
    'broken',
    'interface',
    'listEvents price_max (x-stockmock filters match: max, inclusive): an event priced exactly ' +
      'at price_max is left out, so price_max=29.27 misses the event from 29.27',
    { eventMatchers: { price_max: (event, value) => event.priceFrom < value } },
  ),
];

/** A cursor that is the last ticket's id itself, as Stripe's starting_after. */
const PLAIN_ID_CURSORS: CursorCodec = {
  encode: (position) => {
    if (position.after === null) throw new Error('a plain-id cursor cannot name the start');
    return position.after;
  },
  decode: (raw, list) =>
    isUuid(raw) && list.holds(raw) ? ok(raw) : fail("is not the id of one of this event's tickets"),
};

/** A readable cursor, `eventId~status~section~after`, bound to its list as the reference's. */
const READABLE_CURSORS: CursorCodec = {
  encode: (position) =>
    [position.eventId, position.status ?? '*', position.section ?? '*', position.after ?? '^'].join(
      '~',
    ),
  decode: (raw, list) => {
    const parts = raw.split('~');
    if (parts.length !== 4) return fail('is not a cursor this service gave');
    const [eventId, status, section, after = ''] = parts;
    if (eventId !== list.eventId || status !== (list.status ?? '*')) return fail(NOT_THIS_LIST);
    if (section !== (list.section ?? '*')) return fail(NOT_THIS_LIST);
    if (after === '^') return ok(null);
    return isUuid(after) ? ok(after) : fail('is not a cursor this service gave');
  },
};

/** Correct services that decide otherwise where the spec (or stockmock's docs) leave room. */
const DIFFERENT: readonly EventsServer[] = [
  server(
    'cursor is the last ticket id',
    'different',
    'stand-in',
    'the cursor is opaque (spec: a string of 1 to 200 characters): here it is the id of the ' +
      "last ticket given, as Stripe's starting_after, and any ticket of the event is a place to " +
      'start after; not a ticket id of this event is a 400. Docs refuse a cursor of other filters; ' +
      'this one serves it, correctly, from that ticket on (key order is the same whatever the filter)',
    { cursors: PLAIN_ID_CURSORS },
  ),
  server(
    'cursor in another encoding',
    'different',
    'interface',
    'the cursor is opaque: here a readable eventId~status~section~lastTicketId, still bound to ' +
      'its event and filters (anything else a 400)',
    { cursors: READABLE_CURSORS },
  ),
  server(
    "unknown event's tickets are an empty list",
    'different',
    'stand-in',
    'listEventTickets declares 404 but does not say an unknown event must have it; docs (Nested ' +
      'lists) choose 404: here an event id that no event has lists no tickets, 200 ' +
      '{data: [], next_cursor: null, has_more: false}',
    { unknownEventTickets: 'empty' },
  ),
  server(
    'pageSize above 100 clamped',
    'different',
    'stand-in',
    `${PAGE_SIZE_RULE}: a larger one is served as 100 (the envelope says pageSize: 100), as many ` +
      'APIs do; docs/behaviour.md and PRODUCT.md refuse it with a 400',
    { pageSizeAboveMax: 'clamp' },
  ),
  server(
    'last page gives a cursor to an empty page',
    'different',
    'interface',
    'listEventTickets next_cursor is a string or null, and the spec does not say when it is ' +
      'null: the page holding the last ticket says has_more: false but still gives a next_cursor, ' +
      'which leads to one empty page with next_cursor null and has_more false (docs: the cursor is ' +
      'null on the last page, which this empty page is); a walk by has_more or by next_cursor ' +
      'sees every ticket once',
    { listEnd: 'trailing-cursor' },
  ),
  server(
    'problem types about:blank',
    'different',
    'interface',
    'RFC 9457 §4.2.1: about:blank, titled by the status phrase, for every problem; the spec only ' +
      'asks type to be a uri-reference, PRODUCT.md: a real service may use about:blank (the ' +
      'checker holds problem types to the stand-in only with --pin-problem-types)',
    {
      problemNaming: (kind) => ({
        type: 'about:blank',
        title: STATUS_CODES[PROBLEMS[kind][0]] ?? 'Error',
      }),
    },
  ),
];

export const EVENTS_VARIANTS: readonly EventsServer[] = [...BROKEN, ...DIFFERENT];
