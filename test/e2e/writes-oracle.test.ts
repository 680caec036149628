/**
 * The oracle of writes: after any sequence of writes in a session, the stand-in answers every
 * read byte for byte as a fresh stand-in loaded with a fixture that already held the result.
 * Sequences and reads are generated (fast-check, a fixed seed and a bounded count; a failure
 * prints its seed and path for replay). What each write leaves is worked out here, by plain code
 * over the example's own files (examples/events), never read from stockmock: a create's body
 * with the key the answer names and the spec's defaults, a merge by RFC 7396, a delete. Every
 * write's answer is held to that, and a refused write to changing nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock, type Stockmock } from '../../src/api/start-stockmock.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example = join(root, 'examples/events');
const SPEC = join(example, 'openapi.yaml');
const TOKENS = [
  { token: 'organizer-demo-token', level: 'organizer' },
  { token: 'public-demo-token', level: 'public' },
];
const ORGANIZER = 'Bearer organizer-demo-token';
const PUBLIC = 'Bearer public-demo-token';

type Row = Record<string, unknown>;
interface Data {
  venues: Row[];
  events: Row[];
  tickets: Row[];
}
const BASE = parse(await readFile(join(example, 'events.yaml'), 'utf8')) as Data;
const VENUES = BASE.venues.map((venue) => venue['slug'] as string);
const EVENT_STATUSES = ['scheduled', 'on_sale', 'sold_out', 'cancelled'];
const TICKET_STATUSES = ['available', 'held', 'sold'];
const SECTIONS = ['floor', 'balcony', 'box'];
const NAMES = ['Harbour Lights', 'Jazz Night', 'Late Comedy', 'Spring Choir', 'Árvore Nova'];

/** RFC 7396, written here apart from the stand-in's. */
function merged(target: Row, patch: Row): Row {
  const result: Row = { ...target };
  for (const [member, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(result, member);
    else result[member] = value;
  }
  return result;
}

const instant = fc
  .integer({
    min: Date.parse('2023-01-01T00:00:00Z') / 1000,
    max: Date.parse('2026-12-31T00:00:00Z') / 1000,
  })
  .map((seconds) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'));
const price = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((cents) => cents / 100);
const eventBody = fc.record(
  {
    name: fc.constantFrom(...NAMES),
    venueSlug: fc.constantFrom(...VENUES),
    status: fc.constantFrom(...EVENT_STATUSES),
    startsAt: instant,
    priceFrom: price(500),
  },
  { requiredKeys: ['name', 'venueSlug', 'startsAt', 'priceFrom'] },
);
const ticketBody = fc.record(
  {
    section: fc.constantFrom(...SECTIONS),
    price: price(900),
    status: fc.constantFrom(...TICKET_STATUSES),
    holderName: fc.constantFrom('Ada', 'Grace', 'Linus'),
  },
  { requiredKeys: ['section', 'price'] },
);
/** Bodies the spec refuses: a missing field, a wrong type, an unknown member, a value out of range. */
const badEventBody = fc.constantFrom<Row>(
  { name: 'No venue', startsAt: '2024-01-01T00:00:00Z', priceFrom: 1 },
  { name: 7, venueSlug: VENUES[0], startsAt: '2024-01-01T00:00:00Z', priceFrom: 1 },
  { name: 'x', venueSlug: VENUES[0], startsAt: '2024-01-01T00:00:00Z', priceFrom: 1, bogus: 1 },
  { name: 'x', venueSlug: VENUES[0], startsAt: '2024-01-01T00:00:00Z', priceFrom: 501 },
);

/** Which record a write names: one that exists (by its place among the keys), or none. */
const target = fc.record({ index: fc.nat(), missing: fc.boolean() });

const command = fc.oneof(
  fc.record({ kind: fc.constant('create-event' as const), body: eventBody }),
  fc.record({ kind: fc.constant('create-event' as const), body: badEventBody }),
  fc.record({ kind: fc.constant('replace-event' as const), target, body: eventBody }),
  fc.record({
    kind: fc.constant('merge-event' as const),
    target,
    body: fc.oneof(
      eventBody.map((body) => ({ ...body })).filter((body) => Object.keys(body).length > 0),
      fc.constant<Row>({ name: null }),
      fc.constant<Row>({ priceFrom: -1 }),
    ),
  }),
  fc.record({ kind: fc.constant('delete-event' as const), target }),
  fc.record({ kind: fc.constant('create-ticket' as const), target, body: ticketBody }),
  fc.record({
    kind: fc.constant('merge-ticket' as const),
    target,
    body: fc.oneof(
      fc.record({ status: fc.constantFrom(...TICKET_STATUSES) }),
      fc.constant<Row>({ holderName: null }),
      fc.record({ price: price(900), holderName: fc.constant('Ada') }),
    ),
  }),
  fc.record({ kind: fc.constant('delete-ticket' as const), target }),
);
type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;

/** A list read of the corpus: up to two filters (more rarely match anything), a sort, a page. */
const filter = fc.oneof(
  fc.tuple(fc.constant('status'), fc.constantFrom(...EVENT_STATUSES)),
  fc.tuple(fc.constant('venue'), fc.constantFrom(...VENUES)),
  fc.tuple(fc.constant('starts_after'), instant),
  fc.tuple(fc.constant('price_max'), price(500).map(String)),
  fc.tuple(fc.constant('q'), fc.constantFrom('Harbour', 'night', 'a', 'Lights F', 'vore')),
);
const eventsQuery = fc
  .tuple(
    fc.array(filter, { maxLength: 2 }),
    fc.option(fc.constantFrom('startsAt', '-startsAt', 'priceFrom', '-priceFrom'), {
      nil: undefined,
    }),
    fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
  )
  .map(([filters, sort, page, pageSize]) => [
    ...filters,
    ...(sort === undefined ? [] : [['sort', sort] as const]),
    ...(page === undefined ? [] : [['page', String(page)] as const]),
    ...(pageSize === undefined ? [] : [['pageSize', String(pageSize)] as const]),
  ]);

let stand: Stockmock;
beforeAll(async () => {
  stand = await startStockmock({ config: 'stockmock.config.yaml', cwd: example });
});
afterAll(async () => {
  await stand.close();
});

interface Answer {
  readonly status: number;
  readonly body: string;
}

async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: {
      ...headers,
      ...(body === undefined
        ? {}
        : {
            'content-type':
              method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
          }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.text() };
}

/** The key at a target's place among the model's keys, or one no record has. */
function keyOf(
  records: ReadonlyMap<string, Row>,
  { index, missing }: { index: number; missing: boolean },
  absent: string,
): string {
  const keys = [...records.keys()].sort();
  return missing || keys.length === 0 ? absent : (keys[index % keys.length] as string);
}

/** A merge's answer is the stored record with the patch applied, which the model then holds. */
function expectMerged(answer: Answer, stored: Row, patch: Row, records: Map<string, Row>): void {
  expect(answer.status, answer.body).toBe(200);
  const record = merged(stored, patch);
  expect(JSON.parse(answer.body)).toEqual(record);
  records.set(record['id'] as string, record);
}

/** Applies one write to the stand-in in a session and to the model; checks the answer. */
async function apply(
  session: string,
  model: { events: Map<string, Row>; tickets: Map<string, Row> },
  write: Command,
): Promise<void> {
  const headers = { authorization: ORGANIZER, 'stockmock-session': session };
  const at = (path: string) => `${stand.url}${path}`;
  switch (write.kind) {
    case 'create-event': {
      const answer = await send(at('/v1/events'), 'POST', headers, write.body);
      const valid =
        typeof write.body['venueSlug'] === 'string' &&
        typeof write.body['name'] === 'string' &&
        !('bogus' in write.body) &&
        (write.body['priceFrom'] as number) <= 500;
      if (!valid) {
        expect(answer.status).toBe(422);
        return;
      }
      expect(answer.status, answer.body).toBe(201);
      const created = JSON.parse(answer.body) as Row;
      const id = created['id'] as string;
      expect(id).toMatch(/^evt_[a-z0-9]{8}$/);
      expect(model.events.has(id)).toBe(false);
      const record = { id, status: 'scheduled', ...write.body };
      expect(created).toEqual(record);
      model.events.set(id, record);
      return;
    }
    case 'replace-event': {
      const id = keyOf(model.events, write.target, 'evt_zzzzzzzz');
      const answer = await send(at(`/v1/events/${id}`), 'PUT', headers, write.body);
      if (!model.events.has(id)) {
        expect(answer.status).toBe(404);
        return;
      }
      expect(answer.status, answer.body).toBe(200);
      const record = { id, status: 'scheduled', ...write.body };
      expect(JSON.parse(answer.body)).toEqual(record);
      model.events.set(id, record);
      return;
    }
    case 'merge-event': {
      const id = keyOf(model.events, write.target, 'evt_zzzzzzzz');
      const answer = await send(at(`/v1/events/${id}`), 'PATCH', headers, write.body);
      const stored = model.events.get(id);
      if (stored === undefined) {
        expect(answer.status).toBe(404);
        return;
      }
      if (write.body['name'] === null || write.body['priceFrom'] === -1) {
        expect(answer.status).toBe(422);
        return;
      }
      expectMerged(answer, stored, write.body, model.events);
      return;
    }
    case 'delete-event': {
      const id = keyOf(model.events, write.target, 'evt_zzzzzzzz');
      const answer = await send(at(`/v1/events/${id}`), 'DELETE', headers);
      expect(answer.status).toBe(model.events.delete(id) ? 204 : 404);
      return;
    }
    case 'create-ticket': {
      const eventId = keyOf(model.events, write.target, 'evt_zzzzzzzz');
      const answer = await send(at(`/v1/events/${eventId}/tickets`), 'POST', headers, write.body);
      if (!model.events.has(eventId)) {
        expect(answer.status).toBe(404);
        return;
      }
      expect(answer.status, answer.body).toBe(201);
      const created = JSON.parse(answer.body) as Row;
      const id = created['id'] as string;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const record = { id, eventId, status: 'available', ...write.body };
      expect(created).toEqual(record);
      model.tickets.set(id, record);
      return;
    }
    case 'merge-ticket':
    case 'delete-ticket': {
      const id = keyOf(model.tickets, write.target, '00000000-0000-4000-8000-000000000000');
      const stored = model.tickets.get(id);
      const eventId = (stored?.['eventId'] as string | undefined) ?? 'evt_zzzzzzzz';
      const path = at(`/v1/events/${eventId}/tickets/${id}`);
      if (write.kind === 'delete-ticket') {
        const answer = await send(path, 'DELETE', headers);
        expect(answer.status).toBe(model.tickets.delete(id) ? 204 : 404);
        return;
      }
      const answer = await send(path, 'PATCH', headers, write.body);
      if (stored === undefined) {
        expect(answer.status).toBe(404);
        return;
      }
      expectMerged(answer, stored, write.body, model.tickets);
      return;
    }
  }
}

/** The reads both stand-ins answer: lists under queries, every item, each event's tickets walked. */
async function corpus(
  url: string,
  headers: Record<string, string>,
  queries: readonly (readonly (readonly [string, string])[])[],
  ids: { events: readonly string[]; tickets: readonly Row[] },
): Promise<string[]> {
  const answers: string[] = [];
  const read = async (path: string, authorization: string) => {
    const answer = await send(`${url}${path}`, 'GET', { ...headers, authorization });
    answers.push(`${path} ${String(answer.status)} ${answer.body}`);
    return answer;
  };
  await read('/v1/venues', ORGANIZER);
  for (const query of queries) {
    const search = new URLSearchParams(
      query.map(([name, value]): [string, string] => [name, value]),
    );
    await read(`/v1/events?${search.toString()}`, ORGANIZER);
  }
  for (const id of ids.events) await read(`/v1/events/${id}`, ORGANIZER);
  for (const ticket of ids.tickets) {
    await read(`/v1/events/${String(ticket['eventId'])}/tickets/${String(ticket['id'])}`, PUBLIC);
  }
  for (const id of ids.events.slice(0, 6)) {
    let cursor: string | null = '';
    for (let pages = 0; cursor !== null && pages < 60; pages++) {
      const answer = await read(
        `/v1/events/${id}/tickets?limit=7${cursor === '' ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        ORGANIZER,
      );
      cursor =
        answer.status === 200
          ? (JSON.parse(answer.body) as { next_cursor: string | null }).next_cursor
          : null;
    }
  }
  return answers;
}

describe('writes in a session read as a fixture that held them', () => {
  it('for generated sequences of writes, every read of a generated corpus is the same bytes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 24 }),
        fc.array(eventsQuery, { minLength: 8, maxLength: 16 }),
        async (writes, queries) => {
          run += 1;
          const session = `oracle-${String(run)}`;
          const model = {
            events: new Map(BASE.events.map((event) => [event['id'] as string, event])),
            tickets: new Map(BASE.tickets.map((ticket) => [ticket['id'] as string, ticket])),
          };
          const deleted = new Set<string>();
          for (const write of writes) {
            const before = new Set(model.events.keys());
            await apply(session, model, write);
            for (const id of before) if (!model.events.has(id)) deleted.add(id);
          }
          const fresh = await startStockmock({
            spec: SPEC,
            tokens: TOKENS,
            data: {
              venues: BASE.venues,
              events: [...model.events.values()],
              tickets: [...model.tickets.values()],
            },
          });
          try {
            const events = [...model.events.keys(), ...deleted].sort();
            const tickets = [...model.tickets.values()].filter((_, index) => index % 17 === 0);
            const ids = { events, tickets };
            const written = await corpus(stand.url, { 'stockmock-session': session }, queries, ids);
            const loaded = await corpus(fresh.url, {}, queries, ids);
            expect(written).toEqual(loaded);
            // The corpus reads items, not only empty lists and 404s.
            expect(
              written.filter((answer) => answer.includes('"items":[{')).length,
            ).toBeGreaterThan(queries.length / 4);
          } finally {
            await fresh.close();
          }
        },
      ),
      { seed: 50, numRuns: 10, endOnFailure: true },
    );
  });

  it('another session, and a request that names none, still read the loaded data', async () => {
    const session = 'oracle-other';
    const created = await send(
      `${stand.url}/v1/events`,
      'POST',
      { authorization: ORGANIZER, 'stockmock-session': session },
      {
        name: 'Only mine',
        venueSlug: VENUES[0],
        startsAt: '2025-01-01T00:00:00Z',
        priceFrom: 1,
      },
    );
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.body) as Row)['id'] as string;
    const mine = await send(`${stand.url}/v1/events/${id}`, 'GET', {
      authorization: ORGANIZER,
      'stockmock-session': session,
    });
    expect(mine.status).toBe(200);
    for (const headers of [
      { 'stockmock-session': 'someone-else' },
      {},
      { cookie: 'stockmock-session=third' },
    ]) {
      const theirs = await send(`${stand.url}/v1/events/${id}`, 'GET', {
        authorization: ORGANIZER,
        ...headers,
      });
      expect(theirs.status).toBe(404);
    }
    const viaCookie = await send(`${stand.url}/v1/events/${id}`, 'GET', {
      authorization: ORGANIZER,
      cookie: `a=b; stockmock-session=${session}`,
    });
    expect(viaCookie.status).toBe(200);
  });
});
