/**
 * A client team's flow on the events example (examples/events), through the programmatic API on
 * a real port: one session per test, the tests run at once on one server. Every expected list is
 * worked out here from events.yaml and the test's own writes, never read from stockmock. Then
 * the admin API's sessions: listed, kept as a fixture that serves the same, ended.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  startStockmock,
  type Stockmock,
  type StockmockSession,
} from '../../src/api/start-stockmock.ts';
import { MAX_BODY_DEPTH } from '../../src/api/build-app.ts';
import { byCodePoints } from '../helpers/code-points.ts';

const example = join(fileURLToPath(new URL('../../', import.meta.url)), 'examples/events');
const ORGANIZER = { authorization: 'Bearer organizer-demo-token' };
const ADMIN = { authorization: 'Bearer writes-admin-token' };

interface Event {
  readonly id: string;
  readonly name: string;
  readonly venueSlug: string;
  readonly status: string;
  readonly startsAt: string;
  readonly priceFrom: number;
}
const BASE = parse(await readFile(join(example, 'events.yaml'), 'utf8')) as {
  venues: { slug: string; name: string }[];
  events: Event[];
};

let mock: Stockmock;
beforeAll(async () => {
  mock = await startStockmock({
    config: 'stockmock.config.yaml',
    cwd: example,
    admin: { token: 'writes-admin-token' },
  });
});
afterAll(async () => {
  await mock.close();
});

async function call(
  session: StockmockSession | undefined,
  method: string,
  path: string,
  body?: unknown,
  type = 'application/json',
) {
  const response = await fetch(path.startsWith('http') ? path : `${mock.url}${path}`, {
    method,
    headers: {
      ...ORGANIZER,
      ...session?.headers,
      ...(body === undefined ? {} : { 'content-type': type }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: (text === '' ? undefined : JSON.parse(text)) as unknown,
  };
}

interface Page {
  items: Event[];
  total: number;
}

/** Every event of a list read whole, by its pages of 100. */
async function listAll(session: StockmockSession, query: string): Promise<Event[]> {
  const events: Event[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(session, 'GET', `/v1/events?${query}&pageSize=100&page=${page}`);
    expect(answer.status).toBe(200);
    const { items, total } = answer.body as Page;
    events.push(...items);
    if (events.length >= total || items.length === 0) return events;
  }
}

/** The events a list holds, by the spec's order: by a field, ties in key order. */
function ordered(events: readonly Event[], field: 'startsAt' | 'priceFrom'): string[] {
  const compare = (a: Event, b: Event) =>
    field === 'priceFrom' ? a.priceFrom - b.priceFrom : byCodePoints(a.startsAt, b.startsAt);
  return [...events]
    .sort((a, b) => compare(a, b) || byCodePoints(a.id, b.id))
    .map((event) => event.id);
}

describe.concurrent('a test suite, one session per test, on one server', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    'test %i: create, read, list, filter, sort, change, replace and delete',
    async (n) => {
      const session = mock.session();
      const body = {
        name: `Harbour Session ${String(n)}`,
        venueSlug: BASE.venues[n]?.slug ?? 'glasshouse',
        startsAt: `2025-0${String(n)}-01T20:00:00Z`,
        priceFrom: n * 7.5,
      };
      const created = await call(session, 'POST', '/v1/events', body);
      expect(created.status).toBe(201);
      const event = created.body as Event;
      expect(event).toEqual({ ...body, id: event.id, status: 'scheduled' });
      expect(created.location).toBe(`${mock.url}/v1/events/${event.id}`);
      expect((await call(session, 'GET', created.location ?? '')).body).toEqual(event);

      // Seen only by its own session: each test's lists hold the fixture and its one event.
      const all = [...BASE.events, event];
      expect((await listAll(session, 'sort=priceFrom')).map((e) => e.id)).toEqual(
        ordered(all, 'priceFrom'),
      );
      expect((await listAll(session, '')).map((e) => e.id)).toEqual(ordered(all, 'startsAt'));
      expect((await listAll(session, `q=session%20${String(n)}`)).map((e) => e.id)).toEqual([
        event.id,
      ]);
      expect((await listAll(session, `venue=${body.venueSlug}`)).map((e) => e.id)).toEqual(
        ordered(
          all.filter((e) => e.venueSlug === body.venueSlug),
          'startsAt',
        ),
      );

      // A refused body changes nothing.
      const refused = await call(
        session,
        'PATCH',
        `/v1/events/${event.id}`,
        { priceFrom: -1 },
        'application/merge-patch+json',
      );
      expect(refused.status).toBe(422);
      expect((await call(session, 'GET', `/v1/events/${event.id}`)).body).toEqual(event);

      const merged = await call(
        session,
        'PATCH',
        `/v1/events/${event.id}`,
        { status: 'on_sale' },
        'application/merge-patch+json',
      );
      expect(merged.body).toEqual({ ...event, status: 'on_sale' });
      expect((await listAll(session, 'status=on_sale')).map((e) => e.id)).toContain(event.id);

      const replaced = await call(session, 'PUT', `/v1/events/${event.id}`, {
        ...body,
        priceFrom: 1,
      });
      expect(replaced.body).toEqual({ ...body, id: event.id, status: 'scheduled', priceFrom: 1 });

      expect((await call(session, 'DELETE', `/v1/events/${event.id}`)).status).toBe(204);
      expect((await call(session, 'GET', `/v1/events/${event.id}`)).status).toBe(404);
      expect((await listAll(session, '')).length).toBe(BASE.events.length);
      // The session's own requests, and none of another's.
      expect(session.requests().map((entry) => entry.method)).toContain('DELETE');
      expect(new Set(session.requests().map((entry) => entry.session))).toEqual(
        new Set([session.name]),
      );
    },
  );
});

describe('keys, conflicts and resets', () => {
  it('a slug from the name, never one taken; a key given twice is a 409 that changes nothing', async () => {
    const session = mock.session();
    const taken = BASE.venues.filter((venue) => venue.name === 'Harbour Arena').map((v) => v.slug);
    const made = await call(session, 'POST', '/v1/venues', {
      name: 'Harbour Arena',
      city: 'Oslo',
      capacity: 100,
    });
    expect(made.status).toBe(201);
    const slug = (made.body as { slug: string }).slug;
    expect(slug).toMatch(/^harbour-arena(-\d+)?$/);
    expect(taken).not.toContain(slug);
    const again = await call(session, 'POST', '/v1/venues', {
      slug,
      name: 'Other',
      city: 'Oslo',
      capacity: 100,
    });
    expect(again.status).toBe(409);
    expect((await call(session, 'GET', `/v1/venues/${slug}`)).body).toEqual(made.body);
  });

  it('a body nesting deeper than the limit is refused unread, and changes nothing', async () => {
    const session = mock.session();
    const deep = `{"name":${'['.repeat(MAX_BODY_DEPTH + 1)}${']'.repeat(MAX_BODY_DEPTH + 1)}}`;
    const response = await fetch(`${mock.url}/v1/events`, {
      method: 'POST',
      headers: { ...ORGANIZER, ...session.headers, 'content-type': 'application/json' },
      body: deep,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { type: string }).type).toBe(
      'urn:problem-type:stockmock:invalid-body',
    );
    expect(session.requests().map((entry) => entry.status)).toEqual([400]);
    expect((await listAll(session, '')).length).toBe(BASE.events.length);
  });

  it('a session name that cannot be one is a 400 naming where it came from', async () => {
    for (const [headers, parameter] of [
      [{ 'stockmock-session': 'no spaces' }, 'stockmock-session'],
      [{ cookie: 'stockmock-session=%20' }, 'Cookie'],
    ] as const) {
      const response = await fetch(`${mock.url}/v1/events`, {
        headers: { ...ORGANIZER, ...headers },
      });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: { parameter: string; in: string }[] };
      expect(problem.errors).toEqual([expect.objectContaining({ parameter, in: 'header' })]);
    }
  });

  it('a reset restores the fixture for that session alone', async () => {
    const [one, two] = [mock.session(), mock.session()];
    const [first] = BASE.events;
    for (const session of [one, two]) {
      expect((await call(session, 'DELETE', `/v1/events/${String(first?.id)}`)).status).toBe(204);
    }
    one.reset();
    expect((await call(one, 'GET', `/v1/events/${String(first?.id)}`)).body).toEqual(first);
    expect((await call(two, 'GET', `/v1/events/${String(first?.id)}`)).status).toBe(404);
    mock.resetSessions();
    expect((await call(two, 'GET', `/v1/events/${String(first?.id)}`)).body).toEqual(first);
  });

  it('the default session is shared by every request that names none', async () => {
    const created = await call(undefined, 'POST', '/v1/venues', {
      name: 'Shared Hall',
      city: 'Lyon',
      capacity: 60,
    });
    expect(created.status).toBe(201);
    const slug = (created.body as { slug: string }).slug;
    expect((await call(undefined, 'GET', `/v1/venues/${slug}`)).status).toBe(200);
    expect((await call(mock.session(), 'GET', `/v1/venues/${slug}`)).status).toBe(404);
    const reset = await fetch(`${mock.url}/__admin/sessions/default`, {
      method: 'DELETE',
      headers: ADMIN,
    });
    expect(reset.status).toBe(204);
    expect((await call(undefined, 'GET', `/v1/venues/${slug}`)).status).toBe(404);
  });
});

describe('the admin API keeps a session as data', () => {
  it('lists it, writes it as a fixture that serves the same, and ends it', async () => {
    const session = mock.session('kept-by-hand');
    const created = await call(session, 'POST', '/v1/events', {
      name: 'Kept Night',
      venueSlug: 'glasshouse',
      startsAt: '2026-02-01T20:00:00Z',
      priceFrom: 42,
    });
    const [gone] = BASE.events;
    await call(session, 'DELETE', `/v1/events/${String(gone?.id)}`);
    const listed = await fetch(`${mock.url}/__admin/sessions`, { headers: ADMIN });
    const { sessions } = (await listed.json()) as { sessions: { name: string; writes: number }[] };
    expect(sessions.find((one) => one.name === 'kept-by-hand')?.writes).toBe(2);

    const data = await fetch(`${mock.url}/__admin/sessions/kept-by-hand/data`, { headers: ADMIN });
    expect(data.headers.get('content-type')).toMatch(/^application\/yaml/);
    const folder = await mkdtemp(join(tmpdir(), 'stockmock-kept-'));
    const file = join(folder, 'kept.yaml');
    await writeFile(file, await data.text());
    const kept = await startStockmock({
      spec: join(example, 'openapi.yaml'),
      fixtures: file,
      tokens: [
        { token: 'organizer-demo-token', level: 'organizer' },
        { token: 'public-demo-token', level: 'public' },
      ],
    });
    try {
      const event = created.body as Event;
      const read = await fetch(`${kept.url}/v1/events/${event.id}`, { headers: ORGANIZER });
      expect(await read.json()).toEqual(event);
      const deleted = await fetch(`${kept.url}/v1/events/${String(gone?.id)}`, {
        headers: ORGANIZER,
      });
      expect(deleted.status).toBe(404);
      const list = await fetch(`${kept.url}/v1/events?pageSize=1`, { headers: ORGANIZER });
      expect(((await list.json()) as Page).total).toBe(BASE.events.length);
    } finally {
      await kept.close();
    }
    const ended = await fetch(`${mock.url}/__admin/sessions/kept-by-hand`, {
      method: 'DELETE',
      headers: ADMIN,
    });
    expect(ended.status).toBe(204);
    expect((await call(session, 'GET', `/v1/events/${String(gone?.id)}`)).body).toEqual(gone);
  });
});
