/**
 * The loop of "Make the stand-in match your service": for each correct service that decides
 * the interface's open points otherwise (test/contract/independent/different.ts, written apart
 * from the checker), `stockmock contract` suggests a compatibility block; a stockmock started
 * with that block serves a spec; and the service passes the stand-in level judged by that spec.
 * The reference, deciding as PRODUCT.md does, gets only stockmock's defaults suggested.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { judgeAt, runContract, type Report } from '../../src/contract/run-contract.ts';
import { PRODUCT_SETTINGS } from '../../src/contract/stand-in.ts';
import { renderSuggestion, suggestConfig } from '../../src/contract/suggest-config.ts';
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';
import { shippedSpecOnce } from '../helpers/test-app.ts';
import { INDEPENDENT_SERVERS, REFERENCE, type IndependentServer } from './independent/servers.ts';

async function check(
  server: IndependentServer,
  spec: LoadedSpec,
  level: 'interface' | 'stand-in',
): Promise<Report> {
  const running = await server.start();
  try {
    return await runContract({
      baseUrl: running.url,
      tokens: running.tokens,
      spec,
      level,
      // Judged by the served stockmock's spec, the types too must match: the loop proves them.
      pinProblemTypes: level === 'stand-in',
      seed: 5,
      runs: 20,
      timeoutMs: 5000,
      concurrency: 4,
    });
  } finally {
    await running.close();
  }
}

function failedIds(report: Report): string[] {
  return report.results
    .filter((result) => result.outcome.kind === 'failed')
    .map((result) => result.id);
}

/**
 * A service's own /healthz is not the interface's, and stockmock has no setting for its own
 * (nor needs one): the suggestion names it uncovered, and the loop leaves it out (tested apart).
 */
const OWN_HEALTH = 'a health answer of its own';
const DIFFERENT = INDEPENDENT_SERVERS.filter(
  (server) => server.kind === 'different' && server.name !== OWN_HEALTH,
);

describe('suggest a config, start stockmock with it, judge the service by its spec', () => {
  it('covers every correct-but-different server, the combined one included', () => {
    expect(DIFFERENT.map((server) => server.name)).toContain('all differences combined');
    expect(DIFFERENT.length).toBeGreaterThanOrEqual(10);
  });

  it.each(DIFFERENT.map((server) => [server.name, server] as const))(
    '%s',
    async (_name, server) => {
      const found = await check(server, await shippedSpecOnce(), 'interface');
      expect(failedIds(found)).toEqual([]);
      const suggestion = suggestConfig(found);
      expect(suggestion.uncovered).toEqual([]);
      // The block as a user would paste it: YAML, read back as stockmock's config reads it.
      const block = parse(renderSuggestion(suggestion)) as { compatibility: object };
      const differing = suggestion.settings.filter(
        ({ setting, value }) => PRODUCT_SETTINGS[setting] !== value,
      );
      if (differing.length === 0) {
        // A choice PRODUCT.md allows too (gzip, extra auth-params, …): the defaults mirror it.
        expect(failedIds(judgeAt(found, 'stand-in'))).toEqual([]);
        return;
      }
      const mock = await startStockmock({
        compatibility: block.compatibility,
        products: [{ id: 1, name: 'Oak table', quantity: 1 }],
      });
      try {
        const served = await loadSpec(`${mock.url}/openapi.json`);
        const judged = await check(server, served, 'stand-in');
        expect(failedIds(judged)).toEqual([]);
      } finally {
        await mock.close();
      }
    },
    120_000,
  );

  it('names a health answer of its own as uncovered, and suggests no setting for it', async () => {
    const server = INDEPENDENT_SERVERS.find((candidate) => candidate.name === OWN_HEALTH);
    if (server === undefined) throw new Error(`${OWN_HEALTH} is gone`);
    const found = await check(server, await shippedSpecOnce(), 'interface');
    expect(failedIds(found)).toEqual([]);
    const suggestion = suggestConfig(found);
    expect(suggestion.uncovered).toEqual([expect.stringMatching(/^health\.\/healthz: /)]);
    // The same settings as the reference's: the health answer is all it differs in.
    const reference = suggestConfig(await check(REFERENCE, await shippedSpecOnce(), 'interface'));
    expect(suggestion.settings).toEqual(reference.settings);
  });

  it("the reference gets PRODUCT.md's decisions suggested, and its own where PRODUCT.md is silent", async () => {
    const found = await check(REFERENCE, await shippedSpecOnce(), 'interface');
    const suggestion = suggestConfig(found);
    expect(suggestion.uncovered).toEqual([]);
    // PRODUCT.md does not say how a link writes a space; the reference writes its links with
    // URLSearchParams, whose `+` the stand-in's default (`%20`) is not.
    const undecided: Partial<Record<string, string>> = { linkEncoding: 'form' };
    for (const { setting, value } of suggestion.settings) {
      expect(value, setting).toBe(undecided[setting] ?? PRODUCT_SETTINGS[setting]);
    }
    expect(suggestion.settings.map(({ setting }) => setting)).toEqual(
      expect.arrayContaining([
        'order',
        'pastTheEnd',
        'nameMatch',
        'unknownQueryParameters',
        'linkLimit',
        'linkEncoding',
      ]),
    );
  });

  it('names a difference that no setting covers, under the block', async () => {
    const folding = INDEPENDENT_SERVERS.find(
      (server) => server.name === 'name filter folds ASCII case only',
    );
    if (folding === undefined) throw new Error('the ASCII-folding server is missing');
    const suggestion = suggestConfig(await check(folding, await shippedSpecOnce(), 'interface'));
    expect(suggestion.uncovered).toContain(
      'the name filter is neither exact case nor full Unicode case folding throughout',
    );
    expect(suggestion.settings.map(({ setting }) => setting)).not.toContain('nameMatch');
    expect(renderSuggestion(suggestion)).toContain(
      '# Observed, but no setting covers it:\n#   - the name filter is neither exact case',
    );
  });
});
