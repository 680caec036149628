/**
 * Servers for the billing example (examples/billing/openapi.yaml), written from the spec, its
 * `x-stockmock` declarations, billing.yaml and the docs (declare-a-resource, behaviour,
 * PRODUCT.md) alone, on plain node:http. One service answers as the reference; each variant plugs
 * one hook into it, so that it differs from the reference in exactly one thing.
 *
 * The reference is the billing service as the spec and stockmock's docs define it: invoices in a
 * `{items, meta, links}` envelope, sorted by a `sort` parameter (default `-issued_at`, ties by id
 * ascending, in code points); invoices found by their code as bare records; customers as a bare
 * array with an RFC 8288 `Link` header, and `{data}` for one, through each level's view. Errors
 * are RFC 9457 problems with stockmock's problem types and realm, so that the reference also keeps
 * the stand-in's decisions (docs/behaviour.md).
 */
import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parse } from 'yaml';

export interface BillingServer {
  readonly name: string;
  readonly kind: 'reference' | 'broken' | 'different';
  /** The rule broken (and how a client suffers), or the choice made, with its source. */
  readonly rule: string;
  /**
   * 'interface': breaks (or, for 'different', chooses within) what the spec or HTTP declares;
   * 'stand-in': departs from a decision of stockmock's docs (docs/behaviour.md,
   * docs/declare-a-resource.md) only.
   */
  readonly level: 'interface' | 'stand-in';
  /** Starts it on 127.0.0.1, a free port; `fixtures` replaces examples/billing/billing.yaml. */
  start(options?: StartOptions): Promise<RunningBillingServer>;
}

export interface StartOptions {
  /** A fixture file shaped as billing.yaml (customers and invoices). */
  readonly fixtures?: string;
}

export interface RunningBillingServer {
  readonly url: string;
  readonly tokens: Tokens;
  close(): Promise<void>;
}

export interface Tokens {
  readonly support: string;
  readonly partner: string;
}

export type Level = keyof Tokens;

export type Json = null | boolean | number | string | readonly Json[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: Json;
}

// ---------------------------------------------------------------------------------------------
// Values: dates, instants, text

/** RFC 3339 full-date (`format: date`): YYYY-MM-DD, a day the calendar has. */
export function isFullDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  return isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** Days since 1970-01-01 of a proleptic Gregorian day (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/**
 * A point in time, exactly: whole seconds since the epoch and the decimal digits of the second's
 * fraction (no trailing zeros), so that 10:00:00.0001Z is after 10:00:00Z. `text` is what was
 * written.
 */
export interface Instant {
  readonly text: string;
  readonly seconds: number;
  readonly fraction: string;
}

/** RFC 3339 date-time (`format: date-time`), with its offset; undefined when it is not one. */
export function parseDateTime(text: string): Instant | undefined {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(
      text,
    );
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(match[i]),
  ) as [number, number, number, number, number, number];
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59 || second > 60) {
    return undefined;
  }
  let offset = 0;
  if (match[8] === undefined) {
    const offsetHours = Number(match[10]);
    const offsetMinutes = Number(match[11]);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    offset = (match[9] === '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  }
  const seconds =
    daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  return { text, seconds, fraction: (match[7] ?? '').replace(/0+$/, '') };
}

/** A day alone as its first instant in UTC (docs/declare-a-resource.md). */
export function dayStart(day: string): Instant {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return { text: day, seconds: daysFromCivil(year, month, date) * 86400, fraction: '' };
}

export function compareInstants(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds - b.seconds;
  const width = Math.max(a.fraction.length, b.fraction.length);
  return byCodeUnits(a.fraction.padEnd(width, '0'), b.fraction.padEnd(width, '0'));
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Text by Unicode code point (not UTF-16 code unit: U+FF5E sorts before U+1F600). */
export function byCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(j) ?? 0;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - i - (b.length - j);
}

/** Unicode-aware caseless form: NFC first, so that composed and decomposed letters match. */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

// ---------------------------------------------------------------------------------------------
// Data

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const BILLING_FIXTURE = resolve(REPO_ROOT, 'examples/billing/billing.yaml');

/** examples/billing/stockmock.config.yaml `tokens`. */
export const DEMO_TOKENS: Tokens = { support: 'support-demo-token', partner: 'partner-demo-token' };

/** components.schemas.InvoiceStatus. */
export const STATUSES = ['draft', 'open', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof STATUSES)[number];
const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;

export function isStatus(value: unknown): value is InvoiceStatus {
  return STATUSES.some((status) => status === value);
}

/** components.schemas.InvoiceId. */
const INVOICE_ID = /^inv_[0-9a-z]{6}$/;
/** `format: uuid` (RFC 9562 §4: hex digits in either case). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** components.schemas.Country. */
const COUNTRY = /^[A-Z]{2}$/;

export interface Invoice {
  readonly id: string;
  readonly customerId: string;
  readonly status: InvoiceStatus;
  readonly amount: number;
  readonly issuedAt: Instant;
  readonly dueOn: string;
  readonly recurring: boolean;
  /** The record as served: its declared fields, in their declared order. */
  readonly record: JsonObject;
}

export interface Customer {
  readonly id: string;
  readonly name: string;
  readonly country: string;
  readonly createdAt: Instant;
  readonly record: JsonObject;
}

/** x-stockmock-collections.*.record properties, in their declared order. */
const INVOICE_FIELDS = [
  'id',
  'customer_id',
  'status',
  'amount',
  'currency',
  'issued_at',
  'due_on',
  'recurring',
  'memo',
] as const;
const CUSTOMER_FIELDS = ['id', 'name', 'email', 'country', 'created_at', 'vat_number'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Array.isArray does not narrow a readonly array out of a union: test for an object instead. */
export function isJsonObject(value: Json | undefined): value is JsonObject {
  return isRecord(value);
}

/** The entry's declared fields, in their declared order; an undeclared one is an error. */
function declared(entry: Record<string, unknown>, fields: readonly string[], where: string) {
  const extra = Object.keys(entry).filter((key) => !fields.includes(key));
  if (extra.length > 0) throw new Error(`${where}: undeclared fields ${extra.join(', ')}`);
  const record: Record<string, Json> = {};
  for (const field of fields) {
    const value = entry[field];
    if (value === undefined) continue;
    if (
      value !== null &&
      typeof value !== 'string' &&
      typeof value !== 'boolean' &&
      !(typeof value === 'number' && Number.isFinite(value))
    ) {
      throw new Error(`${where}.${field}: not a JSON scalar`);
    }
    record[field] = value;
  }
  return record;
}

function text(entry: Record<string, unknown>, field: string, where: string): string {
  const value = entry[field];
  if (typeof value !== 'string' || value === '') {
    throw new Error(`${where}.${field}: not a non-empty string`);
  }
  return value;
}

function toCustomer(entry: unknown, where: string): Customer {
  if (!isRecord(entry)) throw new Error(`${where}: not an object`);
  const record = declared(entry, CUSTOMER_FIELDS, where);
  const id = text(entry, 'id', where);
  if (!UUID.test(id)) throw new Error(`${where}.id: not a uuid`);
  const name = text(entry, 'name', where);
  text(entry, 'email', where);
  const country = text(entry, 'country', where);
  if (!COUNTRY.test(country)) throw new Error(`${where}.country: not two capitals`);
  const createdAt = parseDateTime(text(entry, 'created_at', where));
  if (createdAt === undefined) throw new Error(`${where}.created_at: not a date-time`);
  if (entry['vat_number'] !== undefined) text(entry, 'vat_number', where);
  return { id, name, country, createdAt, record };
}

function toInvoice(entry: unknown, where: string, customers: ReadonlySet<string>): Invoice {
  if (!isRecord(entry)) throw new Error(`${where}: not an object`);
  const record = declared(entry, INVOICE_FIELDS, where);
  const id = text(entry, 'id', where);
  if (!INVOICE_ID.test(id)) throw new Error(`${where}.id: not an invoice id`);
  const customerId = text(entry, 'customer_id', where);
  // references: { customer_id: customers }
  if (!customers.has(customerId)) throw new Error(`${where}.customer_id: no such customer`);
  const status = entry['status'];
  if (!isStatus(status)) throw new Error(`${where}.status: not one of ${STATUSES.join(', ')}`);
  const amount = entry['amount'];
  if (typeof amount !== 'number' || !(amount >= 0 && amount <= 1_000_000)) {
    throw new Error(`${where}.amount: not a number in 0..1000000`);
  }
  if (!CURRENCIES.some((currency) => currency === entry['currency'])) {
    throw new Error(`${where}.currency: not one of ${CURRENCIES.join(', ')}`);
  }
  const issuedAt = parseDateTime(text(entry, 'issued_at', where));
  if (issuedAt === undefined) throw new Error(`${where}.issued_at: not a date-time`);
  const dueOn = text(entry, 'due_on', where);
  if (!isFullDate(dueOn)) throw new Error(`${where}.due_on: not a date`);
  const recurring = entry['recurring'];
  if (typeof recurring !== 'boolean') throw new Error(`${where}.recurring: not a boolean`);
  return { id, customerId, status, amount, issuedAt, dueOn, recurring, record };
}

export interface Billing {
  /** In key order: ids by code point. */
  readonly customers: readonly Customer[];
  readonly invoices: readonly Invoice[];
}

/** The customers and invoices of a fixture file (examples/billing/billing.yaml by default). */
export function loadBilling(file = BILLING_FIXTURE): Billing {
  const document: unknown = parse(readFileSync(file, 'utf8'));
  if (!isRecord(document)) throw new Error(`${file}: not a mapping`);
  const customerList = document['customers'] ?? [];
  const invoiceList = document['invoices'] ?? [];
  if (!Array.isArray(customerList)) throw new Error(`${file}: customers is not a list`);
  if (!Array.isArray(invoiceList)) throw new Error(`${file}: invoices is not a list`);
  const customers = customerList.map((entry, i) => toCustomer(entry, `${file}: customers[${i}]`));
  const keys = new Set(customers.map((customer) => customer.id));
  if (keys.size !== customers.length) throw new Error(`${file}: two customers share an id`);
  const invoices = invoiceList.map((entry, i) => toInvoice(entry, `${file}: invoices[${i}]`, keys));
  if (new Set(invoices.map((invoice) => invoice.id)).size !== invoices.length) {
    throw new Error(`${file}: two invoices share an id`);
  }
  return {
    customers: customers.sort((a, b) => byCodePoints(a.id, b.id)),
    invoices: invoices.sort((a, b) => byCodePoints(a.id, b.id)),
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

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): Parsed<never> => ({ ok: false, message });

/**
 * A query string as name/value pairs, decoded as application/x-www-form-urlencoded (`+` is a
 * space); a name or value that is not valid percent-encoded UTF-8 is an error.
 */
function readPairs(search: string, errors: ParameterError[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (const part of search.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    const rawValue = equals === -1 ? '' : part.slice(equals + 1);
    const name = decodeForm(rawName);
    const value = decodeForm(rawValue);
    if (name === undefined || value === undefined) {
      errors.push({
        parameter: name ?? rawName,
        in: 'query',
        message: 'is not valid percent-encoded UTF-8',
      });
      continue;
    }
    pairs.push([name, value]);
  }
  return pairs;
}

function decodeForm(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * Every parameter is single-valued (status too: its values are comma-separated, `explode:
 * false`): a repeated one is an error, and so is an unknown one when `unknown` is 'reject'.
 * Returns a reader of one parameter's value.
 */
function singleValues(
  pairs: readonly [string, string][],
  allowed: readonly string[],
  unknown: 'reject' | 'ignore',
  errors: ParameterError[],
): (name: string) => string | undefined {
  const seen = new Map<string, string>();
  const repeated = new Set<string>();
  for (const [name, value] of pairs) {
    if (!allowed.includes(name)) {
      if (unknown === 'reject' && !seen.has(name)) {
        errors.push({
          parameter: name,
          in: 'query',
          message: 'is not a parameter of this operation',
        });
      }
    } else if (seen.has(name) && !repeated.has(name)) {
      repeated.add(name);
      errors.push({ parameter: name, in: 'query', message: 'must be given at most once' });
    }
    if (!seen.has(name)) seen.set(name, value);
  }
  return (name) => (allowed.includes(name) && !repeated.has(name) ? seen.get(name) : undefined);
}

function integerIn(raw: string, min: number, max: number): Parsed<number> {
  // Digits only: "1.5", "1e1", "+3", " 3" and "0x10" are not integers a client meant.
  if (!/^-?\d+$/.test(raw)) return fail(`must be an integer, not "${raw}"`);
  const value = Number(raw);
  if (value < min) return fail(`must be >= ${min}`);
  if (value > max) return fail(`must be <= ${max}`);
  return ok(value);
}

/** `type: number`: a decimal as JSON writes it (99.99, 1e3), at least `min`. */
function numberAtLeast(raw: string, min: number): Parsed<number> {
  if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(raw)) {
    return fail(`must be a number, not "${raw}"`);
  }
  const value = Number(raw);
  if (!Number.isFinite(value)) return fail('must be a finite number');
  if (value < min) return fail(`must be >= ${min}`);
  return ok(value);
}

function dateTime(raw: string): Parsed<Instant> {
  const instant = parseDateTime(raw);
  return instant === undefined
    ? fail('must be an RFC 3339 date-time, such as 2024-03-01T10:00:00+02:00')
    : ok(instant);
}

function fullDate(raw: string): Parsed<string> {
  return isFullDate(raw) ? ok(raw) : fail('must be an RFC 3339 date, YYYY-MM-DD');
}

function standardBoolean(raw: string): Parsed<boolean> {
  if (raw === 'true') return ok(true);
  if (raw === 'false') return ok(false);
  return fail('must be true or false');
}

function uuid(raw: string): Parsed<string> {
  return UUID.test(raw) ? ok(raw) : fail('must be a UUID');
}

function statuses(raw: string): Parsed<readonly InvoiceStatus[]> {
  // explode: false: comma-separated; minItems: 1.
  const items = raw.split(',');
  const values: InvoiceStatus[] = [];
  for (const [i, item] of items.entries()) {
    if (!isStatus(item)) {
      return fail(`item ${i + 1} ("${item}") must be one of ${STATUSES.join(', ')}`);
    }
    values.push(item);
  }
  return ok(values);
}

export interface SortKey {
  readonly field: string;
  readonly descending: boolean;
}

/** The sort parameter as keys; `fields` are the ones it may order by. */
function sortKeys(
  raw: string,
  fields: readonly string[],
  unknownFields: 'reject' | 'ignore' | 'throw',
): Parsed<readonly SortKey[]> {
  if (!/^-?[a-z_]+(,-?[a-z_]+)*$/.test(raw)) {
    return fail('must be fields, comma-separated, each with an optional leading -');
  }
  const keys: SortKey[] = [];
  for (const part of raw.split(',')) {
    const descending = part.startsWith('-');
    const field = descending ? part.slice(1) : part;
    if (!fields.includes(field)) {
      if (unknownFields === 'ignore') continue;
      // As code that looks the field's comparer up and calls it does.
      if (unknownFields === 'throw') throw new TypeError(`comparers.${field} is not a function`);
      return fail(`cannot order by ${field}: one of ${fields.join(', ')}`);
    }
    if (keys.some((key) => key.field === field)) return fail(`names ${field} twice`);
    keys.push({ field, descending });
  }
  return ok(keys);
}

// ---------------------------------------------------------------------------------------------
// Filters

export interface InvoiceFilters {
  readonly status?: readonly InvoiceStatus[];
  readonly customer_id?: string;
  readonly amount_min?: number;
  readonly amount_max?: number;
  readonly issued_after?: Instant;
  readonly due_before?: string;
  readonly recurring?: boolean;
}

export interface CustomerFilters {
  readonly country?: string;
  readonly q?: string;
  readonly created_after?: Instant;
}

export type Matchers<Filters, Item> = {
  readonly [K in keyof Filters]-?: (item: Item, value: NonNullable<Filters[K]>) => boolean;
};

/** listInvoices' `x-stockmock.filters`, as docs/declare-a-resource.md defines each match. */
export const INVOICE_MATCHERS: Matchers<InvoiceFilters, Invoice> = {
  // exact, an array parameter: equal to any of its items.
  status: (invoice, values) => values.includes(invoice.status),
  customer_id: (invoice, value) => invoice.customerId === value,
  // min and max: inclusive.
  amount_min: (invoice, value) => invoice.amount >= value,
  amount_max: (invoice, value) => invoice.amount <= value,
  // "Issued at or after this instant": compared as instants.
  issued_after: (invoice, value) => compareInstants(invoice.issuedAt, value) >= 0,
  // "Due on or before this day": a day as max takes in the whole day.
  due_before: (invoice, value) => byCodeUnits(invoice.dueOn, value) <= 0,
  recurring: (invoice, value) => invoice.recurring === value,
};

/** listCustomers' `x-stockmock.filters`. */
export const CUSTOMER_MATCHERS: Matchers<CustomerFilters, Customer> = {
  country: (customer, value) => customer.country === value,
  // "Case-insensitive, literal substring of the customer's name".
  q: (customer, value) => foldCase(customer.name).includes(foldCase(value)),
  created_after: (customer, value) => compareInstants(customer.createdAt, value) >= 0,
};

/**
 * Whether an item passes every given filter: `passes(name)` is the filter's verdict, undefined
 * when the request does not give it. The reference: AND.
 */
export type Combine = (passes: (name: string) => boolean | undefined) => boolean;

const allOf =
  (names: readonly string[]): Combine =>
  (passes) =>
    names.every((name) => passes(name) !== false);

function verdict<Filters extends object, Item>(
  item: Item,
  filters: Filters,
  matchers: Matchers<Filters, Item>,
): (name: string) => boolean | undefined {
  return (name) => {
    const value = (filters as Record<string, unknown>)[name];
    if (value === undefined) return undefined;
    const matcher = (matchers as Record<string, (item: Item, value: unknown) => boolean>)[name];
    return matcher?.(item, value);
  };
}

// ---------------------------------------------------------------------------------------------
// Sorting

export type Comparers<Item> = Readonly<Record<string, (a: Item, b: Item) => number>>;

/** listInvoices' sort fields: numbers by value, dates as instants, text by code point. */
export const INVOICE_COMPARERS: Comparers<Invoice> = {
  issued_at: (a, b) => compareInstants(a.issuedAt, b.issuedAt),
  amount: (a, b) => a.amount - b.amount,
  due_on: (a, b) => byCodeUnits(a.dueOn, b.dueOn),
  status: (a, b) => byCodePoints(a.status, b.status),
};

export const CUSTOMER_COMPARERS: Comparers<Customer> = {
  name: (a, b) => byCodePoints(a.name, b.name),
  created_at: (a, b) => compareInstants(a.createdAt, b.createdAt),
};

const INVOICE_SORT_FIELDS = ['issued_at', 'amount', 'due_on', 'status'];
const CUSTOMER_SORTS = ['name', '-name', 'created_at', '-created_at'];
const DEFAULT_INVOICE_SORT: readonly SortKey[] = [{ field: 'issued_at', descending: true }];

function comparator<Item extends { readonly id: string }>(
  keys: readonly SortKey[],
  comparers: Comparers<Item>,
  tieBreak: (a: string, b: string) => number,
): (a: Item, b: Item) => number {
  return (a, b) => {
    for (const key of keys) {
      const compare = comparers[key.field];
      const order = compare === undefined ? 0 : compare(a, b);
      if (order !== 0) return key.descending ? -order : order;
    }
    // "Ties keep the invoice id's order": the key's, ascending, in either direction.
    return tieBreak(a.id, b.id);
  };
}

// ---------------------------------------------------------------------------------------------
// Pages and links

export type Operation = 'listInvoices' | 'getInvoice' | 'listCustomers' | 'getCustomer';
export type LinkRelation = 'first' | 'last' | 'prev' | 'next';

/** A link's query parameter and its items (several: comma-separated, as `explode: false`). */
export type LinkPair = readonly [string, readonly string[]];

export interface LinkContext {
  readonly operation: Operation;
  readonly relation: LinkRelation;
  /** The page asked for. */
  readonly page: number;
}

export interface Link {
  readonly relation: LinkRelation;
  readonly url: string;
}

/** The number of pages: max(1, ceil(total / limit)). */
export function standardLastPage(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

/** RFC 8288 §3: `<URI>; rel="first", <URI>; rel="last"`, then prev and next where they exist. */
function standardLinkHeader(links: readonly Link[]): string {
  return links.map((link) => `<${link.url}>; rel="${link.relation}"`).join(', ');
}

/** limit: 1..50, default 20 (components.parameters.Limit). */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 50;

// ---------------------------------------------------------------------------------------------
// Views

export interface ViewContext {
  readonly level: Level;
  readonly place: 'list' | 'item';
  /** Whether the list request gave a filter (sort, limit and page are none); an item: false. */
  readonly filtered: boolean;
  /** Whether the list request gave sort; an item: false. */
  readonly sorted: boolean;
  /** The request's method (GET or HEAD). */
  readonly method: string;
}

/** listCustomers and getCustomer `views`: support { rest: true }; partner id, name, country. */
export function standardCustomerView(customer: Customer, level: Level): JsonObject {
  if (level === 'support') return customer.record;
  const { id, name, country } = customer;
  return { id, name, country };
}

// ---------------------------------------------------------------------------------------------
// Replies

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: Json;
}

export interface ReplyContext {
  /** The operation; undefined for an unknown path, a 405 and OPTIONS. */
  readonly operation: Operation | undefined;
  readonly method: string;
  /** The request target as sent (path and query). */
  readonly target: string;
}

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

const PROBLEMS = {
  'invalid-parameters': [400, 'Invalid parameters'],
  unauthorized: [401, 'Unauthorized'],
  forbidden: [403, 'Forbidden'],
  'not-found': [404, 'Not found'],
  'method-not-allowed': [405, 'Method not allowed'],
  'not-acceptable': [406, 'Not acceptable'],
  internal: [500, 'Internal error'],
} as const;
type ProblemKind = keyof typeof PROBLEMS;

/** RFC 9457 problem details, with stockmock's problem types (docs/behaviour.md). */
export function problem(kind: ProblemKind, detail: string, extra: JsonObject = {}): Reply {
  const [status, title] = PROBLEMS[kind];
  return {
    status,
    headers: { 'content-type': PROBLEM_TYPE },
    body: { type: `urn:problem-type:stockmock:${kind}`, title, status, detail, ...extra },
  };
}

function badRequest(errors: readonly ParameterError[]): Reply {
  const detail = errors.map((e) => `${e.parameter} ${e.message}`).join('; ');
  return problem('invalid-parameters', `Invalid parameters: ${detail}.`, { errors });
}

function json(
  status: number,
  body: Json,
  headers: Readonly<Record<string, string | readonly string[]>> = {},
): Reply {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body };
}

function withHeaders(
  reply: Reply,
  headers: Readonly<Record<string, string | readonly string[]>>,
): Reply {
  return { ...reply, headers: { ...reply.headers, ...headers } };
}

export type AuthOutcome =
  { readonly kind: 'level'; readonly level: Level } | { readonly kind: 'missing' | 'invalid' };

/** RFC 6750 §2.1: `Bearer <token>`, the scheme case-insensitive; another scheme is no token. */
export function authenticateBearer(authorization: string | undefined, tokens: Tokens): AuthOutcome {
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(authorization ?? '');
  if (match?.[1]?.toLowerCase() !== 'bearer') return { kind: 'missing' };
  const token = match[2];
  if (token === tokens.support) return { kind: 'level', level: 'support' };
  if (token === tokens.partner) return { kind: 'level', level: 'partner' };
  return { kind: 'invalid' };
}

function unauthorized(tokenGiven: boolean): Reply {
  const reply = tokenGiven
    ? problem('unauthorized', 'The bearer token is not known.')
    : problem('unauthorized', 'Send a token: Authorization: Bearer <token>.');
  const challenge = `Bearer realm="stockmock"${tokenGiven ? ', error="invalid_token"' : ''}`;
  return withHeaders(reply, { 'www-authenticate': challenge });
}

/**
 * RFC 9110 §12.5.1: absent, or any list whose most specific range matching application/json has
 * a q above 0; media types compared case-insensitively (RFC 9110 §8.3.1).
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  let best: { specificity: number; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const [type, subtype, more] = range.toLowerCase().split('/');
    if (type === undefined || subtype === undefined || more !== undefined) continue;
    let specificity: number;
    if (type === 'application' && subtype === 'json') specificity = 2;
    else if (type === 'application' && subtype === '*') specificity = 1;
    else if (type === '*' && subtype === '*') specificity = 0;
    else continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=').map((piece) => piece.trim());
      if (key.toLowerCase() === 'q') {
        const weight = Number(value);
        q = value !== '' && Number.isFinite(weight) ? weight : 1;
      }
    }
    if (best === undefined || specificity > best.specificity) best = { specificity, q };
    else if (specificity === best.specificity) best = { specificity, q: Math.max(q, best.q) };
  }
  return best !== undefined && best.q > 0;
}

// ---------------------------------------------------------------------------------------------
// The service

type Route =
  | { readonly kind: 'invoices' | 'customers' }
  | { readonly kind: 'invoice' | 'customer'; readonly segment: string };

const ALLOW = 'GET, HEAD, OPTIONS';

/** A trailing slash names the same resource (docs/behaviour.md, Surface). */
function matchRoute(pathname: string): Route | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (path === '/v1/invoices') return { kind: 'invoices' };
  if (path === '/v1/customers') return { kind: 'customers' };
  const invoice = /^\/v1\/invoices\/([^/]+)$/.exec(path)?.[1];
  if (invoice !== undefined) return { kind: 'invoice', segment: invoice };
  const customer = /^\/v1\/customers\/([^/]+)$/.exec(path)?.[1];
  if (customer !== undefined) return { kind: 'customer', segment: customer };
  return undefined;
}

const OPERATIONS: Readonly<Record<Route['kind'], Operation>> = {
  invoices: 'listInvoices',
  invoice: 'getInvoice',
  customers: 'listCustomers',
  customer: 'getCustomer',
};

/** The list parameters each list declares, in the spec's order. */
const INVOICE_FILTERS = [
  'status',
  'customer_id',
  'amount_min',
  'amount_max',
  'issued_after',
  'due_before',
  'recurring',
] as const;
const CUSTOMER_FILTERS = ['country', 'q', 'created_after'] as const;

/**
 * What a variant changes. Each hook gets the reference's behaviour (or its inputs) and returns
 * its replacement; no hook: the reference.
 */
export interface BillingOptions {
  readonly tokens?: Tokens;
  /** Replaces how some filters test an item. */
  readonly invoiceMatchers?: Partial<Matchers<InvoiceFilters, Invoice>>;
  readonly customerMatchers?: Partial<Matchers<CustomerFilters, Customer>>;
  /** The invoice filters applied, from those read (and the raw values); links keep the raw ones. */
  readonly invoiceFiltersOf?: (
    filters: InvoiceFilters,
    raw: (name: string) => string | undefined,
  ) => InvoiceFilters;
  /** How the given invoice filters combine (the reference: AND). */
  readonly combineInvoiceFilters?: Combine;
  /** How `recurring` is read (the reference: `true` or `false`). */
  readonly parseBoolean?: (raw: string) => Parsed<boolean>;
  /** How `issued_after` and `created_after` are read (the reference: RFC 3339 date-times). */
  readonly parseDateTimeParameter?: (raw: string) => Parsed<Instant>;
  /**
   * listInvoices' sort fields not listed: refused (the reference), dropped, or a TypeError thrown
   * (a 500 problem).
   */
  readonly unknownSortFields?: 'reject' | 'ignore' | 'throw';
  /** The sort keys applied, from the ones read. */
  readonly sortKeysOf?: (keys: readonly SortKey[], operation: Operation) => readonly SortKey[];
  /** listInvoices' order without a sort parameter (the reference: -issued_at). */
  readonly defaultInvoiceSort?: readonly SortKey[];
  readonly invoiceComparers?: Partial<Comparers<Invoice>>;
  readonly customerComparers?: Partial<Comparers<Customer>>;
  /** The order of ties, by id (the reference: code points, ascending). */
  readonly tieBreak?: (a: string, b: string) => number;
  /** Sorts each page of the key-ordered list instead of the whole list. */
  readonly sortPerPage?: boolean;
  readonly defaultLimit?: number;
  readonly maxLimit?: number;
  /** The number of pages of a list (the reference: max(1, ceil(total / limit))). */
  readonly lastPage?: (total: number, limit: number, operation: Operation) => number;
  /** A page past the last: 200 and no items (the reference), or a 404 problem. */
  readonly pastTheEnd?: 'empty' | 'not-found' | 'bad-request';
  /** A link's query, page included, from the reference's one (filters, sort, limit, page). */
  readonly linkQuery?: (pairs: readonly LinkPair[], context: LinkContext) => readonly LinkPair[];
  /** How a link encodes each value (the reference: encodeURIComponent). */
  readonly encodeLinkValue?: (value: string) => string;
  /** Whether links write the default limit when the request left it out (the reference: yes). */
  readonly linkDefaultLimit?: boolean;
  /** Whether links write listInvoices' default sort when none was asked (the reference: no). */
  readonly linkDefaultSort?: boolean;
  /** listCustomers' Link header field(s), from its links (absolute) and the request's target. */
  readonly linkHeader?: (
    links: readonly Link[],
    request: { readonly origin: string; readonly target: string },
  ) => string | readonly string[];
  /**
   * listInvoices' meta.total, from the filters applied and a count of the invoices that filters
   * keep (the reference: `count(filters)`, the number the items are paged from).
   */
  readonly invoiceTotal?: (
    filters: InvoiceFilters,
    count: (filters: InvoiceFilters) => number,
  ) => number;
  /** Extra headers of a list's answer. */
  readonly listHeaders?: (operation: Operation, total: number) => Record<string, string>;
  /** A customer as a level sees it, from the reference's view. */
  readonly customerView?: (
    customer: Customer,
    context: ViewContext,
    standard: JsonObject,
  ) => JsonObject;
  /**
   * An item's path segment as read, before it is validated (the reference: percent-decoded as
   * UTF-8; undefined, a malformed escape, is a 400).
   */
  readonly decodeItemSegment?: (
    segment: string,
    operation: 'getInvoice' | 'getCustomer',
  ) => string | undefined;
  /** An invoice id from the path's (decoded) segment; undefined: not an id (400). */
  readonly invoiceIdOf?: (segment: string) => string | undefined;
  /** The key a customer is looked up by, from a valid UUID (the reference: the text itself). */
  readonly customerKeyOf?: (id: string) => string;
  /** The path routed, from the request's (the reference: itself); undefined: no resource (404). */
  readonly routePath?: (pathname: string) => string | undefined;
  /** The level an Authorization header gives (the reference: authenticateBearer). */
  readonly authenticate?: (authorization: string | undefined, tokens: Tokens) => AuthOutcome;
  /** Whether an Accept header admits application/json (the reference: acceptsJson). */
  readonly accepts?: (accept: string | undefined) => boolean;
  /** Whether a level is refused an operation with a 403 (the reference: never). */
  readonly forbidden?: (operation: Operation, level: Level) => boolean;
  /** Rewrites every reply just before it is sent. */
  readonly rewrite?: (reply: Reply, context: ReplyContext) => Reply;
}

/** CORS on every answer: any origin; the headers a client needs to read are exposed. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Link, WWW-Authenticate, Allow',
};

/** Who asks, and how: a customer's view depends on both. */
interface Caller {
  readonly level: Level;
  readonly method: string;
}

interface Answered {
  readonly operation: Operation | undefined;
  readonly reply: Reply;
}

interface ListPlan<Filters> {
  readonly filters: Filters;
  /** The filters as the request wrote them, in the spec's order: the links keep them. */
  readonly given: readonly LinkPair[];
  readonly sort: readonly SortKey[];
  readonly sortGiven: string | undefined;
  readonly limit: number;
  readonly limitGiven: boolean;
  readonly page: number;
}

interface Page<Item> {
  readonly items: readonly Item[];
  readonly total: number;
  readonly links: readonly Link[];
  readonly linkObject: { first: string; last: string; prev: string | null; next: string | null };
}

class BillingService {
  readonly tokens: Tokens;
  private readonly data: Billing;
  private readonly invoicesById: ReadonlyMap<string, Invoice>;
  private readonly customersById: ReadonlyMap<string, Customer>;
  private readonly options: BillingOptions;

  constructor(options: BillingOptions, fixtures: string | undefined) {
    this.options = options;
    this.tokens = options.tokens ?? DEMO_TOKENS;
    this.data = loadBilling(fixtures);
    this.invoicesById = new Map(this.data.invoices.map((invoice) => [invoice.id, invoice]));
    this.customersById = new Map(this.data.customers.map((customer) => [customer.id, customer]));
  }

  /** Answers one request; an unexpected error is a 500 problem, as in a real service. */
  answer(request: IncomingMessage, origin: string): Answered {
    let answered: Answered;
    try {
      answered = this.handle(request, origin);
    } catch (error) {
      answered = {
        operation: undefined,
        reply: problem('internal', `Unexpected error: ${String(error)}`),
      };
    }
    let reply = withHeaders(answered.reply, CORS_HEADERS);
    const rewrite = this.options.rewrite;
    if (rewrite !== undefined) {
      reply = rewrite(reply, {
        operation: answered.operation,
        method: request.method ?? 'GET',
        target: request.url ?? '/',
      });
    }
    return { operation: answered.operation, reply };
  }

  private handle(request: IncomingMessage, origin: string): Answered {
    const raw = request.url ?? '/';
    const none = (reply: Reply): Answered => ({ operation: undefined, reply });
    let url: URL;
    try {
      // Concatenate rather than resolve: a path such as //x must stay a path, not become a host.
      url = new URL(raw.startsWith('/') ? `http://placeholder${raw}` : raw, 'http://placeholder');
    } catch {
      return none(problem('invalid-parameters', 'The request target is not a URL.'));
    }
    const routed = this.options.routePath ? this.options.routePath(url.pathname) : url.pathname;
    const route = routed === undefined ? undefined : matchRoute(routed);
    if (route === undefined) {
      return none(problem('not-found', `No resource has the path ${url.pathname}.`));
    }
    const method = request.method ?? 'GET';
    if (method === 'OPTIONS') return none(preflight(request));
    if (method !== 'GET' && method !== 'HEAD') {
      const reply = problem(
        'method-not-allowed',
        `${url.pathname} supports ${ALLOW}, not ${method}.`,
      );
      return none(withHeaders(reply, { allow: ALLOW }));
    }
    const operation = OPERATIONS[route.kind];
    const answered = (reply: Reply): Answered => ({ operation, reply });
    const outcome = (this.options.authenticate ?? authenticateBearer)(
      request.headers.authorization,
      this.tokens,
    );
    if (outcome.kind !== 'level') return answered(unauthorized(outcome.kind === 'invalid'));
    const level = outcome.level;
    if (this.options.forbidden?.(operation, level) === true) {
      return answered(problem('forbidden', `The ${level} level may not call ${operation}.`));
    }
    if (!(this.options.accepts ?? acceptsJson)(request.headers.accept)) {
      return answered(
        problem('not-acceptable', 'Answers are application/json; Accept excludes it.'),
      );
    }
    const errors: ParameterError[] = [];
    const pairs = readPairs(url.search.slice(1), errors);
    switch (route.kind) {
      case 'invoices':
        return answered(this.listInvoices(pairs, errors, origin));
      case 'customers':
        return answered(this.listCustomers(pairs, errors, { level, method }, origin, raw));
      case 'invoice':
        return answered(this.getInvoice(route.segment, pairs, errors));
      case 'customer':
        return answered(this.getCustomer(route.segment, pairs, errors, { level, method }));
    }
  }

  private readCommon(
    read: <T>(name: string, parseValue: (raw: string) => Parsed<T>) => T | undefined,
    single: (name: string) => string | undefined,
  ): { limit: number; limitGiven: boolean; page: number } {
    const maxLimit = this.options.maxLimit ?? MAX_LIMIT;
    const limit = read('limit', (raw) => integerIn(raw, 1, maxLimit));
    const page = read('page', (raw) => integerIn(raw, 1, Number.MAX_SAFE_INTEGER));
    return {
      limit: limit ?? this.options.defaultLimit ?? DEFAULT_LIMIT,
      limitGiven: single('limit') !== undefined,
      page: page ?? 1,
    };
  }

  private reader(
    pairs: readonly [string, string][],
    allowed: readonly string[],
    errors: ParameterError[],
  ) {
    const single = singleValues(pairs, allowed, 'reject', errors);
    const read = <T>(name: string, parseValue: (raw: string) => Parsed<T>): T | undefined => {
      const raw = single(name);
      if (raw === undefined) return undefined;
      const parsed = parseValue(raw);
      if (parsed.ok) return parsed.value;
      errors.push({ parameter: name, in: 'query', message: parsed.message });
      return undefined;
    };
    return { single, read };
  }

  private invoicePlan(
    pairs: readonly [string, string][],
    errors: ParameterError[],
  ): ListPlan<InvoiceFilters> {
    const { single, read } = this.reader(
      pairs,
      [...INVOICE_FILTERS, 'sort', 'limit', 'page'],
      errors,
    );
    const dateTimeParameter = this.options.parseDateTimeParameter ?? dateTime;
    const status = read('status', statuses);
    const customerId = read('customer_id', uuid);
    const amountMin = read('amount_min', (raw) => numberAtLeast(raw, 0));
    const amountMax = read('amount_max', (raw) => numberAtLeast(raw, 0));
    const issuedAfter = read('issued_after', dateTimeParameter);
    const dueBefore = read('due_before', fullDate);
    const recurring = read('recurring', this.options.parseBoolean ?? standardBoolean);
    const sort = read('sort', (raw) =>
      sortKeys(raw, INVOICE_SORT_FIELDS, this.options.unknownSortFields ?? 'reject'),
    );
    const filters: InvoiceFilters = {
      ...(status === undefined ? {} : { status }),
      ...(customerId === undefined ? {} : { customer_id: customerId }),
      ...(amountMin === undefined ? {} : { amount_min: amountMin }),
      ...(amountMax === undefined ? {} : { amount_max: amountMax }),
      ...(issuedAfter === undefined ? {} : { issued_after: issuedAfter }),
      ...(dueBefore === undefined ? {} : { due_before: dueBefore }),
      ...(recurring === undefined ? {} : { recurring }),
    };
    const defaultSort = this.options.defaultInvoiceSort ?? DEFAULT_INVOICE_SORT;
    return {
      filters: this.options.invoiceFiltersOf?.(filters, single) ?? filters,
      given: givenPairs(INVOICE_FILTERS, single),
      sort: sort === undefined || sort.length === 0 ? defaultSort : sort,
      sortGiven: single('sort'),
      ...this.readCommon(read, single),
    };
  }

  private customerPlan(
    pairs: readonly [string, string][],
    errors: ParameterError[],
  ): ListPlan<CustomerFilters> {
    const { single, read } = this.reader(
      pairs,
      [...CUSTOMER_FILTERS, 'sort', 'limit', 'page'],
      errors,
    );
    const country = read('country', (raw) =>
      COUNTRY.test(raw) ? ok(raw) : fail('must be two capital letters (ISO 3166-1 alpha-2)'),
    );
    // q: { type: string, minLength: 1 } (in characters).
    const q = read('q', (raw) => (raw !== '' ? ok(raw) : fail('must not be empty')));
    const createdAfter = read('created_after', this.options.parseDateTimeParameter ?? dateTime);
    const sort = read('sort', (raw) =>
      CUSTOMER_SORTS.includes(raw)
        ? sortKeys(raw, ['name', 'created_at'], 'reject')
        : fail(`must be one of ${CUSTOMER_SORTS.join(', ')}`),
    );
    const filters: CustomerFilters = {
      ...(country === undefined ? {} : { country }),
      ...(q === undefined ? {} : { q }),
      ...(createdAfter === undefined ? {} : { created_after: createdAfter }),
    };
    return {
      filters,
      given: givenPairs(CUSTOMER_FILTERS, single),
      // No default: key order.
      sort: sort ?? [],
      sortGiven: single('sort'),
      ...this.readCommon(read, single),
    };
  }

  /** Filters, sorts and pages a collection; undefined: a page past the end refused (404). */
  private page<Filters extends object, Item extends { readonly id: string }>(
    operation: Operation,
    all: readonly Item[],
    plan: ListPlan<Filters>,
    matchers: Matchers<Filters, Item>,
    combine: Combine,
    comparers: Comparers<Item>,
    origin: string,
    path: string,
  ): Page<Item> | undefined {
    const matching = all.filter((item) => combine(verdict(item, plan.filters, matchers)));
    const keys = this.options.sortKeysOf?.(plan.sort, operation) ?? plan.sort;
    const compare = comparator(keys, comparers, this.options.tieBreak ?? byCodePoints);
    const { limit, page } = plan;
    const offset = (page - 1) * limit;
    const items = this.options.sortPerPage
      ? matching.slice(offset, offset + limit).sort(compare)
      : [...matching].sort(compare).slice(offset, offset + limit);
    const total = matching.length;
    const lastPage = (this.options.lastPage ?? standardLastPage)(total, limit, operation);
    if (page > lastPage && (this.options.pastTheEnd ?? 'empty') !== 'empty') return undefined;
    const kept: LinkPair[] = [...plan.given];
    if (plan.sortGiven !== undefined) kept.push(['sort', [plan.sortGiven]]);
    else if (this.options.linkDefaultSort === true && operation === 'listInvoices') {
      const defaultSort = this.options.defaultInvoiceSort ?? DEFAULT_INVOICE_SORT;
      kept.push(['sort', [defaultSort.map((k) => `${k.descending ? '-' : ''}${k.field}`).join()]]);
    }
    if (plan.limitGiven || this.options.linkDefaultLimit !== false) {
      kept.push(['limit', [String(limit)]]);
    }
    const encode = this.options.encodeLinkValue ?? encodeURIComponent;
    const link = (relation: LinkRelation, target: number): Link => {
      const standard: readonly LinkPair[] = [...kept, ['page', [String(target)]]];
      const query = this.options.linkQuery?.(standard, { operation, relation, page }) ?? standard;
      const written = query
        .map(([name, values]) => `${encode(name)}=${values.map(encode).join(',')}`)
        .join('&');
      return { relation, url: `${origin}${path}?${written}` };
    };
    const first = link('first', 1);
    const last = link('last', lastPage);
    // Past the end, prev leads back to the last page.
    const prev = page <= 1 ? undefined : link('prev', Math.min(page - 1, lastPage));
    const next = page < lastPage ? link('next', page + 1) : undefined;
    const links = [first, last, ...(prev === undefined ? [] : [prev]), ...(next ? [next] : [])];
    return {
      items,
      total,
      links,
      linkObject: {
        first: first.url,
        last: last.url,
        prev: prev?.url ?? null,
        next: next?.url ?? null,
      },
    };
  }

  private pastTheEnd(plan: ListPlan<object>): Reply {
    if (this.options.pastTheEnd === 'bad-request') {
      return badRequest([{ parameter: 'page', in: 'query', message: 'is past the last page' }]);
    }
    return problem('not-found', `Page ${plan.page} is past the last page of this list.`);
  }

  private listInvoices(
    pairs: readonly [string, string][],
    errors: ParameterError[],
    origin: string,
  ): Reply {
    const plan = this.invoicePlan(pairs, errors);
    if (errors.length > 0) return badRequest(errors);
    const matchers = { ...INVOICE_MATCHERS, ...this.options.invoiceMatchers };
    const combine = this.options.combineInvoiceFilters ?? allOf(INVOICE_FILTERS);
    const page = this.page(
      'listInvoices',
      this.data.invoices,
      plan,
      matchers,
      combine,
      { ...INVOICE_COMPARERS, ...this.options.invoiceComparers } as Comparers<Invoice>,
      origin,
      '/v1/invoices',
    );
    if (page === undefined) return this.pastTheEnd(plan);
    const count = (filters: InvoiceFilters): number =>
      this.data.invoices.filter((invoice) => combine(verdict(invoice, filters, matchers))).length;
    const total = this.options.invoiceTotal?.(plan.filters, count) ?? page.total;
    const body: JsonObject = {
      items: page.items.map((invoice) => invoice.record),
      meta: { total, page: plan.page, limit: plan.limit },
      links: page.linkObject,
    };
    return json(200, body, this.options.listHeaders?.('listInvoices', page.total) ?? {});
  }

  private listCustomers(
    pairs: readonly [string, string][],
    errors: ParameterError[],
    caller: Caller,
    origin: string,
    target: string,
  ): Reply {
    const plan = this.customerPlan(pairs, errors);
    if (errors.length > 0) return badRequest(errors);
    const page = this.page(
      'listCustomers',
      this.data.customers,
      plan,
      { ...CUSTOMER_MATCHERS, ...this.options.customerMatchers },
      allOf(CUSTOMER_FILTERS),
      { ...CUSTOMER_COMPARERS, ...this.options.customerComparers } as Comparers<Customer>,
      origin,
      '/v1/customers',
    );
    if (page === undefined) return this.pastTheEnd(plan);
    const header =
      this.options.linkHeader?.(page.links, { origin, target }) ?? standardLinkHeader(page.links);
    return json(
      200,
      page.items.map((customer) =>
        this.customerView(customer, {
          ...caller,
          place: 'list',
          filtered: plan.given.length > 0,
          sorted: plan.sortGiven !== undefined,
        }),
      ),
      { link: header, ...this.options.listHeaders?.('listCustomers', page.total) },
    );
  }

  private getInvoice(
    segment: string,
    pairs: readonly [string, string][],
    errors: ParameterError[],
  ): Reply {
    singleValues(pairs, [], 'reject', errors);
    const decoded = (this.options.decodeItemSegment ?? decodePath)(segment, 'getInvoice');
    const idOf =
      this.options.invoiceIdOf ?? ((text: string) => (INVOICE_ID.test(text) ? text : undefined));
    const id = decoded === undefined ? undefined : idOf(decoded);
    if (id === undefined) {
      errors.push({
        parameter: 'invoiceId',
        in: 'path',
        message: 'must be an invoice id: inv_ and six lower-case letters or digits',
      });
    }
    if (errors.length > 0 || id === undefined) return badRequest(errors);
    const invoice = this.invoicesById.get(id);
    if (invoice === undefined) return problem('not-found', `No invoice has the id ${id}.`);
    return json(200, invoice.record);
  }

  private getCustomer(
    segment: string,
    pairs: readonly [string, string][],
    errors: ParameterError[],
    caller: Caller,
  ): Reply {
    singleValues(pairs, [], 'reject', errors);
    const decoded = (this.options.decodeItemSegment ?? decodePath)(segment, 'getCustomer');
    if (decoded === undefined || !UUID.test(decoded)) {
      errors.push({ parameter: 'customerId', in: 'path', message: 'must be a UUID' });
    }
    if (errors.length > 0 || decoded === undefined) return badRequest(errors);
    const key = this.options.customerKeyOf?.(decoded) ?? decoded;
    const customer = this.customersById.get(key);
    if (customer === undefined) return problem('not-found', `No customer has the id ${decoded}.`);
    const data = this.customerView(customer, {
      ...caller,
      place: 'item',
      filtered: false,
      sorted: false,
    });
    return json(200, { data });
  }

  private customerView(customer: Customer, context: ViewContext): JsonObject {
    const standard = standardCustomerView(customer, context.level);
    return this.options.customerView?.(customer, context, standard) ?? standard;
  }
}

/** The filters a request gave, as it wrote them, in the spec's order. */
function givenPairs(
  names: readonly string[],
  single: (name: string) => string | undefined,
): LinkPair[] {
  const given: LinkPair[] = [];
  for (const name of names) {
    const raw = single(name);
    if (raw === undefined) continue;
    // status is an array, explode: false: its items stay comma-separated (RFC 6570 form style).
    given.push([name, name === 'status' ? raw.split(',') : [raw]]);
  }
  return given;
}

/** A path segment percent-decoded as UTF-8; undefined when an escape is malformed. */
export function decodePath(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** OPTIONS, and CORS preflights: 204 with Allow, without a token. */
function preflight(request: IncomingMessage): Reply {
  const requestedMethod = request.headers['access-control-request-method'];
  const isPreflight = request.headers.origin !== undefined && requestedMethod !== undefined;
  if (!isPreflight) return { status: 204, headers: { allow: ALLOW } };
  const requestedHeaders = request.headers['access-control-request-headers'];
  return {
    status: 204,
    headers: {
      allow: ALLOW,
      'access-control-allow-methods': ALLOW,
      'access-control-allow-headers': requestedHeaders ?? 'Authorization',
      'access-control-max-age': '600',
    },
  };
}

/** The request's own scheme and host: links are absolute; a malformed Host falls back. */
function originOf(request: IncomingMessage): string {
  const address = request.socket.localAddress ?? '127.0.0.1';
  const port = request.socket.localPort ?? 80;
  const fallback = `${address.includes(':') ? `[${address}]` : address}:${port}`;
  const host = request.headers.host;
  const valid =
    host !== undefined &&
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host);
  return `http://${valid ? host : fallback}`;
}

function send(request: IncomingMessage, response: ServerResponse, reply: Reply): void {
  const payload = reply.body === undefined ? undefined : JSON.stringify(reply.body);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.headers)) {
    headers[name] = typeof value === 'string' ? value : [...value];
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  response.writeHead(reply.status, headers);
  // HEAD: the same status and headers as GET, without the body (RFC 9110 §9.3.2).
  if (request.method === 'HEAD' || payload === undefined) response.end();
  else response.end(payload);
}

/** Starts a billing server on 127.0.0.1, on a free port. */
export async function startBillingServer(
  options: BillingOptions = {},
  start: StartOptions = {},
): Promise<RunningBillingServer> {
  const service = new BillingService(options, start.fixtures);
  const server = createServer((request, response) => {
    // A GET carries no body that matters: drain it, then answer.
    request.resume();
    request.on('end', () => {
      send(request, response, service.answer(request, originOf(request)).reply);
    });
    request.on('error', () => {
      response.destroy();
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolvePromise();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens: service.tokens,
    close: () =>
      new Promise<void>((resolvePromise, reject) => {
        server.close((error) => {
          if (error === undefined) resolvePromise();
          else reject(error);
        });
        // Idle keep-alive connections would hold close() open.
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The reference and its variants

function server(
  name: string,
  kind: BillingServer['kind'],
  level: BillingServer['level'],
  rule: string,
  options: BillingOptions = {},
): BillingServer {
  return { name, kind, rule, level, start: (start) => startBillingServer(options, start) };
}

/** A variant that breaks one rule, as the later rounds' files write them. */
export function brokenBilling(
  name: string,
  level: BillingServer['level'],
  rule: string,
  options: BillingOptions,
): BillingServer {
  return server(name, 'broken', level, rule, options);
}

export const BILLING_REFERENCE: BillingServer = server(
  'reference',
  'reference',
  'interface',
  'examples/billing/openapi.yaml with its x-stockmock declarations as docs/declare-a-resource.md ' +
    'defines them, and billing.yaml; docs/behaviour.md for problems (stockmock types), 401 ' +
    'Bearer realm="stockmock", 405 with Allow, 406, HEAD, open CORS, unknown parameters 400, a ' +
    'page past the end 200 and empty',
);

/** A rewrite of the replies of one operation with one status, every other reply kept. */
function on(
  operation: Operation,
  status: number,
  change: (reply: Reply) => Reply,
): (reply: Reply, context: ReplyContext) => Reply {
  return (reply, context) =>
    context.operation === operation && reply.status === status ? change(reply) : reply;
}

/** The reply's body with `change` applied to it when it is an object. */
function mapBody(reply: Reply, change: (body: JsonObject) => Json): Reply {
  return isJsonObject(reply.body) ? { ...reply, body: change(reply.body) } : reply;
}

/** listInvoices' body with its meta changed. */
function mapMeta(change: (meta: JsonObject, items: number) => JsonObject) {
  return on('listInvoices', 200, (reply) =>
    mapBody(reply, (body) => {
      const meta = body['meta'];
      const items = body['items'];
      return isJsonObject(meta) && Array.isArray(items)
        ? { ...body, meta: change(meta, items.length) }
        : body;
    }),
  );
}

const SORT =
  'listInvoices sort ("each ascending or, with a leading -, descending; ties keep ' +
  'the invoice id\'s order"; x-stockmock sort)';
const INVOICE_FILTERS_RULE = 'listInvoices x-stockmock.filters';
const VIEWS_RULE =
  'x-stockmock.views of listCustomers and getCustomer (partner: id, name, country) and ' +
  'bearerAuth ("partner-demo-token sees invoices and a customer\'s id, name and country only")';

const withoutSort = (pairs: readonly LinkPair[]): readonly LinkPair[] =>
  pairs.filter(([name]) => name !== 'sort');

/** Each breaks one rule of the spec (or of HTTP), and nothing else. */
const BROKEN: readonly BillingServer[] = [
  // Sorting
  server(
    'descending sort read as ascending',
    'broken',
    'interface',
    `${SORT}: a leading - is dropped, so sort=-amount lists the smallest amounts first and a ` +
      'client showing "largest invoices" shows the smallest',
    { sortKeysOf: (keys) => keys.map((key) => ({ ...key, descending: false })) },
  ),
  server(
    'multi-key sort uses only the first key',
    'broken',
    'interface',
    `${SORT}: several comma-separated keys; here only the first orders, ties fall to the id, so ` +
      'sort=status,-amount does not list each status by amount',
    { sortKeysOf: (keys) => keys.slice(0, 1) },
  ),
  server(
    'amounts sorted as text',
    'broken',
    'interface',
    `${SORT}; amount is type: number, and numbers sort by value (docs/declare-a-resource.md): ` +
      'here as text, so 100 comes before 12.5 and 1087.5 before 19.99',
    { invoiceComparers: { amount: (a, b) => byCodeUnits(String(a.amount), String(b.amount)) } },
  ),
  server(
    'issued_at sorted as text',
    'broken',
    'interface',
    `${SORT}; issued_at is format: date-time, an instant (RFC 3339 §5.6), and date-times sort as ` +
      'instants: here as text, so 2024-03-17T10:08:00+05:30 sorts after ' +
      '2024-03-17T07:47:00-05:00, which happened 8 hours later; the default newest-first order ' +
      'is wrong too',
    {
      invoiceComparers: {
        issued_at: (a, b) => byCodeUnits(a.issuedAt.text, b.issuedAt.text),
      },
    },
  ),
  server(
    'sort applied per page',
    'broken',
    'interface',
    `${SORT}: the order is the whole list's; here each page of the id-ordered list is sorted on ` +
      'its own, so page 2 of sort=amount holds amounts smaller than page 1',
    { sortPerPage: true },
  ),
  server(
    'ties broken by id descending',
    'broken',
    'interface',
    `${SORT}: ties keep the id's order, ascending (docs/declare-a-resource.md, Sorting); here ` +
      'descending, so invoices of equal amount come in another order than the spec promises, ' +
      'and a client merging pages by (amount, id) misses or repeats some',
    { tieBreak: (a, b) => byCodePoints(b, a) },
  ),
  server(
    'default order ignored',
    'broken',
    'interface',
    'listInvoices "newest first unless sorted otherwise" (x-stockmock sort default: -issued_at): ' +
      'without sort the list is in id order, so a client showing recent invoices shows ' +
      'arbitrary ones',
    { defaultInvoiceSort: [] },
  ),
  server(
    'unknown sort field accepted silently',
    'broken',
    'stand-in',
    'docs/declare-a-resource.md (Sorting): a field not listed is a 400 naming sort; the spec ' +
      "only gives the pattern, which sort=customer_id keeps, so refusing it is stockmock's " +
      'decision: here it is dropped and the default order served, so a typo such as sort=amout ' +
      'goes unnoticed and the client shows an order it did not ask for',
    { unknownSortFields: 'ignore' },
  ),
  // Filters
  server(
    'status keeps only the first value',
    'broken',
    'interface',
    `${INVOICE_FILTERS_RULE}.status: an array, explode: false, "Any of these statuses" (exact ` +
      'with an array keeps any of its items): status=open,paid keeps open invoices only',
    {
      invoiceFiltersOf: (filters) =>
        filters.status === undefined ? filters : { ...filters, status: filters.status.slice(0, 1) },
    },
  ),
  server(
    'amount_min read as an integer',
    'broken',
    'interface',
    `${INVOICE_FILTERS_RULE}.amount_min: type: number, a decimal: it is read with parseInt, ` +
      'so amount_min=100.5 keeps invoices of 100 and amount_min=1e3 keeps nearly all',
    {
      invoiceFiltersOf: (filters, raw) => {
        const given = raw('amount_min');
        return given === undefined ? filters : { ...filters, amount_min: parseInt(given, 10) };
      },
    },
  ),
  server(
    'recurring=false read as true',
    'broken',
    'interface',
    `${INVOICE_FILTERS_RULE}.recurring: type: boolean, exact: any value given is taken as ` +
      'true (a non-empty string), so recurring=false lists the recurring invoices',
    {
      invoiceFiltersOf: (filters) =>
        filters.recurring === undefined ? filters : { ...filters, recurring: true },
    },
  ),
  server(
    'issued_after compared as text',
    'broken',
    'interface',
    `${INVOICE_FILTERS_RULE}.issued_after: "Issued at or after this instant" (min on ` +
      'date-times compares instants): compared as text, issued_after=2024-03-17T00:00:00Z keeps ' +
      'inv_bsy8px, issued 2024-03-17T01:44:00+05:30, the evening before in UTC',
    { invoiceMatchers: { issued_after: (invoice, value) => invoice.issuedAt.text >= value.text } },
  ),
  server(
    'due_before exclusive',
    'broken',
    'interface',
    `${INVOICE_FILTERS_RULE}.due_before: "Due on or before this day" (max, inclusive, a day ` +
      'as max takes in the whole day): invoices due on that very day are left out',
    { invoiceMatchers: { due_before: (invoice, value) => invoice.dueOn < value } },
  ),
  server(
    'status or customer_id',
    'broken',
    'interface',
    `${INVOICE_FILTERS_RULE}: several filters combine with AND (docs/declare-a-resource.md, ` +
      '"real filtering (AND)"): status and customer_id together keep invoices that pass ' +
      "either, so a customer's open invoices include other customers' ones",
    {
      combineInvoiceFilters: (passes) => {
        const status = passes('status');
        const customer = passes('customer_id');
        const either =
          status === undefined || customer === undefined
            ? status !== false && customer !== false
            : status || customer;
        return (
          either &&
          INVOICE_FILTERS.filter((name) => name !== 'status' && name !== 'customer_id').every(
            (name) => passes(name) !== false,
          )
        );
      },
    },
  ),
  server(
    'created_after compared as text',
    'broken',
    'interface',
    'listCustomers x-stockmock.filters.created_after { match: min } on format: date-time ' +
      '(instants, RFC 3339): compared as text, created_after=2024-03-22T07:24:00+02:00 leaves ' +
      'out Delta Supplies, created at that very instant (05:24Z); every served created_at is in ' +
      'UTC, so only a bound with an offset shows it',
    {
      customerMatchers: {
        created_after: (customer, value) => customer.createdAt.text >= value.text,
      },
    },
  ),
  server(
    'q case-sensitive',
    'broken',
    'interface',
    'listCustomers q: "Case-insensitive, literal substring of the customer\'s name": q=ada ' +
      'finds no Ada Shop',
    { customerMatchers: { q: (customer, value) => customer.name.includes(value) } },
  ),
  server(
    'q read as a regular expression',
    'broken',
    'interface',
    'listCustomers q: "literal substring": the needle is read as a regular expression, so q=. ' +
      'keeps every customer although no name holds a dot, and a name holding (, + or ? cannot ' +
      'be found by a piece of it',
    {
      customerMatchers: {
        q: (customer, value) => {
          try {
            return new RegExp(value, 'iu').test(customer.name);
          } catch {
            return false;
          }
        },
      },
    },
  ),
  // Envelope, pagination and links
  server(
    'meta.total counts the page',
    'broken',
    'interface',
    'listInvoices x-stockmock envelope total: meta.total, "the number of records the filters ' +
      'keep over all pages": it counts the items of the page, so a client shows "20 invoices" ' +
      'for 57 and computes one page',
    { rewrite: mapMeta((meta, items) => ({ ...meta, total: items })) },
  ),
  server(
    'meta.page 0-based',
    'broken',
    'interface',
    'listInvoices envelope page: meta.page, the page asked for (Page: minimum 1, and meta.page ' +
      'minimum: 1): page 1 says 0, so a client asking meta.page + 1 asks the same page again',
    {
      rewrite: mapMeta((meta) => ({
        ...meta,
        page: typeof meta['page'] === 'number' ? meta['page'] - 1 : null,
      })),
    },
  ),
  server(
    'links drop the sort',
    'broken',
    'interface',
    'docs/declare-a-resource.md: "Links keep the sort": links keep the filters and limit but ' +
      'not sort, so a client following next gets page 2 of the newest-first order after page 1 ' +
      'of sort=amount, and sees some invoices twice and others never',
    {
      linkQuery: (pairs, context) =>
        context.operation === 'listInvoices' ? withoutSort(pairs) : pairs,
    },
  ),
  server(
    'links write + unencoded',
    'broken',
    'interface',
    'links lead to the pages (Links: format: uri; the query is form-encoded, where + is a space): ' +
      'issued_after=2024-03-01T00:00:00+05:30 is written with a bare +, so next asks for ' +
      '"…00:00 05:30", which is no date-time, and the walk stops with a 400',
    { encodeLinkValue: (value) => encodeURIComponent(value).replaceAll('%2B', '+') },
  ),
  server(
    'links omit prev and next at the ends',
    'broken',
    'interface',
    'components.schemas.Links requires first, last, prev and next (prev and next null at the ' +
      'ends): page 1 has no prev member, the last page no next, which a client generated with ' +
      'strict models refuses',
    {
      rewrite: on('listInvoices', 200, (reply) =>
        mapBody(reply, (body) => {
          const links = body['links'];
          return isJsonObject(links)
            ? {
                ...body,
                links: Object.fromEntries(Object.entries(links).filter(([, url]) => url !== null)),
              }
            : body;
        }),
      ),
    },
  ),
  server(
    'default limit 10',
    'broken',
    'interface',
    "components.parameters.Limit default: 20 (the stock interface's 10 is not this spec's): " +
      'without limit a page holds 10 invoices, and a client that relies on the default counts ' +
      'pages wrongly',
    { defaultLimit: 10 },
  ),
  server(
    'limit=50 refused',
    'broken',
    'interface',
    'components.parameters.Limit maximum: 50, inclusive: limit=50 is answered 400, so a client ' +
      'asking for the largest page the spec allows gets an error',
    { maxLimit: 49 },
  ),
  server(
    'Link header wrong on the last page when the total is a multiple of the limit',
    'broken',
    'interface',
    'listCustomers Link: "RFC 8288 links to the first, last, previous and next pages": when ' +
      'the total is a multiple of the limit, last is one page too far and the true last page ' +
      'has a next, so a client walking next ends on an empty page and rel="last" shows nothing',
    {
      lastPage: (total, limit, operation) =>
        operation === 'listCustomers' && total > 0 && total % limit === 0
          ? total / limit + 1
          : standardLastPage(total, limit),
    },
  ),
  server(
    'Link header drops the filters',
    'broken',
    'interface',
    'listCustomers Link (links keep every filter, docs/declare-a-resource.md): the links keep ' +
      'sort and limit only, so a client walking country=DE by next gets customers of every country',
    {
      linkQuery: (pairs, context) =>
        context.operation === 'listCustomers'
          ? pairs.filter(([name]) => ['sort', 'limit', 'page'].includes(name))
          : pairs,
    },
  ),
  // Shapes
  server(
    'customers list wrapped in an object',
    'broken',
    'interface',
    'listCustomers 200 is type: array (envelope: none, a bare array): {data: [...]} breaks every ' +
      'client that reads the array',
    {
      rewrite: on('listCustomers', 200, (reply) => ({
        ...reply,
        body: { data: reply.body ?? [] },
      })),
    },
  ),
  server(
    'invoice item wrapped in data',
    'broken',
    'interface',
    'getInvoice 200 is the Invoice itself ("without an envelope", envelope: none; ' +
      'additionalProperties: false): {data: invoice} has none of the required members',
    {
      rewrite: on('getInvoice', 200, (reply) => ({ ...reply, body: { data: reply.body ?? null } })),
    },
  ),
  server(
    'uppercase invoice id found',
    'broken',
    'interface',
    "getInvoice invoiceId pattern: '^inv_[0-9a-z]{6}$' (and 400 declared): INV_XM2EO9 is looked " +
      'up case-insensitively and answered 200 with id inv_xm2eo9, another id than asked, so a ' +
      'client bug (upper-cased ids) passes here and fails against any service that keeps the pattern',
    {
      invoiceIdOf: (segment) =>
        INVOICE_ID.test(segment.toLowerCase()) ? segment.toLowerCase() : undefined,
    },
  ),
  // Access levels
  server(
    'partner sees the email',
    'broken',
    'interface',
    `${VIEWS_RULE}: the partner level sees each customer's email, in the list and the item`,
    {
      customerView: (customer, context, standard) =>
        context.level === 'partner'
          ? { ...standard, email: customer.record['email'] ?? null }
          : standard,
    },
  ),
  server(
    'partner item shows every field',
    'broken',
    'interface',
    `${VIEWS_RULE}: getCustomer declares the same views as the list, but the item shows the ` +
      'partner the whole record (email, created_at, vat_number): the list is right, the item leaks',
    {
      customerView: (customer, context, standard) =>
        context.level === 'partner' && context.place === 'item' ? customer.record : standard,
    },
  ),
  server(
    'partner refused invoices',
    'broken',
    'interface',
    'bearerAuth: "partner-demo-token sees invoices" (listInvoices has no view: every level sees ' +
      'the record); here the partner level gets a 403, which no invoice operation declares',
    { forbidden: (operation, level) => level === 'partner' && operation === 'listInvoices' },
  ),
  server(
    'page past the end is 404',
    'broken',
    'interface',
    'openapi.yaml: listInvoices and listCustomers declare 200, 400, 401, 405 and 406, and no ' +
      '404; a 404 problem for a page past the end is an answer the operation does not declare ' +
      '(a 400 would keep the spec: the variant below)',
    { pastTheEnd: 'not-found' },
  ),
];

/** Correct services that decide otherwise where the spec (or HTTP) leaves room. */
const DIFFERENT: readonly BillingServer[] = [
  server(
    'customer names in locale order',
    'different',
    'stand-in',
    'docs/declare-a-resource.md sorts text by Unicode code point; listCustomers sort says only ' +
      '"name, created_at, either with a leading -": names ordered by the root collation (ICU, ' +
      'as en; ties by id), as a database with an ICU collation does. On billing.yaml the two ' +
      'orders agree; "émile" and "Zoë" show it',
    { customerComparers: { name: (a, b) => new Intl.Collator('en').compare(a.name, b.name) } },
  ),
  server(
    'recurring takes TRUE and 1',
    'different',
    'stand-in',
    'docs/declare-a-resource.md reads type: boolean as true or false only (400 otherwise); ' +
      'OpenAPI does not fix how a boolean is written in a query: TRUE, True, 1 and FALSE, 0 are ' +
      'accepted too',
    {
      parseBoolean: (raw) => {
        const lower = raw.toLowerCase();
        if (lower === 'true' || lower === '1') return ok(true);
        if (lower === 'false' || lower === '0') return ok(false);
        return fail('must be true or false');
      },
    },
  ),
  server(
    'page past the end is 400',
    'different',
    'stand-in',
    'docs/behaviour.md answers a page past the end 200 with no items (pastTheEnd: empty); the ' +
      "spec declares no such page, and of its lists' error answers declares only 400 (and 401, " +
      '405, 406): a 400 problem there keeps it',
    { pastTheEnd: 'bad-request' },
  ),
  server(
    'Link header relative, with self',
    'different',
    'stand-in',
    'RFC 8288 §3.2: a link target is a URI-Reference, resolved against the request URI: ' +
      '</v1/customers?…>; the stand-in writes absolute URLs (docs/behaviour.md, links); and an ' +
      'extra rel="self" for the page itself (RFC 8288 allows any registered relation)',
    {
      linkHeader: (links, request) =>
        [{ relation: 'self', url: request.target }, ...links]
          .map((link) => {
            const url = link.url.startsWith(request.origin)
              ? link.url.slice(request.origin.length)
              : link.url;
            return `<${url}>; rel="${link.relation}"`;
          })
          .join(', '),
    },
  ),
  server(
    'Link header in several fields, rel unquoted',
    'different',
    'interface',
    'RFC 9110 §5.3: a list-based field may be sent as several field lines; RFC 8288 §3: a ' +
      'link-param value is a token or a quoted-string: one Link line per link, rel=next unquoted',
    { linkHeader: (links) => links.map((link) => `<${link.url}>; rel=${link.relation}`) },
  ),
  server(
    'X-Total-Count header',
    'different',
    'interface',
    'headers the spec does not declare are free: both lists add X-Total-Count, the number of ' +
      'matching records',
    { listHeaders: (_operation, total) => ({ 'x-total-count': String(total) }) },
  ),
  server(
    'link parameters in another order',
    'different',
    'interface',
    'a query is a set of parameters; their order is not fixed by the spec or the docs: links ' +
      'write page first, then the others by name',
    {
      linkQuery: (pairs) => {
        const page = pairs.filter(([name]) => name === 'page');
        const rest = pairs
          .filter(([name]) => name !== 'page')
          .sort(([a], [b]) => byCodeUnits(a, b));
        return [...page, ...rest];
      },
    },
  ),
  server(
    'links write limit only when given',
    'different',
    'stand-in',
    'docs/behaviour.md writes the default limit into links; the spec asks only for links to the ' +
      'pages: a link without limit names the same page (default 20)',
    { linkDefaultLimit: false },
  ),
  server(
    'links write the default sort',
    'different',
    'interface',
    'without a sort parameter the invoice links write sort=-issued_at, the default: the pages ' +
      'they lead to are the same',
    { linkDefaultSort: true },
  ),
  server(
    'UUIDs in any case',
    'different',
    'stand-in',
    'RFC 9562 §4: UUID hex digits are case-insensitive on input; docs/declare-a-resource.md ' +
      'compares text exactly, so the stand-in finds no customer C12776E4-…: here customer_id and ' +
      'customerId match in any case',
    {
      invoiceMatchers: {
        customer_id: (invoice, value) => invoice.customerId === value.toLowerCase(),
      },
      customerKeyOf: (id) => id.toLowerCase(),
    },
  ),
  server(
    'date-time filters take a day alone',
    'different',
    'stand-in',
    'issued_after and created_after are format: date-time, and formats are annotations unless asserted (JSON ' +
      'Schema 2020-12 §7.2; docs/contract-checker.md: a value that breaks only a format may be ' +
      "refused or served); the stand-in refuses 2024-03-01, this service reads it as the day's " +
      'first instant in UTC (as docs/declare-a-resource.md reads a day alone for a min)',
    {
      parseDateTimeParameter: (raw) => (isFullDate(raw) ? ok(dayStart(raw)) : dateTime(raw)),
    },
  ),
];

/** The variants of the first rounds; billing-variants.ts adds the later ones. */
export const EARLIER_BILLING_VARIANTS: readonly BillingServer[] = [...BROKEN, ...DIFFERENT];
