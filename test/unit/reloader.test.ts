/**
 * A reload remembers how each file looked when it was read whole, so that a file renamed over it
 * or left alone since is read at once. That mark must be taken before the read: a write in place
 * that begins after the read, before the mark, must never pass for the version read.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { loadScenarios } from '../../src/scenarios/begin-load.ts';
import { loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import { createReloader, swapData } from '../../src/scenarios/reloader.ts';
import { createScenarioStore, type ScenarioStore } from '../../src/scenarios/scenario-store.ts';
import { marksOf } from '../../src/source/read-source-text.ts';
import { SHIPPED } from '../helpers/datasets.ts';

const PLAN = loadPlanOf(SHIPPED, DEFAULTS.compatibility);

const fixtureOf = (count: number): string =>
  [
    'products:',
    ...Array.from(
      { length: count },
      (_, i) => `  - { id: ${String(i + 1)}, name: "P${String(i)}" }`,
    ),
    '',
  ].join('\n');

describe('reload marks', () => {
  it('never takes a file half-written in place after the last read for the version read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-reloader-'));
    const fixtures = join(dir, 'products.yaml');
    await writeFile(fixtures, fixtureOf(10));
    const config = { ...DEFAULTS, fixtures, reloadSettleMs: 3000 };
    const store = createScenarioStore(await loadScenarios(config, PLAN));
    let writeAfterSwap = true;
    // A writer starts to rewrite the file in place just after the first reload read it: the
    // first part alone is valid YAML with 6 of the 10 products; the rest comes 1.5 s later.
    const watched: ScenarioStore = Object.create(store, {
      replaceAll: {
        value: (datasets: Parameters<ScenarioStore['replaceAll']>[0]) => {
          store.replaceAll(datasets);
          if (!writeAfterSwap) return;
          writeAfterSwap = false;
          writeFileSync(fixtures, fixtureOf(6));
          setTimeout(() => {
            writeFileSync(fixtures, fixtureOf(10));
          }, 1500);
        },
      },
    }) as ScenarioStore;
    const reloader = createReloader({
      swap: swapData(watched, PLAN),
      initialConfig: config,
      readConfig: () => Promise.resolve(config),
      lastRead: marksOf([fixtures]),
    });
    expect(await reloader.reload()).toEqual({ ok: true, scenarios: { default: 10 } });
    // The half-written file looks like nothing read whole: the reload waits for it to settle.
    expect(await reloader.reload()).toEqual({ ok: true, scenarios: { default: 10 } });
  }, 20_000);
});
