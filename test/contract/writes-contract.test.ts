/**
 * The checker's writes (`contract --writes`) on the events example: it passes stockmock, passes
 * the stateful servers written from the spec alone that decide differently, and fails each
 * broken one (test/contract/writes/events-write-servers.ts, written without reading
 * src/contract/). A server without sessions is correct at the interface level and departs from
 * the stand-in only.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { runContract, type Report } from '../../src/contract/run-contract.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { failedAt } from '../helpers/stand-in-check.ts';
import {
  WRITE_REFERENCE,
  WRITE_VARIANTS,
  type WriteServer,
} from './writes/events-write-servers.ts';

const example = fileURLToPath(new URL('../../examples/events/', import.meta.url));
const TOKENS = { organizer: 'organizer-demo-token', public: 'public-demo-token' };
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec(`${example}openapi.yaml`);
});

function check(url: string, tokens: Readonly<Record<string, string>>): Promise<Report> {
  return runContract({
    baseUrl: url,
    tokens,
    spec,
    level: 'stand-in',
    seed: 50,
    runs: 5,
    timeoutMs: 5000,
    concurrency: 4,
    writes: true,
  });
}

/** The write checks a server fails at a level. */
async function judged(server: WriteServer, level: 'interface' | 'stand-in'): Promise<string[]> {
  const running = await server.start();
  try {
    const report = await check(running.url, { ...running.tokens });
    return failedAt(report, level).filter((id) => id.startsWith('writes.'));
  } finally {
    await running.close();
  }
}

describe('stockmock contract --writes on the events example', () => {
  it('passes stockmock at the stand-in level, following each collection that takes writes', async () => {
    const mock = await startStockmock({ config: `${example}stockmock.config.yaml` });
    try {
      const report = await check(mock.url, TOKENS);
      expect(failedAt(report, 'stand-in')).toStrictEqual([]);
      const passed = report.results
        .filter((result) => result.outcome.kind === 'passed')
        .map((result) => result.id);
      for (const list of ['/v1/venues', '/v1/events', '/v1/events/{eventId}/tickets']) {
        expect(passed).toContain(`writes.${list}.effects`);
        expect(passed).toContain(`writes.${list}.sessions`);
      }
      // What it created it deleted again: the default session and its own hold no event of it.
      const events = await fetch(`${mock.url}/v1/events?pageSize=1`, {
        headers: { authorization: 'Bearer organizer-demo-token' },
      });
      expect(((await events.json()) as { total: number }).total).toBe(40);
    } finally {
      await mock.close();
    }
  });

  it.each([WRITE_REFERENCE, ...WRITE_VARIANTS.filter((server) => server.kind === 'different')])(
    'passes a correct server at the interface level: $name',
    async (server) => {
      expect(await judged(server, 'interface')).toStrictEqual([]);
    },
  );

  it('tells a server without sessions from the stand-in, at the stand-in level only', async () => {
    const server = WRITE_VARIANTS.find((one) => one.name === 'no sessions') as WriteServer;
    expect(await judged(server, 'stand-in')).toStrictEqual([
      'writes./v1/venues.sessions',
      'writes./v1/events.sessions',
      'writes./v1/events/{eventId}/tickets.sessions',
    ]);
  });

  // Each broken rule, and the checks of the collections it touches: those fail, and no other.
  const EVENTS = 'writes./v1/events.effects';
  const TICKETS = 'writes./v1/events/{eventId}/tickets.effects';
  const caughtBy: Readonly<Record<string, readonly string[]>> = {
    'created event missing from the list': [EVENTS],
    'events total counted before the writes': [EVENTS],
    'deleted event still found by id': [EVENTS],
    'invalid PATCH half-applied': [EVENTS, TICKETS],
    'sessions leak into each other': [
      'writes./v1/venues.sessions',
      'writes./v1/events.sessions',
      'writes./v1/events/{eventId}/tickets.sessions',
    ],
    'merge patch null ignored': [TICKETS],
    'created event stored with a rounded price': [EVENTS],
  };
  it.each(WRITE_VARIANTS.filter((server) => server.kind === 'broken'))(
    'fails a broken server: $name',
    async (server) => {
      expect(await judged(server, server.level)).toStrictEqual(caughtBy[server.name]);
    },
  );
});
