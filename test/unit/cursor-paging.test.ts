/**
 * Lists paged by cursors (issue 49, item 1): walking `next_cursor` (or `links.next`) from the
 * first page gives every matching item once, in the list's order, at every page size; the end
 * says so (`has_more: false`, `next_cursor: null`); a cursor of another filter, another list or
 * no cursor at all is a 400 naming the parameter; and a cursor whose item has moved still
 * starts right after that item. Expected lists are worked out here from the fixture.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { seededRandom } from '../../src/util/seeded-random.ts';

const random = seededRandom(4_904);
const CITIES = ['Oslo', 'Lyon', 'Porto'];
const events = Array.from({ length: 37 }, (_, i) => ({
  id: i * 2 + 1 + Math.floor(random() * 2),
  city: CITIES[Math.floor(random() * CITIES.length)] as string,
  price: Math.floor(random() * 50),
}));

const SPEC = `openapi: 3.1.0
info: { title: cursors, version: '1' }
x-stockmock-collections:
  events:
    key: id
    record:
      type: object
      required: [id, city, price]
      properties: { id: { type: integer }, city: { type: string }, price: { type: integer } }
paths:
  /events:
    get:
      operationId: listEvents
      security: []
      x-stockmock:
        collection: events
        filters: { city: { field: city, match: exact } }
        sort: { parameter: sort, fields: [price] }
        envelope:
          items: data
          nextCursor: next_cursor
          previousCursor: prev_cursor
          hasMore: has_more
          links: links
      parameters:
        - { name: city, in: query, schema: { type: string } }
        - { name: sort, in: query, schema: { type: string } }
        - { name: cursor, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 20, default: 5 } }
      responses:
        '200': { description: a page }
        '400': { description: a bad parameter }
  /stripe-events:
    get:
      operationId: listStripeEvents
      security: []
      x-stockmock: { collection: events, envelope: { items: data, hasMore: has_more } }
      parameters:
        - { name: starting_after, in: query, schema: { type: string } }
        - { name: ending_before, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 20, default: 4 } }
      responses:
        '200': { description: a page }
        '400': { description: a bad parameter }
  /forward-keys:
    get:
      operationId: listForwardKeys
      security: []
      x-stockmock:
        collection: events
        paging: { cursor: after, cursorValue: key }
        envelope: { items: data, previousCursor: previous, links: links }
      parameters:
        - { name: after, in: query, schema: { type: string } }
      responses:
        '200': { description: a page }
  /paired-events:
    get:
      operationId: listPairedEvents
      security: []
      x-stockmock:
        collection: events
        envelope: { items: data, nextCursor: next, previousCursor: previous }
      parameters:
        - { name: after, in: query, schema: { type: string } }
        - { name: before, in: query, schema: { type: string } }
      responses:
        '200': { description: a page }
        '400': { description: a bad parameter }
  /cheap-events:
    get:
      operationId: listCheapEvents
      security: []
      x-stockmock: { collection: events, envelope: { items: data, nextCursor: next } }
      parameters:
        - { name: cursor, in: query, schema: { type: string } }
      responses:
        '200': { description: a page }
`;

interface Page {
  readonly data: { id: number }[];
  readonly next_cursor: string | null;
  readonly prev_cursor: string | null;
  readonly has_more: boolean;
  readonly links: { next: string | null; prev: string | null; first: string };
}

let url = '';
let close: () => Promise<void> = () => Promise.resolve();
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-cursors-'));
  await writeFile(join(dir, 'openapi.yaml'), SPEC);
  await writeFile(
    join(dir, 'events.yaml'),
    `events:\n${events.map((e) => `  - { id: ${String(e.id)}, city: ${e.city}, price: ${String(e.price)} }`).join('\n')}\n`,
  );
  const mock = await startStockmock({
    spec: join(dir, 'openapi.yaml'),
    fixtures: join(dir, 'events.yaml'),
  });
  url = mock.url;
  close = () => mock.close();
});
afterAll(() => close());

async function page(query: string, list = 'events'): Promise<Page> {
  const response = await fetch(`${url}/${list}?${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as Page;
}

/** Walks a list by its next cursors, from the first page; the ids of every page in order. */
async function walk(query: string, size: number): Promise<number[]> {
  const ids: number[] = [];
  let answer = await page(`${query}&limit=${String(size)}`);
  for (let step = 0; step <= events.length; step++) {
    expect(answer.data.length).toBeLessThanOrEqual(size);
    ids.push(...answer.data.map((event) => event.id));
    expect(answer.has_more).toBe(answer.next_cursor !== null);
    if (answer.next_cursor === null) break;
    answer = await page(
      `${query}&limit=${String(size)}&cursor=${encodeURIComponent(answer.next_cursor)}`,
    );
  }
  return ids;
}

const byPrice = (a: { price: number; id: number }, b: { price: number; id: number }) =>
  b.price - a.price || a.id - b.id;

describe('a list paged by cursors', () => {
  it('gives every item once, in order, at every page size, filtered and sorted', async () => {
    for (const size of [1, 2, 3, 5, 7, 20]) {
      for (const city of [undefined, ...CITIES]) {
        const kept = events.filter((event) => city === undefined || event.city === city);
        const query = city === undefined ? 'x=' : `city=${city}`;
        expect(await walk(query.replace('x=', ''), size)).toEqual(kept.map((e) => e.id));
        const sorted = [...kept].sort(byPrice).map((e) => e.id);
        expect(await walk(`${query.replace('x=', '')}&sort=-price`, size)).toEqual(sorted);
      }
    }
  });

  it('links next to the same pages, and names no last page', async () => {
    const ids: number[] = [];
    let next: string | null = `${url}/events?limit=4`;
    for (let step = 0; next !== null && step <= events.length; step++) {
      const response: Response = await fetch(next);
      const answer = (await response.json()) as Page & { links: { last: unknown } };
      expect(answer.links.last).toBeNull();
      ids.push(...answer.data.map((event) => event.id));
      next = answer.links.next;
    }
    expect(ids).toEqual(events.map((event) => event.id));
  });

  it('refuses a cursor of another filter, of another list, or none at all, naming it', async () => {
    const oslo = await page('city=Oslo&limit=2');
    const other = (await (await fetch(`${url}/cheap-events`)).json()) as { next: string };
    for (const [query, reason] of [
      [`city=Lyon&cursor=${oslo.next_cursor ?? ''}`, 'another list'],
      [`city=Oslo&sort=-price&cursor=${oslo.next_cursor ?? ''}`, 'another list'],
      [`cursor=${other.next}`, 'another list'],
      ['cursor=not-a-cursor', 'is not a cursor this list gave'],
      ['cursor=%7B%7D', 'is not a cursor this list gave'],
      // A character more that base64url decoders drop: the cursor is not the one given.
      [`city=Oslo&cursor=${oslo.next_cursor ?? ''}x`, 'is not a cursor this list gave'],
    ] as const) {
      const response = await fetch(`${url}/events?${query}`);
      expect(response.status, query).toBe(400);
      const problem = (await response.json()) as {
        errors: { parameter: string; message: string }[];
      };
      expect(problem.errors.map((error) => error.parameter)).toEqual(['cursor']);
      expect(problem.errors[0]?.message).toContain(reason);
    }
  });

  it('starts right after its item when the item is no longer at the place it was', async () => {
    const first = await page('limit=6');
    const cursor = first.next_cursor ?? '';
    // The same cursor, as if items had come before its item since: its recorded place is off.
    const [tag, index, key] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [
      string,
      number,
      number,
    ];
    expect(key).toBe(events[5]?.id);
    expect(index).toBe(5);
    const moved = Buffer.from(JSON.stringify([tag, index + 3, key])).toString('base64url');
    const after = await page(`limit=6&cursor=${moved}`);
    expect(after.data.map((event) => event.id)).toEqual(events.slice(6, 12).map((e) => e.id));
  });

  it('starts after the first key above its item when the item is gone, in key order', async () => {
    const first = await page('limit=6');
    const [tag] = JSON.parse(Buffer.from(first.next_cursor ?? '', 'base64url').toString()) as [
      string,
    ];
    // A key between two served ones, which no event has: an item removed since the cursor.
    const gap = events.findIndex((event, i) => (events[i + 1]?.id ?? 0) - event.id >= 2);
    expect(gap).toBeGreaterThanOrEqual(0);
    const gone = (events[gap]?.id ?? 0) + 1;
    const cursor = Buffer.from(JSON.stringify([tag, 999, gone])).toString('base64url');
    const after = await page(`limit=6&cursor=${cursor}`);
    expect(after.data.map((event) => event.id)).toEqual(
      events.slice(gap + 1, gap + 7).map((e) => e.id),
    );
  });
});

/** The ids of a list's pages, each page in list order, pages in the order walked. */
type Pages = number[][];

describe('the page before, by a previous cursor or a parameter of its own', () => {
  const ids = events.map((event) => event.id);
  /** The pages of `size` items from the end back to the start, as a walk back must give them. */
  const pagesBack = (from: number, size: number): Pages => {
    const pages: Pages = [];
    for (let end = from; end > 0; end -= size) pages.push(ids.slice(Math.max(0, end - size), end));
    return pages;
  };

  it('walks back from the last page by prev_cursor and links.prev, page for page', async () => {
    for (const size of [1, 3, 5, 19, 20]) {
      let last = await page(`limit=${String(size)}`);
      while (last.next_cursor !== null) {
        last = await page(`limit=${String(size)}&cursor=${encodeURIComponent(last.next_cursor)}`);
      }
      const lastStart = ids.indexOf(last.data[0]?.id ?? -1);
      const got: Pages = [];
      let answer = last;
      for (let step = 0; answer.prev_cursor !== null && step <= ids.length; step++) {
        // The link says the same as the cursor: follow each in turn.
        const linked = (await (await fetch(answer.links.prev ?? '')).json()) as Page;
        answer = await page(
          `limit=${String(size)}&cursor=${encodeURIComponent(answer.prev_cursor)}`,
        );
        expect(linked.data).toEqual(answer.data);
        got.push(answer.data.map((event) => event.id));
        // Walking back, has_more says whether pages come before this one.
        expect(answer.has_more).toBe(answer.prev_cursor !== null);
      }
      expect(got).toEqual(pagesBack(lastStart, size));
      expect(answer.links.prev).toBeNull();
    }
  });

  it('goes forward again from a page reached backwards', async () => {
    const third = await page('limit=5&cursor=' + ((await walkTo(2, 5)) ?? ''));
    const back = await page(`limit=5&cursor=${encodeURIComponent(third.prev_cursor ?? '')}`);
    expect(back.data.map((e) => e.id)).toEqual(ids.slice(5, 10));
    const forward = await page(`limit=5&cursor=${encodeURIComponent(back.next_cursor ?? '')}`);
    expect(forward.data.map((e) => e.id)).toEqual(ids.slice(10, 15));
  });

  it('reads a key as the cursor where the answer gives none (Stripe), both ways', async () => {
    const forward: Pages = [];
    let answer = await page('limit=4', 'stripe-events');
    forward.push(answer.data.map((e) => e.id));
    while (answer.has_more) {
      const last = answer.data.at(-1)?.id ?? -1;
      answer = await page(`limit=4&starting_after=${String(last)}`, 'stripe-events');
      forward.push(answer.data.map((e) => e.id));
    }
    expect(forward.flat()).toEqual(ids);
    expect(forward.every((one) => one.length <= 4)).toBe(true);
    const back: Pages = [];
    let first = ids.at(-1) ?? -1;
    answer = await page(`limit=4&ending_before=${String(first)}`, 'stripe-events');
    back.push(answer.data.map((e) => e.id));
    while (answer.has_more) {
      first = answer.data[0]?.id ?? -1;
      answer = await page(`limit=4&ending_before=${String(first)}`, 'stripe-events');
      back.push(answer.data.map((e) => e.id));
    }
    expect(back).toEqual(pagesBack(ids.length - 1, 4));
  });

  it('places a key no item has where it would be, in key order', async () => {
    const gap = events.findIndex((event, i) => (events[i + 1]?.id ?? 0) - event.id >= 2);
    const gone = (events[gap]?.id ?? 0) + 1;
    const after = await page(`limit=3&starting_after=${String(gone)}`, 'stripe-events');
    expect(after.data.map((e) => e.id)).toEqual(ids.slice(gap + 1, gap + 4));
    const before = await page(`limit=3&ending_before=${String(gone)}`, 'stripe-events');
    expect(before.data.map((e) => e.id)).toEqual(ids.slice(Math.max(0, gap - 2), gap + 1));
  });

  it('names no page before where keys lead forward only (no parameter for the page before)', async () => {
    const second = (await page(`after=${String(ids[19])}`, 'forward-keys')) as unknown as {
      data: { id: number }[];
      previous: string | null;
      links: { prev: string | null; next: string | null };
    };
    expect(second.data.map((e) => e.id)).toEqual(ids.slice(20, 40));
    expect(second.previous).toBeNull();
    expect(second.links.prev).toBeNull();
  });

  it('refuses a key of another type, both directions at once, and a cursor given the wrong way', async () => {
    const paired = await page('', 'paired-events');
    const next = (paired as unknown as { next: string }).next;
    for (const [list, query, parameter] of [
      ['stripe-events', 'starting_after=abc', 'starting_after'],
      ['stripe-events', 'ending_before=1.5', 'ending_before'],
      ['stripe-events', 'starting_after=3&ending_before=9', 'ending_before'],
      // A next page's cursor given as the page before's: never a wrong page.
      ['paired-events', `before=${next}`, 'before'],
    ] as const) {
      const response = await fetch(`${url}/${list}?${query}`);
      expect(response.status, query).toBe(400);
      const problem = (await response.json()) as { errors: { parameter: string }[] };
      expect(problem.errors.map((error) => error.parameter)).toEqual([parameter]);
    }
  });
});

/** The next cursor after `pages` pages of `size`, from the first. */
async function walkTo(pages: number, size: number): Promise<string | null> {
  let answer = await page(`limit=${String(size)}`);
  for (let step = 1; step < pages; step++) {
    answer = await page(
      `limit=${String(size)}&cursor=${encodeURIComponent(answer.next_cursor ?? '')}`,
    );
  }
  return answer.next_cursor === null ? null : encodeURIComponent(answer.next_cursor);
}
