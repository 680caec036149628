/** @module Every scenario of a config, loaded and validated before any of it is served. */
import { createCatalog, type Catalog } from '../catalog/catalog.ts';
import { createNameTable, loadCatalog, toProduct } from '../catalog/load-catalog.ts';
import type { Config } from '../config/config-schema.ts';
import type { ReadOptions } from '../source/read-source-text.ts';
import { DEFAULT_SCENARIO } from './scenario-store.ts';

export type ScenarioSource = Config['scenarios'][string];

/** Loads one scenario: a fixture file, or a catalogue generated from a count and a seed. */
export async function loadScenario(
  source: ScenarioSource,
  options: ReadOptions = {},
): Promise<Catalog> {
  if (typeof source === 'string') return loadCatalog(source, options);
  const { count, seed = 1 } = source.generate;
  // Loaded on use: faker's word lists cost start-up time that file-only configs should not pay.
  const { generateProducts } = await import('../generate/generate-products.ts');
  const { createGeneratedExtras } = await import('../generate/generated-extras.ts');
  const names = createNameTable();
  const extras = createGeneratedExtras(count);
  const products = Array.from(generateProducts({ count, seed }), (entry) => {
    extras.record(entry);
    return toProduct(entry, names, 'elsewhere');
  });
  return createCatalog(
    `generated: ${String(count)} products, seed ${String(seed)}`,
    products,
    extras.jsonOf,
  );
}

/**
 * Loads `default` (the `fixtures`) and every named scenario. Rejects on the first file that
 * fails, so that nothing is served, or swapped in, unless all of it is valid.
 */
export async function loadScenarios(
  config: Config,
  options: ReadOptions = {},
): Promise<ReadonlyMap<string, Catalog>> {
  const entries: [string, ScenarioSource][] = [
    [DEFAULT_SCENARIO, config.fixtures],
    ...Object.entries(config.scenarios),
  ];
  const catalogs = await Promise.all(
    entries.map(async ([name, source]) => [name, await loadScenario(source, options)] as const),
  );
  return new Map(catalogs);
}
