/**
 * Compares the events reference server (events-servers.ts) with stockmock serving the same
 * example, on a seeded set of requests: every operation, filters, sorts, page sizes, cursor walks
 * to the end for every event with both tokens, unknown keys, bad values, tokens, methods, Accept.
 * Not a test: a tool, run by hand.
 *
 *   node test/contract/events/compare-reference.ts [--seed N] [--stockmock URL] [--verbose]
 *
 * Without --stockmock it starts `bin/stockmock.js serve` on examples/events (dist/ must be built).
 * Cursor strings and problem `detail`s are not compared; everything else of an answer is: status,
 * media type, Allow, WWW-Authenticate, Link (origins aside), and the body.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { seededRandom } from '../../../src/util/seeded-random.ts';
import {
  CITIES,
  EVENT_SORTS,
  EVENT_STATUSES,
  SECTIONS,
  TICKET_STATUSES,
  EVENTS_REFERENCE,
  loadEvents,
  type Tokens,
} from './events-servers.ts';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const SEED = Number(argument('--seed') ?? '20261128');
const VERBOSE = process.argv.includes('--verbose');

const next = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error('pick from nothing');
  return item;
};
const maybe = (p: number): boolean => next() < p;

// ---------------------------------------------------------------------------------------------
// Servers

async function startStockmock(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      resolve(REPO_ROOT, 'bin/stockmock.js'),
      'serve',
      '--config',
      resolve(REPO_ROOT, 'examples/events/stockmock.config.yaml'),
      '--port',
      '0',
      '--host',
      '127.0.0.1',
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      reject(new Error(`stockmock did not start:\n${output}`));
    }, 30_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stockmock exited (${String(code)}):\n${output}`));
    });
  });
  return { url, child };
}

// ---------------------------------------------------------------------------------------------
// Requests and answers

interface Probe {
  readonly group: string;
  readonly method: string;
  /** Path and query, written as sent. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
}

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly allow: string | null;
  readonly challenge: string | null;
  readonly link: string | null;
  readonly body: unknown;
}

async function send(base: string, probe: Probe): Promise<Answer> {
  const response = await fetch(base + probe.target, {
    method: probe.method,
    headers: probe.headers,
  });
  const text = await response.text();
  let body: unknown = text;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return {
    status: response.status,
    type: (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '',
    allow: response.headers.get('allow'),
    challenge: response.headers.get('www-authenticate'),
    link: response.headers.get('link')?.replaceAll(base, 'ORIGIN') ?? null,
    body,
  };
}

type Record_ = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Record_ =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is compared: cursors as their presence, problems without detail, errors by parameter. */
function normalise(answer: Answer): unknown {
  const body = answer.body;
  if (!isObject(body)) return answer;
  if (answer.type === 'application/problem+json') {
    const errors = Array.isArray(body['errors'])
      ? (body['errors'] as unknown[])
          .map((error) =>
            isObject(error) ? `${String(error['in'])}:${String(error['parameter'])}` : '?',
          )
          .sort()
      : undefined;
    const problem = {
      type: body['type'],
      title: body['title'],
      status: body['status'],
      hasDetail: typeof body['detail'] === 'string',
      ...(errors === undefined ? {} : { errors }),
      ...('total' in body ? { total: body['total'] } : {}),
    };
    return { ...answer, body: problem };
  }
  if (!('next_cursor' in body)) return answer;
  const cursor = typeof body['next_cursor'] === 'string' ? '<cursor>' : null;
  return { ...answer, body: { ...body, next_cursor: cursor } };
}

interface Difference {
  readonly group: string;
  readonly what: string;
  readonly reference: unknown;
  readonly stockmock: unknown;
}

const differences: Difference[] = [];
let compared = 0;
const counts = new Map<string, number>();

function record(group: string, what: string, reference: unknown, stockmock: unknown): void {
  differences.push({ group, what, reference, stockmock });
}

/** The fields of two normalised answers that differ. */
function diff(a: unknown, b: unknown): string[] {
  if (!isObject(a) || !isObject(b)) return isDeepStrictEqual(a, b) ? [] : ['(whole)'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !isDeepStrictEqual(a[key], b[key]));
}

async function compare(reference: string, stockmock: string, probe: Probe): Promise<void> {
  const [a, b] = await Promise.all([send(reference, probe), send(stockmock, probe)]);
  compared++;
  counts.set(probe.group, (counts.get(probe.group) ?? 0) + 1);
  const x = normalise(a) as Record_;
  const y = normalise(b) as Record_;
  for (const field of diff(x, y)) {
    record(
      probe.group,
      `${probe.method} ${probe.target} [${field}]`,
      field === 'body' ? x['body'] : x[field],
      field === 'body' ? y['body'] : y[field],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The requests

const data = loadEvents();
const tokens: Tokens = { organizer: 'organizer-demo-token', public: 'public-demo-token' };
const bearer = (level: keyof Tokens): Record<string, string> => ({
  authorization: `Bearer ${tokens[level]}`,
});
const anyToken = (): Record<string, string> => bearer(maybe(0.5) ? 'organizer' : 'public');
const get = (group: string, target: string, headers = anyToken()): Probe => ({
  group,
  method: 'GET',
  target,
  headers,
});
const query = (pairs: readonly (readonly [string, string])[]): string =>
  pairs.length === 0
    ? ''
    : `?${pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&')}`;

const venueSlugs = data.venues.map((venue) => venue.slug);
const eventIds = data.events.map((event) => event.id);
const names = data.events.map((event) => event.name);
const ROUTES = [
  '/v1/venues',
  `/v1/venues/${venueSlugs[0] ?? ''}`,
  '/v1/events',
  `/v1/events/${eventIds[0] ?? ''}`,
  `/v1/events/${eventIds[0] ?? ''}/tickets`,
  `/v1/events/${data.tickets[0]?.eventId ?? ''}/tickets/${data.tickets[0]?.id ?? ''}`,
];

function fixedProbes(): Probe[] {
  const probes: Probe[] = [];
  // Tokens
  for (const route of ROUTES) {
    probes.push(get('auth', route, {}));
    probes.push(get('auth', route, { authorization: 'Bearer nope' }));
    probes.push(get('auth', route, { authorization: 'Basic b3JnYW5pemVyOng=' }));
    probes.push(get('auth', route, { authorization: 'bearer public-demo-token' }));
    probes.push(get('auth', route, { authorization: 'BEARER organizer-demo-token' }));
    probes.push(get('auth', route, { authorization: 'Bearer' }));
  }
  // Methods
  for (const route of ROUTES) {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) {
      probes.push({ group: 'methods', method, target: route, headers: anyToken() });
    }
    probes.push({ group: 'methods', method: 'POST', target: route, headers: {} });
  }
  probes.push({
    group: 'methods',
    method: 'HEAD',
    target: '/v1/events/evt_zzzzzzzz',
    headers: anyToken(),
  });
  probes.push({
    group: 'methods',
    method: 'HEAD',
    target: '/v1/events?page=0',
    headers: anyToken(),
  });
  // Accept
  for (const accept of [
    'text/html',
    'application/json',
    'application/*',
    '*/*',
    'text/html, application/json;q=0.5',
    'application/json;q=0',
    'text/html, */*;q=0',
    'application/problem+json',
    'APPLICATION/JSON',
  ]) {
    for (const route of ['/v1/venues', '/v1/events?page=0']) {
      probes.push(get('accept', route, { ...anyToken(), accept }));
    }
  }
  // Paths
  for (const path of [
    '/',
    '/v1',
    '/v1/venue',
    '/v2/events',
    '/v1/events/evt_az05340b/tickets/x/y',
    '/v1/events//tickets',
    '/v1/venues/',
    '/v1/events/',
    `/v1/events/${eventIds[1] ?? ''}/`,
    `/v1/events/${eventIds[1] ?? ''}/tickets/`,
    '/v1/events/evt%5Faz05340b',
    '/v1/venues/%E0%A4%A',
  ]) {
    probes.push(get('paths', path));
  }
  // Venues
  for (const city of [...CITIES, 'Paris', 'oslo', '']) {
    probes.push(get('venues', `/v1/venues${query([['city', city]])}`));
  }
  probes.push(get('venues', '/v1/venues'));
  for (const target of [
    '/v1/venues?city=Oslo&city=Lyon',
    '/v1/venues?town=Oslo',
    '/v1/venues?city',
    '/v1/venues?page=1',
    '/v1/venues?limit=2',
    '/v1/venues?city=Oslo&',
  ]) {
    probes.push(get('venues', target));
  }
  for (const slug of [...venueSlugs, 'no-such-venue', 'Bad_Slug', 'a--b', 'x'.repeat(41), '-a']) {
    probes.push(get('venue', `/v1/venues/${encodeURIComponent(slug)}`));
    probes.push(get('venue', `/v1/venues/${encodeURIComponent(slug)}?city=Oslo`));
  }
  // Events, edge values
  const edges: [string, string][] = [
    ['page', '0'],
    ['page', '-1'],
    ['page', 'abc'],
    ['page', '1.5'],
    ['page', '1.0'],
    ['page', '01'],
    ['page', '+2'],
    ['page', ' 2'],
    ['page', '100000'],
    ['page', '100001'],
    ['page', '3'],
    ['page', ''],
    ['pageSize', '0'],
    ['pageSize', '100'],
    ['pageSize', '101'],
    ['pageSize', '150'],
    ['pageSize', '1e1'],
    ['pageSize', '99999999999999999999'],
    ['sort', 'name'],
    ['sort', 'startsAt,priceFrom'],
    ['sort', '-startsAt'],
    ['sort', '+startsAt'],
    ['sort', 'STARTSAT'],
    ['sort', ''],
    ['status', 'open'],
    ['status', 'on_sale,sold_out'],
    ['status', ''],
    ['venue', 'Glasshouse'],
    ['venue', 'nowhere'],
    ['venue', 'x'.repeat(41)],
    ['starts_after', '2026-05-01'],
    ['starts_after', '2026-05-01T00:00:00Z'],
    ['starts_after', '2026-05-01t00:00:00z'],
    ['starts_after', '2026-05-01T00:00:00+02:00'],
    ['starts_after', '2026-05-01T00:00:00.000000001-03:00'],
    ['starts_after', '2026-05-01 00:00:00Z'],
    ['starts_after', '2026-02-30T00:00:00Z'],
    ['starts_after', '2026-05-14T00:18:48.643Z'],
    ['starts_after', '2026-05-14T00:18:48.6431Z'],
    ['starts_after', '2026-05-14T02:18:48.643+02:00'],
    ['starts_after', 'tomorrow'],
    ['price_max', '-1'],
    ['price_max', 'abc'],
    ['price_max', '29.27'],
    ['price_max', '0'],
    ['price_max', '1e2'],
    ['price_max', '.5'],
    ['price_max', '50.'],
    ['price_max', '-0'],
    ['price_max', 'Infinity'],
    ['price_max', '0x10'],
    ['q', ''],
    ['q', 'x'.repeat(120)],
    ['q', 'x'.repeat(121)],
    ['q', 'é'.repeat(120)],
    ['q', 'ça'],
    ['q', 'ÇA IRA'],
    ['q', 'ca'],
    ['q', 'jazz'],
    ['q', 'NIGHT 1'],
    ['q', '%'],
    ['q', '.'],
    ['q', ' '],
    ['q', 'Ça Ira'.normalize('NFD')],
    ['foo', '1'],
    ['limit', '5'],
    ['cursor', 'abc'],
  ];
  for (const pair of edges) probes.push(get('events edges', `/v1/events${query([pair])}`));
  for (const target of [
    '/v1/events?page=1&page=2',
    '/v1/events?status=scheduled&status=on_sale',
    '/v1/events?q=late+night',
    '/v1/events?q=Late%20Night',
    '/v1/events?sort=-priceFrom&pageSize=7&page=6',
    '/v1/events?q=%C3%A7a',
    '/v1/events?q=%FF',
    '/v1/events?page',
    '/v1/events?&&page=2',
  ]) {
    probes.push(get('events edges', target));
  }
  // Event items
  for (const id of [...eventIds, 'evt_zzzzzzzz', 'evt_ABCDEFGH', 'evt_123', 'event_az05340b']) {
    probes.push(get('event', `/v1/events/${id}`));
  }
  probes.push(get('event', `/v1/events/${eventIds[0] ?? ''}?status=scheduled`));
  // Ticket items
  for (const ticket of data.tickets) {
    const path = `/v1/events/${ticket.eventId}/tickets/${ticket.id}`;
    probes.push(get('ticket', path, bearer('organizer')));
    probes.push(get('ticket', path, bearer('public')));
  }
  for (let i = 0; i < 40; i++) {
    const ticket = pick(data.tickets);
    const other = pick(eventIds.filter((id) => id !== ticket.eventId));
    probes.push(get('ticket other event', `/v1/events/${other}/tickets/${ticket.id}`));
  }
  const some = data.tickets[5];
  if (some !== undefined) {
    for (const target of [
      `/v1/events/${some.eventId}/tickets/00000000-0000-4000-8000-000000000000`,
      `/v1/events/${some.eventId}/tickets/${some.id.toUpperCase()}`,
      `/v1/events/${some.eventId}/tickets/not-a-uuid`,
      `/v1/events/${some.eventId}/tickets/${some.id}x`,
      `/v1/events/evt_zzzzzzzz/tickets/${some.id}`,
      `/v1/events/EVT_1/tickets/${some.id}`,
      `/v1/events/EVT_1/tickets/not-a-uuid`,
      `/v1/events/${some.eventId}/tickets/${some.id}?limit=1`,
    ]) {
      probes.push(get('ticket', target));
    }
  }
  // Ticket list edges
  const event = eventIds[1] ?? '';
  for (const pair of [
    ['limit', '0'],
    ['limit', '50'],
    ['limit', '51'],
    ['limit', 'ten'],
    ['limit', '2.5'],
    ['status', 'free'],
    ['section', 'stalls'],
    ['section', ''],
    ['cursor', ''],
    ['cursor', 'x'],
    ['cursor', 'x'.repeat(200)],
    ['cursor', 'x'.repeat(201)],
    [
      'cursor',
      'WyJ0MSIsImV2dF9hejA1MzQwYiIsbnVsbCxudWxsLCIxZjliYjc5ZC0zOTJiLTRiNjQtYTZhNi0xY2I4ZmVkNzczODUiXQ.yh1hz0',
    ],
    ['cursor', 'WyJWRnc1RFBnazRuUjAiLDIsIjFmOWJiNzlkLTM5MmItNGI2NC1hNmE2LTFjYjhmZWQ3NzM4NSJd'],
    ['cursor', data.tickets[10]?.id ?? ''],
    ['page', '2'],
    ['pageSize', '2'],
    ['sort', 'id'],
  ] as const) {
    probes.push(get('tickets edges', `/v1/events/${event}/tickets${query([pair])}`));
  }
  for (const target of [
    '/v1/events/evt_zzzzzzzz/tickets',
    '/v1/events/evt_zzzzzzzz/tickets?status=sold',
    '/v1/events/evt_zzzzzzzz/tickets?limit=0',
    '/v1/events/evt_zzzzzzzz/tickets?cursor=garbage',
    '/v1/events/EVT_X/tickets',
    '/v1/events/EVT_X/tickets?limit=0',
    `/v1/events/${event}/tickets?limit=1&limit=2`,
  ]) {
    probes.push(get('tickets edges', target));
  }
  return probes;
}

/** Random valid (and now and then invalid) event list queries. */
function eventProbes(count: number): Probe[] {
  const probes: Probe[] = [];
  const instants = data.events.map((event) => event.record['startsAt'] as string);
  for (let i = 0; i < count; i++) {
    const pairs: [string, string][] = [];
    if (maybe(0.3)) pairs.push(['status', pick(EVENT_STATUSES)]);
    if (maybe(0.2)) pairs.push(['venue', maybe(0.9) ? pick(venueSlugs) : 'no-such-venue']);
    if (maybe(0.25)) {
      const base = pick(instants);
      const shifted = maybe(0.5)
        ? base
        : new Date(Date.parse(base) + Math.floor((next() - 0.5) * 1e9)).toISOString();
      pairs.push(['starts_after', maybe(0.2) ? shifted.replace('Z', '+00:00') : shifted]);
    }
    if (maybe(0.25)) {
      const price = maybe(0.3)
        ? String(pick(data.events).priceFrom)
        : String(Math.round(next() * 20000) / 100);
      pairs.push(['price_max', price]);
    }
    if (maybe(0.25)) {
      const name = pick(names);
      const start = Math.floor(next() * (name.length - 1));
      const piece = name.slice(start, start + 1 + Math.floor(next() * 8));
      const cased = maybe(0.5) ? piece.toUpperCase() : piece.toLowerCase();
      if (cased.trim() !== '' || maybe(0.5)) pairs.push(['q', cased]);
    }
    if (maybe(0.5)) pairs.push(['sort', pick(EVENT_SORTS)]);
    if (maybe(0.6))
      pairs.push(['pageSize', String(pick([1, 2, 3, 5, 7, 10, 13, 20, 39, 40, 41, 100]))]);
    if (maybe(0.6)) pairs.push(['page', String(pick([1, 1, 2, 3, 4, 5, 8, 40, 41]))]);
    // Shuffle, so that the order of parameters is no part of the answer.
    pairs.sort(() => next() - 0.5);
    probes.push(get('events', `/v1/events${query(pairs)}`));
  }
  return probes;
}

// ---------------------------------------------------------------------------------------------
// Cursor walks

interface WalkPlan {
  readonly eventId: string;
  readonly filters: readonly (readonly [string, string])[];
  readonly limit: number | undefined;
  readonly level: keyof Tokens;
}

/** A walk of the list by next_cursor, to its end (or 80 pages): each page normalised. */
async function walk(
  base: string,
  plan: WalkPlan,
): Promise<{ pages: unknown[]; cursors: string[] }> {
  const pages: unknown[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 80; page++) {
    const pairs: (readonly [string, string])[] = [...plan.filters];
    if (plan.limit !== undefined) pairs.push(['limit', String(plan.limit)]);
    if (cursor !== undefined) pairs.push(['cursor', cursor]);
    const answer = await send(base, {
      group: 'walk',
      method: 'GET',
      target: `/v1/events/${plan.eventId}/tickets${query(pairs)}`,
      headers: bearer(plan.level),
    });
    compared++;
    pages.push(normalise(answer));
    const body = answer.body;
    if (answer.status !== 200 || !isObject(body)) break;
    const nextCursor = body['next_cursor'];
    if (typeof nextCursor !== 'string') break;
    cursors.push(nextCursor);
    cursor = nextCursor;
  }
  return { pages, cursors };
}

function walkPlans(): WalkPlan[] {
  const plans: WalkPlan[] = [];
  for (const eventId of [...eventIds, 'evt_zzzzzzzz']) {
    plans.push({ eventId, filters: [], limit: undefined, level: 'organizer' });
    plans.push({ eventId, filters: [], limit: 1, level: 'public' });
    for (let i = 0; i < 4; i++) {
      const filters: [string, string][] = [];
      if (maybe(0.5)) filters.push(['status', pick(TICKET_STATUSES)]);
      if (maybe(0.5)) filters.push(['section', pick(SECTIONS)]);
      plans.push({
        eventId,
        filters,
        limit: maybe(0.2) ? undefined : pick([1, 2, 3, 4, 5, 6, 9, 10, 13, 50]),
        level: maybe(0.5) ? 'organizer' : 'public',
      });
    }
  }
  return plans;
}

/** A cursor of one list, sent to another: both should refuse it (400). */
async function misuse(
  reference: string,
  stockmock: string,
  cursorsOf: (server: 'reference' | 'stockmock', plan: WalkPlan) => string | undefined,
  plans: readonly WalkPlan[],
): Promise<void> {
  const withCursor = plans.filter(
    (plan) =>
      plan.eventId !== 'evt_zzzzzzzz' &&
      cursorsOf('reference', plan) !== undefined &&
      cursorsOf('stockmock', plan) !== undefined,
  );
  for (let i = 0; i < 40 && withCursor.length > 0; i++) {
    const plan = pick(withCursor);
    const kind = pick(['other event', 'other filter', 'tampered', 'unknown event'] as const);
    let target: (cursor: string) => string;
    if (kind === 'other event') {
      const other = pick(eventIds.filter((id) => id !== plan.eventId));
      target = (cursor) =>
        `/v1/events/${other}/tickets${query([...plan.filters, ['cursor', cursor]])}`;
    } else if (kind === 'unknown event') {
      target = (cursor) =>
        `/v1/events/evt_zzzzzzzz/tickets${query([...plan.filters, ['cursor', cursor]])}`;
    } else if (kind === 'other filter') {
      const filters: (readonly [string, string])[] = plan.filters.some(
        ([name]) => name === 'status',
      )
        ? plan.filters.filter(([name]) => name !== 'status')
        : [...plan.filters, ['status', pick(TICKET_STATUSES)]];
      target = (cursor) =>
        `/v1/events/${plan.eventId}/tickets${query([...filters, ['cursor', cursor]])}`;
    } else {
      target = (cursor) =>
        `/v1/events/${plan.eventId}/tickets${query([...plan.filters, ['cursor', `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}x`]])}`;
    }
    const headers = bearer(plan.level);
    const [a, b] = await Promise.all([
      send(reference, {
        group: 'cursor misuse',
        method: 'GET',
        target: target(cursorsOf('reference', plan) ?? ''),
        headers,
      }),
      send(stockmock, {
        group: 'cursor misuse',
        method: 'GET',
        target: target(cursorsOf('stockmock', plan) ?? ''),
        headers,
      }),
    ]);
    compared += 2;
    counts.set('cursor misuse', (counts.get('cursor misuse') ?? 0) + 1);
    const x = normalise(a) as Record_;
    const y = normalise(b) as Record_;
    for (const field of diff(x, y)) {
      record(
        'cursor misuse',
        `${kind} ${plan.eventId} ${JSON.stringify(plan.filters)} [${field}]`,
        x[field],
        y[field],
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const given = argument('--stockmock');
  const started = given === undefined ? await startStockmock() : undefined;
  const stockmock = given ?? started?.url ?? '';
  const reference = await EVENTS_REFERENCE.start();
  try {
    const probes = [...fixedProbes(), ...eventProbes(400)];
    for (let i = 0; i < probes.length; i += 8) {
      await Promise.all(
        probes.slice(i, i + 8).map((probe) => compare(reference.url, stockmock, probe)),
      );
    }
    const plans = walkPlans();
    const cursors = new Map<WalkPlan, { reference: string[]; stockmock: string[] }>();
    for (const plan of plans) {
      const [a, b] = await Promise.all([walk(reference.url, plan), walk(stockmock, plan)]);
      counts.set('walks', (counts.get('walks') ?? 0) + 1);
      cursors.set(plan, { reference: a.cursors, stockmock: b.cursors });
      const label = `walk ${plan.eventId} ${JSON.stringify(plan.filters)} limit=${String(plan.limit)} ${plan.level}`;
      if (a.pages.length !== b.pages.length) {
        record('walks', `${label} [pages]`, a.pages.length, b.pages.length);
      }
      for (let i = 0; i < Math.min(a.pages.length, b.pages.length); i++) {
        for (const field of diff(a.pages[i], b.pages[i])) {
          const x = a.pages[i] as Record_;
          const y = b.pages[i] as Record_;
          record('walks', `${label} page ${i + 1} [${field}]`, x[field], y[field]);
        }
      }
    }
    await misuse(reference.url, stockmock, (server, plan) => cursors.get(plan)?.[server][0], plans);
  } finally {
    await reference.close();
    started?.child.kill('SIGTERM');
  }
  console.log(`seed ${SEED}: ${compared} requests per server`);
  console.log([...counts].map(([group, count]) => `  ${group}: ${count}`).join('\n'));
  console.log(`${differences.length} differences`);
  const byGroup = new Map<string, Difference[]>();
  for (const difference of differences) {
    const key = `${difference.group} ${difference.what.replace(/^.*\[/, '[')}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), difference]);
  }
  for (const [key, list] of byGroup) {
    console.log(`\n== ${key}: ${list.length}`);
    for (const difference of VERBOSE ? list : list.slice(0, 4)) {
      console.log(`  ${difference.what}`);
      console.log(`    reference: ${JSON.stringify(difference.reference)}`);
      console.log(`    stockmock: ${JSON.stringify(difference.stockmock)}`);
    }
  }
}

await main();
