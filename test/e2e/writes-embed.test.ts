/**
 * A create schema is rarely the resource's: a show is created with a `venueSlug`, and the show
 * a client reads holds the whole `venue` (`embed: {venue: venueSlug}`), its `status` from the
 * schema's default and its `id` the next integer. An unknown venue is refused; a merge that
 * names another venue embeds that one.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStockmock, type Stockmock } from '../../src/api/start-stockmock.ts';

const SPEC = `openapi: 3.1.0
info: { title: Shows, version: 1.0.0 }
x-stockmock-collections:
  venues:
    key: slug
    record:
      type: object
      required: [slug, name]
      properties: { slug: { type: string }, name: { type: string } }
  shows:
    key: id
    references: { venueSlug: venues }
    embed: { venue: venueSlug }
    record:
      type: object
      required: [id, title, venueSlug, venue, status]
      properties:
        id: { type: integer, minimum: 1 }
        title: { type: string, minLength: 1 }
        venueSlug: { type: string }
        venue:
          type: object
          required: [slug, name]
          properties: { slug: { type: string }, name: { type: string } }
        status: { type: string, enum: [draft, live], default: draft }
      additionalProperties: false
paths:
  /shows:
    get:
      x-stockmock: { collection: shows, paging: none, envelope: none }
      responses:
        '200':
          description: Every show.
          content: { application/json: { schema: { type: array, items: { type: object } } } }
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [title, venueSlug]
              properties: { title: { type: string, minLength: 1 }, venueSlug: { type: string } }
              additionalProperties: false
      responses:
        '201': { description: Created., content: { application/json: { schema: { type: object } } } }
        '422': { description: Refused. }
  /shows/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: integer } }
    get:
      x-stockmock: { collection: shows, item: id, envelope: none }
      responses:
        '200': { description: One show., content: { application/json: { schema: { type: object } } } }
        '404': { description: None. }
    patch:
      requestBody:
        required: true
        content:
          application/merge-patch+json:
            schema: { type: object, properties: { venueSlug: { type: string }, title: { type: string } } }
      responses:
        '200': { description: Changed., content: { application/json: { schema: { type: object } } } }
        '404': { description: None. }
        '422': { description: Refused. }
`;

const VENUES = [
  { slug: 'hall', name: 'The Hall' },
  { slug: 'barn', name: 'The Barn' },
];
let mock: Stockmock;
beforeAll(async () => {
  const folder = await mkdtemp(join(tmpdir(), 'stockmock-embed-'));
  const spec = join(folder, 'openapi.yaml');
  await writeFile(spec, SPEC);
  mock = await startStockmock({
    spec,
    data: {
      venues: VENUES,
      shows: [{ id: 7, title: 'Old', venueSlug: 'hall', venue: VENUES[0], status: 'live' }],
    },
  });
});
afterAll(async () => {
  await mock.close();
});

async function send(method: string, path: string, body?: unknown) {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: {
      'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a created record made whole', () => {
  it('embeds the referenced record, takes the default and the next key', async () => {
    const created = await send('POST', '/shows', { title: 'New', venueSlug: 'barn' });
    expect(created).toEqual({
      status: 201,
      body: { id: 8, title: 'New', venueSlug: 'barn', venue: VENUES[1], status: 'draft' },
    });
    expect((await send('GET', '/shows/8')).body).toEqual(created.body);
  });

  it('refuses a key no record has, naming the field', async () => {
    const refused = await send('POST', '/shows', { title: 'Lost', venueSlug: 'nowhere' });
    expect(refused.status).toBe(422);
    const [fault, ...more] = refused.body['errors'] as { parameter: string; message: string }[];
    expect(more).toEqual([]);
    expect(fault?.parameter).toBe('/venueSlug');
    expect(fault?.message).toMatch(/names no record of venues/);
  });

  it('embeds the venue a merge names instead', async () => {
    const changed = await send('PATCH', '/shows/7', { venueSlug: 'barn' });
    expect(changed.body).toEqual({
      id: 7,
      title: 'Old',
      venueSlug: 'barn',
      venue: VENUES[1],
      status: 'live',
    });
  });
});
