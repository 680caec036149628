/** The checker against stockmock itself: it passes the real thing and catches every mutant. */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Level } from '../../src/contract/check.ts';
import {
  judgeAt,
  runContract,
  TargetUnusable,
  type Report,
} from '../../src/contract/run-contract.ts';
import { generatedCatalog } from '../helpers/generated-catalog.ts';
import { listenLive, type LiveServer } from '../helpers/live-server.ts';
import {
  buildTestApp,
  QUANTITY_TOKEN,
  shippedSpecOnce,
  STATUS_TOKEN,
} from '../helpers/test-app.ts';
import { MUTANTS } from './mutants.ts';

function escapeRegExp(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const BOTH = { status: STATUS_TOKEN, quantity: QUANTITY_TOKEN };

async function check(
  baseUrl: string,
  tokens: Partial<typeof BOTH> = BOTH,
  extra: { timeoutMs?: number; runs?: number; level?: Level } = {},
) {
  return runContract({
    baseUrl,
    tokens,
    level: extra.level ?? 'stand-in',
    spec: await shippedSpecOnce(),
    seed: 7,
    runs: extra.runs ?? 40,
    timeoutMs: extra.timeoutMs ?? 5000,
    concurrency: 4,
  });
}

function outcomeOf(report: Report, id: string): string | undefined {
  return report.results.find((result) => result.id === id)?.outcome.kind;
}

function failedIds(report: Report): string[] {
  return report.results
    .filter((result) => result.outcome.kind === 'failed')
    .map((result) => result.id);
}

describe('against a correct stockmock', () => {
  let server: LiveServer;
  let restore: () => void;
  let replaceCatalog: (count: number) => void;
  beforeAll(async () => {
    const { app, catalogs } = await buildTestApp();
    const shipped = catalogs.current;
    restore = () => {
      catalogs.replace(shipped);
    };
    replaceCatalog = (count) => {
      catalogs.replace(generatedCatalog(count));
    };
    server = await listenLive(app);
  });
  afterAll(() => server.close());

  it('passes every check of both levels on the shipped data', async () => {
    const report = await check(server.origin);
    expect(report.level).toBe('stand-in');
    expect(failedIds(report)).toEqual([]);
    expect(report.skipped).toBe(0);
    expect(report.differs).toBe(0);
    expect(report.passed).toBe(report.results.length);
    expect(report.requests).toBeGreaterThan(100);
    expect(new Set(report.results.map((result) => result.level))).toEqual(
      new Set(['interface', 'stand-in']),
    );
    expect(report.results.every((result) => result.source.length > 0)).toBe(true);
    // The check table of docs/contract-checker.md names each check with its level and source.
    const page = await readFile(new URL('../../docs/contract-checker.md', import.meta.url), 'utf8');
    for (const result of report.results) {
      expect(page).toMatch(
        new RegExp(
          `\\| \`${result.id.replaceAll('.', '\\.')}\` +\\| ${result.level} +\\| ${escapeRegExp(result.source)} +\\|`,
        ),
      );
    }
    const reading = report.results.find((result) => result.id === 'reading.consistent');
    expect(reading?.observed).toBe(
      'the absolute level is named `quantity`, product_id is an integer',
    );
  });

  it('passes every check on a generated catalogue of 3 000 products', async () => {
    replaceCatalog(3000);
    try {
      const report = await check(server.origin);
      expect(failedIds(report)).toEqual([]);
    } finally {
      restore();
    }
  });

  it('skips the checks that need a missing token, saying which token', async () => {
    const report = await check(server.origin, { status: STATUS_TOKEN });
    expect(failedIds(report)).toEqual([]);
    const skipped = report.results.filter((result) => result.outcome.kind === 'skipped');
    expect(skipped.map((result) => result.id).sort()).toEqual([
      'access.levels-agree',
      'access.no-cross-level-answers',
      'access.quantity-not-negative',
      'access.quantity-shows-quantity',
      'access.status-matches-quantity',
      'access.status-rule',
    ]);
    expect(JSON.stringify(skipped)).toContain('--token quantity=TOKEN');
  });

  it('refuses to check with a token the target refuses, saying which, not failing every check', async () => {
    const refusal = await check(server.origin, { status: 'not-the-token' }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(TargetUnusable);
    expect((refusal as Error).message).toBe(
      `Cannot check ${server.origin}: it refuses the status token (401) on GET /v1/stock.`,
    );
  });

  it('fails a run against an empty catalogue as vacuous', async () => {
    replaceCatalog(0);
    try {
      expect(outcomeOf(await check(server.origin), 'contract.saw-real-data')).toBe('failed');
    } finally {
      restore();
    }
  });
});

describe('against deliberately broken servers', () => {
  it.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))(
    'catches: %s',
    async (_name, mutant) => {
      const { app, catalogs } = await buildTestApp(
        mutant.config === undefined ? {} : { config: mutant.config },
      );
      mutant.mutate?.(app, catalogs);
      const server = await listenLive(app);
      try {
        const report = await check(server.origin, BOTH, { runs: 20 });
        expect(failedIds(report)).toContain(mutant.caughtBy);
        expect(report.failed).toBeGreaterThan(0);
        // At the interface level, a stand-in decision broken alone only differs.
        const asInterface = judgeAt(report, 'interface');
        if (mutant.level === 'interface') expect(failedIds(asInterface)).toContain(mutant.caughtBy);
        else expect(failedIds(asInterface)).toEqual([]);
      } finally {
        await server.close();
      }
    },
  );

  it('has at least 12 kinds of mutant', () => {
    expect(new Set(MUTANTS.map((mutant) => mutant.name)).size).toBeGreaterThanOrEqual(12);
  });
});

describe('unreachable and hung targets', () => {
  it('says "connection refused" for a closed port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(check(`http://127.0.0.1:${String(port)}`)).rejects.toThrow(
      /^Cannot check http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED: connection refused\.$/,
    );
  });

  it('says when the target does not answer HTTP', async () => {
    const sockets = new Set<Socket>();
    const garbage = createNetServer((socket) => {
      sockets.add(socket);
      socket.end('SSH-2.0-OpenSSH_9.2\r\n');
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const { port } = garbage.address() as AddressInfo;
    try {
      await expect(check(`http://127.0.0.1:${String(port)}`)).rejects.toThrow(
        /: not an HTTP answer \(HPE_/,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => garbage.close(resolve));
    }
  });

  it('says when the target never answers, instead of hanging or failing every check', async () => {
    const hung: Server = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const { port } = hung.address() as AddressInfo;
    try {
      await expect(
        check(`http://127.0.0.1:${String(port)}`, BOTH, { timeoutMs: 50, runs: 2 }),
      ).rejects.toThrow(/: no answer within 50 ms\.$/);
    } finally {
      hung.closeAllConnections();
      await new Promise((resolve) => hung.close(resolve));
    }
  }, 60_000);
});

describe('generated requests', () => {
  it('find a filter that is ignored, and print the seed and the exact request to replay', async () => {
    const mutant = MUTANTS.find((candidate) => candidate.name === 'status filter ignored');
    const { app, catalogs } = await buildTestApp();
    mutant?.mutate?.(app, catalogs);
    const server = await listenLive(app);
    try {
      const report = await check(server.origin, BOTH, { runs: 100 });
      const generated = report.results.find((result) => result.id === 'generated.stock');
      expect(generated?.outcome.kind).toBe('failed');
      const [failure] = generated?.outcome.kind === 'failed' ? generated.outcome.failures : [];
      expect(failure?.message).toContain('--seed 7');
      expect(failure?.request).toMatch(
        /^(GET|HEAD) http:\/\/127\.0\.0\.1:\d+\/v1\/stock\?.*status=/,
      );
      // Ignored whole: a status it lists keeps every status, and a status it does not is a 200.
      expect(failure?.actual).toMatch(
        /items the filters do not keep|expected a 4xx for a value the spec refuses/,
      );
    } finally {
      await server.close();
    }
  });
});
