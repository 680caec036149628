/**
 * Servers for the charges spec (test/contract/charges/openapi.yaml), written from the spec, its
 * `x-stockmock` declarations, charges.yaml and the docs (declare-a-resource: Paging; behaviour)
 * alone, on plain node:http. One service answers as the reference; each variant plugs one hook
 * into it, so that it differs from the reference in one thing.
 *
 * The reference: charges in id order (code points), filters `customer` and `currency`, paged as
 * Stripe pages them: `starting_after=ID` is the page after the charge ID, `ending_before=ID` the
 * page right before it, a key no charge has placed where it would be in id order, both at once a
 * 400; `{data, has_more}`, has_more saying whether charges follow in the direction asked.
 * Refunds in id order, paged by an opaque cursor each page gives both ways:
 * `{data, next_cursor, prev_cursor, has_more}`, next_cursor null on the last page, prev_cursor
 * null on the first; a cursor names the last refund its page gave (the first, for the page
 * before) and its direction. Errors are RFC 9457 problems with stockmock's problem types.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { listenOnLoopback } from '../../helpers/loopback-server.ts';

export interface ChargesServer {
  readonly name: string;
  readonly kind: 'reference' | 'broken' | 'different';
  /** The rule broken (and how a client suffers), or the choice made, with its source. */
  readonly rule: string;
  /**
   * 'interface': breaks (or, for 'different', chooses within) what the spec or HTTP declares;
   * 'stand-in': departs from a decision of stockmock's docs only.
   */
  readonly level: 'interface' | 'stand-in';
  /** Starts it on 127.0.0.1, a free port; `fixtures` replaces charges.yaml. */
  start(options?: StartOptions): Promise<RunningChargesServer>;
}

export interface StartOptions {
  /** A fixture file shaped as charges.yaml (charges, refunds). */
  readonly fixtures?: string;
}

export interface Tokens {
  readonly reader: string;
}

export interface RunningChargesServer {
  readonly url: string;
  readonly tokens: Tokens;
  close(): Promise<void>;
}

export type Json = null | boolean | number | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

// ---------------------------------------------------------------------------------------------
// Data

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

/** The length in code points, as JSON Schema counts minLength and maxLength. */
const codePoints = (text: string): number =>
  text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

export const CHARGES_FIXTURE = resolve(import.meta.dirname, 'charges.yaml');

/** test/contract/charges/stockmock.config.yaml `tokens`. */
export const DEMO_TOKENS: Tokens = { reader: 'charges-demo-token' };

export const CURRENCIES = ['eur', 'usd', 'nok'] as const;
export type Currency = (typeof CURRENCIES)[number];

const CHARGE_ID = /^ch_[a-z0-9]{8}$/;
const CUSTOMER_ID = /^cus_[a-z0-9]{4}$/;
const REFUND_ID = /^re_[a-z0-9]{8}$/;

export interface Charge {
  readonly id: string;
  readonly customer: string;
  readonly currency: Currency;
  readonly record: JsonObject;
}

export interface Refund {
  readonly id: string;
  readonly record: JsonObject;
}

export interface ChargesData {
  /** Each in id order (code points). */
  readonly charges: readonly Charge[];
  readonly refunds: readonly Refund[];
}

type Entry = Readonly<Record<string, unknown>>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The record with its declared fields, each checked; an undeclared field refused. */
function recordOf(
  entry: unknown,
  fields: Readonly<Record<string, (value: unknown) => boolean>>,
  where: string,
): JsonObject {
  if (!isEntry(entry)) throw new Error(`${where}: not a mapping`);
  const extra = Object.keys(entry).filter((key) => !(key in fields));
  if (extra.length > 0) throw new Error(`${where}: undeclared fields ${extra.join(', ')}`);
  const record: Record<string, Json> = {};
  for (const [field, valid] of Object.entries(fields)) {
    const value = entry[field];
    if (!valid(value)) throw new Error(`${where}.${field}: not a valid ${field}`);
    record[field] = value as Json;
  }
  return record;
}

const textMatching =
  (pattern: RegExp) =>
  (value: unknown): boolean =>
    typeof value === 'string' && pattern.test(value);
const integerIn =
  (min: number, max: number) =>
  (value: unknown): boolean =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function listOf(document: Entry, name: string, file: string): readonly unknown[] {
  const list = document[name] ?? [];
  if (!Array.isArray(list)) throw new Error(`${file}: ${name} is not a list`);
  return list as readonly unknown[];
}

function keyed<T extends { readonly id: string }>(items: T[], what: string): T[] {
  if (new Set(items.map((item) => item.id)).size !== items.length) {
    throw new Error(`two ${what} share an id`);
  }
  return items.sort((a, b) => byCodePoints(a.id, b.id));
}

/** Charges and refunds of a fixture file (charges.yaml by default). */
export function loadCharges(file = CHARGES_FIXTURE): ChargesData {
  const document: unknown = parse(readFileSync(file, 'utf8'));
  if (!isEntry(document)) throw new Error(`${file}: not a mapping`);
  const charges = listOf(document, 'charges', file).map((entry, i): Charge => {
    const record = recordOf(
      entry,
      {
        id: textMatching(CHARGE_ID),
        customer: textMatching(CUSTOMER_ID),
        amount: integerIn(50, 99999),
        currency: (value) => CURRENCIES.some((currency) => currency === value),
      },
      `${file}: charges[${i}]`,
    );
    return {
      id: record['id'] as string,
      customer: record['customer'] as string,
      currency: record['currency'] as Currency,
      record,
    };
  });
  const refunds = listOf(document, 'refunds', file).map((entry, i): Refund => {
    const record = recordOf(
      entry,
      {
        id: textMatching(REFUND_ID),
        charge: textMatching(CHARGE_ID),
        amount: integerIn(1, 99999),
      },
      `${file}: refunds[${i}]`,
    );
    return { id: record['id'] as string, record };
  });
  return { charges: keyed(charges, 'charges'), refunds: keyed(refunds, 'refunds') };
}

// ---------------------------------------------------------------------------------------------
// Parameters

export interface ParameterError extends JsonObject {
  readonly parameter: string;
  readonly in: 'query';
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

function integerParameter(raw: string, min: number, max: number): Parsed<number> {
  if (!/^-?\d+$/.test(raw)) return fail(`must be an integer, not "${raw}"`);
  const value = Number(raw);
  if (value < min) return fail(`must be at least ${min}`);
  if (value > max) return fail(`must be at most ${max}`);
  return ok(value);
}

function textIn(min: number, max: number): (raw: string) => Parsed<string> {
  return (raw) => {
    const length = codePoints(raw);
    if (length < min) return fail(`must hold at least ${min} character${min === 1 ? '' : 's'}`);
    if (length > max) return fail(`must hold at most ${max} characters`);
    return ok(raw);
  };
}

const matching =
  (pattern: RegExp, message: string) =>
  (raw: string): Parsed<string> =>
    pattern.test(raw) ? ok(raw) : fail(message);

function currency(raw: string): Parsed<Currency> {
  const found = CURRENCIES.find((value) => value === raw);
  return found === undefined ? fail(`must be one of ${CURRENCIES.join(', ')}`) : ok(found);
}

// ---------------------------------------------------------------------------------------------
// Cursors

/** Where a page of refunds starts or ends: after the refund `key`, or before it (null: the end). */
export interface RefundPosition {
  readonly direction: 'after' | 'before';
  readonly key: string | null;
}

export interface CursorCodec {
  encode(position: RefundPosition): string;
  /** The position, or why the cursor is not one this service gave. */
  decode(raw: string, holds: (id: string) => boolean): Parsed<RefundPosition>;
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

const NOT_A_CURSOR = 'is not a cursor this service gave';

/** The reference's cursors: `base64url(["r1", direction, key]).checksum`. */
export const STANDARD_CURSORS: CursorCodec = {
  encode: (position) => {
    const payload = JSON.stringify(['r1', position.direction, position.key]);
    return `${Buffer.from(payload, 'utf8').toString('base64url')}.${checksum(payload)}`;
  },
  decode: (raw) => {
    const match = /^([A-Za-z0-9_-]+)\.([0-9a-z]+)$/.exec(raw);
    if (match === null) return fail(NOT_A_CURSOR);
    const payload = Buffer.from(match[1] ?? '', 'base64url').toString('utf8');
    if (checksum(payload) !== match[2]) return fail(NOT_A_CURSOR);
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return fail(NOT_A_CURSOR);
    }
    if (!Array.isArray(value) || value.length !== 3 || value[0] !== 'r1') return fail(NOT_A_CURSOR);
    const [, direction, key] = value as unknown[];
    if (direction !== 'after' && direction !== 'before') return fail(NOT_A_CURSOR);
    if (key === null && direction === 'before') return ok({ direction, key });
    if (typeof key !== 'string' || !REFUND_ID.test(key)) return fail(NOT_A_CURSOR);
    return ok({ direction, key });
  },
};

/**
 * A cursor that is the refund's id itself, base64url: `re_…` (the page after it) or `-re_…`
 * (the page before it; `-` alone, the last page); any refund's id is a place to start, anything else a 400.
 */
const PLAIN_ID_CURSORS: CursorCodec = {
  encode: (position) => {
    if (position.key === null && position.direction === 'after') {
      throw new Error('a plain-id cursor after names a refund');
    }
    const text = position.direction === 'after' ? (position.key ?? '') : `-${position.key ?? ''}`;
    return Buffer.from(text, 'utf8').toString('base64url');
  },
  decode: (raw, holds) => {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) return fail(NOT_A_CURSOR);
    const text = Buffer.from(raw, 'base64url').toString('utf8');
    if (Buffer.from(text, 'utf8').toString('base64url') !== raw) return fail(NOT_A_CURSOR);
    const direction = text.startsWith('-') ? 'before' : 'after';
    const key = direction === 'before' ? text.slice(1) : text;
    if (direction === 'before' && key === '') return ok({ direction, key: null });
    if (!REFUND_ID.test(key) || !holds(key)) return fail('is not the id of a refund');
    return ok({ direction, key });
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
  unauthorized: [401, 'Unauthorized'],
  'not-found': [404, 'Not found'],
  'method-not-allowed': [405, 'Method not allowed'],
  'not-acceptable': [406, 'Not acceptable'],
  internal: [500, 'Internal error'],
} as const;
export type ProblemKind = keyof typeof PROBLEMS;

function json(body: Json): Reply {
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body };
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

const ALLOW = 'GET, HEAD';
const CHARGES_LIMIT = { default: 10, max: 100 };
const REFUNDS_LIMIT = { default: 10, max: 50 };

// ---------------------------------------------------------------------------------------------
// Hooks

/** What a variant changes. No hook: the reference. */
export interface ChargesOptions {
  readonly tokens?: Tokens;
  /** A `limit` above its maximum: 400 (the reference) or the maximum. */
  readonly limitAboveMax?: 'reject' | 'clamp';
  /** A charge id no charge has as `starting_after` or `ending_before`: placed, or a 400. */
  readonly unknownChargeKey?: 'place' | 'reject';
  /**
   * Where the page after `starting_after` starts among the ids (the reference: the first id
   * after it).
   */
  readonly startAfter?: (ids: readonly string[], after: string) => number;
  /**
   * The page for `ending_before`: 'before' (the reference: the `limit` ids right before it),
   * 'as-after' (the page after it), 'skip-adjacent' (the `limit` before the one right before).
   */
  readonly endingBefore?: 'before' | 'as-after' | 'skip-adjacent';
  /** has_more of a page before: 'exact' (items before it), or 'until-empty' (while it has items). */
  readonly beforeHasMore?: 'exact' | 'until-empty';
  readonly cursors?: CursorCodec;
  /** Whether a refunds cursor before a refund takes that refund in (the reference: no). */
  readonly beforeInclusive?: boolean;
  /**
   * How the refunds list says it ended: 'exact' (the reference), or 'trailing-cursor' (the last
   * page gives a next_cursor that leads to an empty page that says has_more: true).
   */
  readonly refundsEnd?: 'exact' | 'trailing-cursor';
}

/** The number of ids before `key` in code point order (ids are in that order). */
function countBefore(ids: readonly string[], key: string, inclusive = false): number {
  const index = ids.findIndex((id) => {
    const order = byCodePoints(id, key);
    return inclusive ? order > 0 : order >= 0;
  });
  return index === -1 ? ids.length : index;
}

/** The first id after `after` (ids are in code point order). */
export const standardStartAfter = (ids: readonly string[], after: string): number =>
  countBefore(ids, after, true);

// ---------------------------------------------------------------------------------------------
// The service

class ChargesService {
  readonly tokens: Tokens;
  private readonly data: ChargesData;
  private readonly chargeIds: ReadonlySet<string>;
  private readonly refundIds: ReadonlySet<string>;
  private readonly options: ChargesOptions;

  constructor(options: ChargesOptions, fixtures: string | undefined) {
    this.options = options;
    this.tokens = options.tokens ?? DEMO_TOKENS;
    this.data = loadCharges(fixtures);
    this.chargeIds = new Set(this.data.charges.map((charge) => charge.id));
    this.refundIds = new Set(this.data.refunds.map((refund) => refund.id));
  }

  problem(kind: ProblemKind, detail: string, extra: JsonObject = {}): Reply {
    const [status, title] = PROBLEMS[kind];
    return {
      status,
      headers: { 'content-type': PROBLEM_TYPE },
      body: { type: `urn:problem-type:stockmock:${kind}`, title, status, detail, ...extra },
    };
  }

  private invalid(errors: readonly ParameterError[]): Reply {
    const detail = errors.map((error) => `${error.parameter} ${error.message}`).join('; ');
    return this.problem('invalid-parameters', `Invalid parameters: ${detail}.`, { errors });
  }

  answer(request: IncomingMessage): Reply {
    try {
      return this.handle(request);
    } catch (error) {
      return this.problem('internal', `Unexpected error: ${String(error)}`);
    }
  }

  /** Order of checks (docs/behaviour.md): path, method, token, Accept, parameters. */
  private handle(request: IncomingMessage): Reply {
    const target = request.url ?? '/';
    const mark = target.indexOf('?');
    const rawPath = mark === -1 ? target : target.slice(0, mark);
    const query = mark === -1 ? '' : target.slice(mark + 1);
    // A trailing slash names the same resource (docs/behaviour.md, Surface).
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    if (path !== '/v1/charges' && path !== '/v1/refunds') {
      return this.problem('not-found', `Nothing is served at ${rawPath}.`);
    }
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      const reply = this.problem('method-not-allowed', `${path} answers ${ALLOW}, not ${method}.`);
      return { ...reply, headers: { ...reply.headers, allow: ALLOW } };
    }
    const refused = this.authenticate(request.headers.authorization);
    if (refused !== undefined) return refused;
    if (!acceptsJson(request.headers.accept)) {
      return this.problem('not-acceptable', 'Answers are application/json; Accept excludes it.');
    }
    return path === '/v1/charges' ? this.listCharges(query) : this.listRefunds(query);
  }

  /** RFC 6750 §2.1, the scheme in any case; another scheme counts as no token. */
  private authenticate(authorization: string | undefined): Reply | undefined {
    const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization ?? '');
    const token = match?.[1]?.toLowerCase() === 'bearer' ? match[2] : undefined;
    if (token === this.tokens.reader) return undefined;
    const reply =
      token === undefined
        ? this.problem('unauthorized', 'Send a bearer token: Authorization: Bearer <token>.')
        : this.problem('unauthorized', 'The bearer token is not one this service knows.');
    const challenge = `Bearer realm="stockmock"${token === undefined ? '' : ', error="invalid_token"'}`;
    return { ...reply, headers: { ...reply.headers, 'www-authenticate': challenge } };
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

  private limit(
    raw: (name: string) => string | undefined,
    bounds: { readonly default: number; readonly max: number },
    errors: ParameterError[],
  ): number {
    const clamp = this.options.limitAboveMax === 'clamp';
    return (
      this.read(
        raw,
        'limit',
        (text) => {
          const parsed = integerParameter(text, 1, clamp ? Number.MAX_SAFE_INTEGER : bounds.max);
          return parsed.ok && clamp ? ok(Math.min(parsed.value, bounds.max)) : parsed;
        },
        errors,
      ) ?? bounds.default
    );
  }

  private chargeKey(
    raw: (name: string) => string | undefined,
    name: string,
    errors: ParameterError[],
  ): string | undefined {
    const key = this.read(raw, name, textIn(1, 64), errors);
    if (key === undefined) return undefined;
    if ((this.options.unknownChargeKey ?? 'place') === 'reject' && !this.chargeIds.has(key)) {
      errors.push({ parameter: name, in: 'query', message: 'is not the id of a charge' });
      return undefined;
    }
    return key;
  }

  private listCharges(query: string): Reply {
    const errors: ParameterError[] = [];
    const raw = queryReader(
      query,
      ['customer', 'currency', 'starting_after', 'ending_before', 'limit'],
      errors,
    );
    const customer = this.read(
      raw,
      'customer',
      matching(CUSTOMER_ID, 'must be a customer id: cus_ and four lower-case letters or digits'),
      errors,
    );
    const currencyAsked = this.read(raw, 'currency', currency, errors);
    const after = this.chargeKey(raw, 'starting_after', errors);
    const before = this.chargeKey(raw, 'ending_before', errors);
    const limit = this.limit(raw, CHARGES_LIMIT, errors);
    if (raw('starting_after') !== undefined && raw('ending_before') !== undefined) {
      errors.push({
        parameter: 'ending_before',
        in: 'query',
        message: 'cannot be given with starting_after',
      });
    }
    if (errors.length > 0) return this.invalid(errors);
    const kept = this.data.charges.filter(
      (charge) =>
        (customer === undefined || charge.customer === customer) &&
        (currencyAsked === undefined || charge.currency === currencyAsked),
    );
    const ids = kept.map((charge) => charge.id);
    const page = (start: number, end: number): Json[] =>
      kept.slice(Math.max(0, start), Math.max(0, end)).map((charge) => charge.record);
    const startAfter = this.options.startAfter ?? standardStartAfter;
    const mode = this.options.endingBefore ?? 'before';
    if (before !== undefined && mode !== 'as-after') {
      let end = countBefore(ids, before);
      if (mode === 'skip-adjacent') end = Math.max(0, end - 1);
      const start = Math.max(0, end - limit);
      const data = page(start, end);
      const hasMore =
        (this.options.beforeHasMore ?? 'exact') === 'exact' ? start > 0 : data.length > 0;
      return json({ data, has_more: hasMore });
    }
    const key = after ?? before;
    const start = key === undefined ? 0 : startAfter(ids, key);
    return json({ data: page(start, start + limit), has_more: start + limit < ids.length });
  }

  private listRefunds(query: string): Reply {
    const errors: ParameterError[] = [];
    const raw = queryReader(query, ['cursor', 'limit'], errors);
    const cursor = this.read(raw, 'cursor', textIn(1, 200), errors);
    const limit = this.limit(raw, REFUNDS_LIMIT, errors);
    const codec = this.options.cursors ?? STANDARD_CURSORS;
    let position: RefundPosition | undefined;
    if (cursor !== undefined) {
      const decoded = codec.decode(cursor, (id) => this.refundIds.has(id));
      if (decoded.ok) position = decoded.value;
      else errors.push({ parameter: 'cursor', in: 'query', message: decoded.message });
    }
    if (errors.length > 0) return this.invalid(errors);
    const { refunds } = this.data;
    const ids = refunds.map((refund) => refund.id);
    let start: number;
    let end: number;
    if (position === undefined) {
      start = 0;
      end = Math.min(limit, ids.length);
    } else if (position.direction === 'after') {
      start = position.key === null ? 0 : standardStartAfter(ids, position.key);
      end = Math.min(start + limit, ids.length);
    } else {
      end =
        position.key === null
          ? ids.length
          : countBefore(ids, position.key, this.options.beforeInclusive === true);
      start = Math.max(0, end - limit);
    }
    const page = refunds.slice(start, end);
    const first = page[0]?.id;
    const last = page.at(-1)?.id;
    let next =
      end < ids.length && last !== undefined
        ? codec.encode({ direction: 'after', key: last })
        : null;
    const prev =
      start === 0 ? null : codec.encode({ direction: 'before', key: first ?? ids[end] ?? null });
    let hasMore = position?.direction === 'before' ? start > 0 : end < ids.length;
    if (this.options.refundsEnd === 'trailing-cursor') {
      if (last !== undefined && next === null)
        next = codec.encode({ direction: 'after', key: last });
      if (page.length === 0) hasMore = true;
    }
    return json({
      data: page.map((refund) => refund.record),
      next_cursor: next,
      prev_cursor: prev,
      has_more: hasMore,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

function send(request: IncomingMessage, response: ServerResponse, reply: Reply): void {
  const payload = reply.body === undefined ? undefined : JSON.stringify(reply.body);
  const headers: OutgoingHttpHeaders = { ...reply.headers };
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  response.writeHead(reply.status, headers);
  // HEAD: the status and headers of GET, no body (RFC 9110 §9.3.2).
  response.end(request.method === 'HEAD' ? undefined : payload);
}

/** Starts a charges server on 127.0.0.1, on a free port. */
export async function startChargesServer(
  options: ChargesOptions = {},
  start: StartOptions = {},
): Promise<RunningChargesServer> {
  const service = new ChargesService(options, start.fixtures);
  const listening = await listenOnLoopback((request, response) => {
    send(request, response, service.answer(request));
  });
  return { ...listening, tokens: service.tokens };
}

// ---------------------------------------------------------------------------------------------
// The reference and its variants

function server(
  name: string,
  kind: ChargesServer['kind'],
  level: ChargesServer['level'],
  rule: string,
  options: ChargesOptions = {},
): ChargesServer {
  return { name, kind, rule, level, start: (start) => startChargesServer(options, start) };
}

export const CHARGES_REFERENCE: ChargesServer = server(
  'reference',
  'reference',
  'interface',
  'test/contract/charges/openapi.yaml with its x-stockmock declarations as ' +
    'docs/declare-a-resource.md defines them (Paging: keys as cursors, previous cursors, ' +
    "Stripe's hasMore rule), and charges.yaml; docs/behaviour.md for problems (stockmock types, " +
    '400 with errors), 401 Bearer, 405 with Allow: GET, HEAD, 406, HEAD, unknown and repeated ' +
    'parameters 400; a charge id no charge has is placed in id order; refund cursors name their ' +
    'direction and the refund their page ends at, and the list ends exactly both ways',
);

const ENDING_BEFORE_RULE =
  'listCharges ending_before ("A charge\'s id; the page holds the charges right before it")';
const STARTING_AFTER_RULE =
  'listCharges starting_after ("A charge\'s id; the page holds the charges after it")';
const REFUNDS_CURSOR_RULE =
  'listRefunds cursor ("A next_cursor or prev_cursor a page gave"; docs: the page before ends ' +
  'right before the first item its page gave, next_cursor null on the last page)';

/** Each breaks one rule of the spec, and nothing else. */
const BROKEN: readonly ChargesServer[] = [
  server(
    'prev_cursor includes the first refund',
    'broken',
    'interface',
    `${REFUNDS_CURSOR_RULE}: the page before ends at the first refund of the page that gave the ` +
      'cursor instead of right before it, so a client walking back sees one refund twice per page',
    { beforeInclusive: true },
  ),
  server(
    'ending_before read as starting_after',
    'broken',
    'interface',
    `${ENDING_BEFORE_RULE}: ending_before gives the page after the charge, so a client paging ` +
      'back moves forward and never reaches the first charges',
    { endingBefore: 'as-after' },
  ),
  server(
    'ending_before skips the charge right before',
    'broken',
    'interface',
    `${ENDING_BEFORE_RULE}: the page is the limit charges before the one right before the id, ` +
      'so a client paging back misses one charge per page',
    { endingBefore: 'skip-adjacent' },
  ),
  server(
    'has_more before a page never false',
    'broken',
    'interface',
    'listCharges has_more ("Whether charges follow in the direction the page was asked for"): a ' +
      'page asked by ending_before says has_more: true whenever it holds charges, the first page ' +
      'too, so a client paging back while has_more asks once more past the start',
    { beforeHasMore: 'until-empty' },
  ),
  server(
    'starting_after repeats the cursor charge',
    'broken',
    'interface',
    `${STARTING_AFTER_RULE}: the page starts at the charge named instead of after it, so a ` +
      'client paging forward sees the last charge of each page again (and with limit=1 never ' +
      'gets past it)',
    {
      startAfter: (ids, after) => {
        const index = ids.findIndex((id) => byCodePoints(id, after) >= 0);
        return index === -1 ? ids.length : index;
      },
    },
  ),
  server(
    'refunds last page gives a cursor to an empty page that has more',
    'broken',
    'interface',
    `${REFUNDS_CURSOR_RULE}: the last page gives a next_cursor, which leads to an empty page ` +
      'that says has_more: true, so a client paging while next_cursor or has_more asks past the ' +
      'end and is told there is more',
    { refundsEnd: 'trailing-cursor' },
  ),
];

/** Correct services that decide otherwise where the spec (or stockmock's docs) leave room. */
const DIFFERENT: readonly ChargesServer[] = [
  server(
    'unknown charge id as a cursor is a 400',
    'different',
    'stand-in',
    'starting_after and ending_before are "A charge\'s id"; the spec does not say what a string ' +
      "that is no charge's id gives. Docs (keys as cursors) place it in key order; here it is a " +
      '400 problem naming the parameter, as Stripe answers',
    { unknownChargeKey: 'reject' },
  ),
  server(
    'refund cursor is the refund id',
    'different',
    'interface',
    'the cursor is opaque (spec: a string of 1 to 200 characters): here base64url of the refund ' +
      'id the page ends at (`-` before it for the page before); any refund id is a place to ' +
      'start, anything else a 400',
    { cursors: PLAIN_ID_CURSORS },
  ),
  server(
    'limit above the maximum clamped',
    'different',
    'stand-in',
    'listCharges limit (maximum 100) and listRefunds limit (maximum 50): a larger one is served ' +
      'as the maximum, as many APIs do; docs/behaviour.md and PRODUCT.md refuse it with a 400',
    { limitAboveMax: 'clamp' },
  ),
];

export const CHARGES_VARIANTS: readonly ChargesServer[] = [...BROKEN, ...DIFFERENT];
