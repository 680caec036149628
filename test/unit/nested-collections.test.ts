/**
 * Nested lists and items (issue 49, item 3): `/events/{eventId}/tickets` is the tickets whose
 * event is that event, `/venues/{venueSlug}/events/{eventId}/tickets` also needs the event to be
 * the venue's; an unknown parent is a 404, and an item that exists under another parent is a
 * 404 under this one. The fixture is generated from a seed; every expected answer is worked
 * out here from it.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { declarationIssues } from '../helpers/declaration-issues.ts';
import { checkAtStandIn, failedAt } from '../helpers/stand-in-check.ts';
import { seededRandom } from '../../src/util/seeded-random.ts';

const random = seededRandom(4_903);
const venues = ['harbour-hall', 'old-mill', 'the-yard'];
const events = Array.from({ length: 9 }, (_, i) => ({
  id: i + 1,
  venue_slug: venues[Math.floor(random() * venues.length)] as string,
}));
const tickets = Array.from({ length: 60 }, (_, i) => ({
  id: 100 + i,
  eventId: 1 + Math.floor(random() * events.length),
  seat: `S${String(i)}`,
}));

const SPEC = `openapi: 3.1.0
info: { title: events, version: '1' }
x-stockmock-collections:
  venues:
    key: slug
    record: { type: object, required: [slug], properties: { slug: { type: string } } }
  events:
    key: id
    references: { venue_slug: venues }
    record:
      type: object
      required: [id, venue_slug]
      properties: { id: { type: integer }, venue_slug: { type: string } }
  tickets:
    key: id
    record:
      type: object
      required: [id, eventId, seat]
      properties: { id: { type: integer }, eventId: { type: integer }, seat: { type: string } }
paths:
  /events/{eventId}/tickets:
    parameters:
      - { name: eventId, in: path, required: true, schema: { type: integer } }
    get:
      operationId: listTickets
      security: []
      x-stockmock: { collection: tickets, envelope: { items: data, total: total, links: links } }
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, default: 4 } }
        - { name: offset, in: query, schema: { type: integer, minimum: 0 } }
      responses:
        '200': { description: a page }
        '404': { description: no such event }
  /events/{eventId}/tickets/{ticketId}:
    parameters:
      - { name: eventId, in: path, required: true, schema: { type: integer } }
      - { name: ticketId, in: path, required: true, schema: { type: integer } }
    get:
      operationId: getTicket
      security: []
      x-stockmock: { collection: tickets, item: ticketId, envelope: none }
      responses:
        '200': { description: a ticket }
        '404': { description: no such ticket here }
  /venues/{venueSlug}/events/{eventId}/tickets:
    get:
      operationId: listVenueEventTickets
      security: []
      x-stockmock: { collection: tickets, paging: none, envelope: none }
      parameters:
        - { name: venueSlug, in: path, required: true, schema: { type: string } }
        - { name: eventId, in: path, required: true, schema: { type: integer } }
      responses:
        '200': { description: every ticket, content: { application/json: { schema: { type: array } } } }
        '404': { description: no such venue or event }
`;

let url = '';
let close: () => Promise<void> = () => Promise.resolve();
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-nested-'));
  await writeFile(join(dir, 'openapi.yaml'), SPEC);
  const lines = [
    'venues:',
    ...venues.map((slug) => `  - { slug: ${slug} }`),
    'events:',
    ...events.map((e) => `  - { id: ${String(e.id)}, venue_slug: ${e.venue_slug} }`),
    'tickets:',
    ...tickets.map(
      (t) => `  - { id: ${String(t.id)}, eventId: ${String(t.eventId)}, seat: ${t.seat} }`,
    ),
  ];
  await writeFile(join(dir, 'data.yaml'), `${lines.join('\n')}\n`);
  const mock = await startStockmock({
    spec: join(dir, 'openapi.yaml'),
    fixtures: join(dir, 'data.yaml'),
  });
  url = mock.url;
  close = () => mock.close();
});
afterAll(() => close());

const ticketsOf = (eventId: number) => tickets.filter((ticket) => ticket.eventId === eventId);

describe('a list nested under its parent', () => {
  it("walks to every ticket of each event, and none of another's", async () => {
    for (const event of events) {
      const walked: unknown[] = [];
      let next: string | null = `${url}/events/${String(event.id)}/tickets`;
      for (let step = 0; next !== null && step < 100; step++) {
        const response: Response = await fetch(next);
        expect(response.status).toBe(200);
        const page = (await response.json()) as {
          data: unknown[];
          total: number;
          links: { next: string | null };
        };
        expect(page.total).toBe(ticketsOf(event.id).length);
        walked.push(...page.data);
        next = page.links.next;
      }
      expect(walked).toEqual(ticketsOf(event.id));
    }
  });

  it('is a 404 problem under a parent that does not exist', async () => {
    const response = await fetch(`${url}/events/${String(events.length + 1)}/tickets`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });

  it("finds an item under its own parent only: under another event's path it is a 404", async () => {
    for (const ticket of tickets.slice(0, 12)) {
      const own = await fetch(
        `${url}/events/${String(ticket.eventId)}/tickets/${String(ticket.id)}`,
      );
      expect(own.status).toBe(200);
      expect(await own.json()).toEqual(ticket);
      const other = events.find((event) => event.id !== ticket.eventId) as { id: number };
      const elsewhere = await fetch(
        `${url}/events/${String(other.id)}/tickets/${String(ticket.id)}`,
      );
      expect(elsewhere.status).toBe(404);
      await elsewhere.body?.cancel();
    }
  });

  it("nests two levels: the event must be the venue's", async () => {
    for (const event of events) {
      for (const venue of venues) {
        const response = await fetch(`${url}/venues/${venue}/events/${String(event.id)}/tickets`);
        if (venue === event.venue_slug) {
          expect(response.status).toBe(200);
          expect(await response.json()).toEqual(ticketsOf(event.id));
        } else {
          expect(response.status, `${venue} / ${String(event.id)}`).toBe(404);
          await response.body?.cancel();
        }
      }
    }
    const unknown = await fetch(`${url}/venues/nowhere/events/1/tickets`);
    expect(unknown.status).toBe(404);
  });
});

describe('the checker on nested lists', () => {
  it('reports each skipped where no list gives its parents, and fails nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-nested-spec-'));
    await writeFile(join(dir, 'openapi.yaml'), SPEC);
    const spec = await loadSpec(join(dir, 'openapi.yaml'));
    const report = await checkAtStandIn(url, {}, spec, { seed: 49, runs: 10 });
    expect([failedAt(report, 'interface'), failedAt(report, 'stand-in')]).toEqual([[], []]);
    const skipped = report.results.flatMap((result) =>
      result.id.startsWith('shape.') && result.outcome.kind === 'skipped' ? [result.title] : [],
    );
    // The spec declares no list of events or of venues: no parent's key can be learned.
    expect(skipped.sort()).toEqual([
      '/events/{eventId}/tickets is nested under eventId, and no list of /events is declared to learn its keys from',
      '/events/{eventId}/tickets/{ticketId} is nested under eventId, and no list of its record is placed under them',
      '/venues/{venueSlug}/events/{eventId}/tickets is nested under eventId, and no list of /venues/{venueSlug}/events is declared to learn its keys from',
    ]);
  });
});

describe('a nested list whose parent cannot be read', () => {
  it('is refused at start with file, line and what to declare', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-nested-spec-'));
    const file = join(dir, 'openapi.yaml');
    // Tickets hold no field of the venue's key: which tickets a venue has cannot be told.
    await writeFile(
      file,
      SPEC.replace(
        '/venues/{venueSlug}/events/{eventId}/tickets:',
        '/venues/{venueSlug}/tickets:',
      ).replace(
        "        - { name: eventId, in: path, required: true, schema: { type: integer } }\n      responses:\n        '200': { description: every ticket",
        "      responses:\n        '200': { description: every ticket",
      ),
    );
    const issues = await declarationIssues(file);
    expect(issues.map((issue) => issue.message)).toEqual([
      'path parameter venueSlug: no field of tickets holds its key; name the field in `parents` (docs/declare-a-resource.md#nested-lists)',
    ]);
    const lines = SPEC.split('\n');
    const declared = lines.findIndex((line) => line.includes('paging: none')) + 1;
    expect(issues[0]?.at?.line).toBe(declared);
  });
});
