/**
 * The checker on the events example (examples/events: a `pageSize` list, a whole bare-array
 * list, a cursor-paged nested list and a nested item): it passes stockmock serving it at both
 * levels, passes the servers written from the spec alone that decide differently, and fails each
 * broken one (test/contract/events/events-servers.ts, written without reading src/contract/).
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import type { Report } from '../../src/contract/run-contract.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { checkAtStandIn, failedAt } from '../helpers/stand-in-check.ts';
import { EVENTS_REFERENCE, EVENTS_VARIANTS, type EventsServer } from './events/events-servers.ts';

const example = fileURLToPath(new URL('../../examples/events/', import.meta.url));
let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec(`${example}openapi.yaml`);
});

function check(url: string, tokens: Readonly<Record<string, string>>): Promise<Report> {
  return checkAtStandIn(url, tokens, spec, { seed: 49, runs: 20 });
}

async function judged(server: EventsServer, level: 'interface' | 'stand-in'): Promise<string[]> {
  const running = await server.start();
  try {
    return failedAt(await check(running.url, { ...running.tokens }), level);
  } finally {
    await running.close();
  }
}

describe('stockmock contract on the events example', () => {
  it('passes stockmock serving it at both levels, walking every shape it declares', async () => {
    const mock = await startStockmock({ config: `${example}stockmock.config.yaml` });
    try {
      const report = await check(mock.url, {
        organizer: 'organizer-demo-token',
        public: 'public-demo-token',
      });
      expect(failedAt(report, 'stand-in')).toStrictEqual([]);
      const passed = report.results
        .filter((result) => result.outcome.kind === 'passed')
        .map((result) => result.id);
      for (const id of [
        'paging./v1/venues.walks',
        'paging./v1/events.walks',
        'paging./v1/events/{eventId}/tickets.walks',
        'paging./v1/events/{eventId}/tickets.foreign-cursor',
        'paging./v1/events/{eventId}/tickets.walks-back',
        'nested./v1/events/{eventId}/tickets',
        'nested./v1/events/{eventId}/tickets.unknown-parent',
        'nested./v1/events/{eventId}/tickets/{ticketId}.other-parent',
        'single./v1/events/{eventId}/tickets/{ticketId}',
        'generated./v1/events/{eventId}/tickets',
        'sort./v1/events.default',
      ]) {
        expect(passed).toContain(id);
      }
      expect(report.results.filter((result) => result.id.startsWith('shape.'))).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it.each([EVENTS_REFERENCE, ...EVENTS_VARIANTS.filter((server) => server.kind === 'different')])(
    'passes a correct server at the interface level: $name',
    async (server) => {
      expect(await judged(server, 'interface')).toStrictEqual([]);
    },
  );

  it.each(
    EVENTS_VARIANTS.filter((server) => server.kind === 'different' && server.level === 'interface'),
  )('passes a server that decides within the stand-in too: $name', async (server) => {
    expect(await judged(server, 'stand-in')).toStrictEqual([]);
  });

  /**
   * "In any case" is the spec's prose, which the checker does not read: the declared `contains`
   * keeps the case rule at the stand-in's level (as billing's `q`).
   */
  const AT_THE_STAND_IN: Readonly<Record<string, string>> = {
    'q case-sensitive': 'filters./v1/events.name-case-insensitive',
  };

  it.each(
    EVENTS_VARIANTS.filter(
      (server) =>
        server.kind === 'broken' &&
        server.level === 'interface' &&
        !(server.name in AT_THE_STAND_IN),
    ),
  )('fails a broken server at the interface level: $name', async (server) => {
    expect(await judged(server, 'interface')).not.toStrictEqual([]);
  });

  it.each(
    EVENTS_VARIANTS.filter(
      (server) =>
        ((server.kind === 'broken' || server.kind === 'different') &&
          server.level === 'stand-in') ||
        server.name in AT_THE_STAND_IN,
    ),
  )('fails a server that departs from the stand-in at that level: $name', async (server) => {
    const failures = await judged(server, 'stand-in');
    const expected = AT_THE_STAND_IN[server.name];
    if (expected === undefined) expect(failures).not.toStrictEqual([]);
    else expect(failures).toContain(expected);
  });
});
