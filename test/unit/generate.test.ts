import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/load-config.ts';
import { FIXTURE_HEADER, formatFixtureLine } from '../../src/generate/format-fixture.ts';
import { generateProducts } from '../../src/generate/generate-products.ts';
import { loadDataset, loadPlanOf } from '../../src/scenarios/load-scenarios.ts';
import {
  allProducts,
  parseDataset as parseCatalog,
  SHIPPED,
  STOCK_STATUSES,
} from '../helpers/datasets.ts';
import { statusOf, type PlainProduct } from '../helpers/reference-engine.ts';

/** A generated entry as the columns hold it, its status by the definition. */
const toProduct = (entry: PlainProduct) => ({
  id: entry.id,
  name: entry.name,
  quantity: entry.quantity ?? null,
  status: statusOf(entry),
});

const products = (count: number, seed: number) => [...generateProducts({ count, seed })];

describe('generateProducts', () => {
  it('is deterministic for a seed, and differs between seeds', () => {
    expect(products(200, 9)).toEqual(products(200, 9));
    expect(products(200, 9)).not.toEqual(products(200, 10));
  });

  it('gives ids 1…count, realistic names and extra fields, and every status', () => {
    const generated = products(2000, 1);
    expect(generated.map((product) => product.id)).toEqual(
      Array.from({ length: 2000 }, (_, i) => i + 1),
    );
    expect(generated[0]?.name).toMatch(/^\S+ \S+ \S+$/);
    expect(Object.keys(generated[0] ?? {})).toEqual(
      expect.arrayContaining(['category', 'material', 'price_eur', 'sku']),
    );
    const statuses = new Set(generated.map((product) => statusOf(product)));
    expect([...statuses].sort()).toEqual([...STOCK_STATUSES].sort());
    expect(generated.some((product) => product.quantity === null)).toBe(true);
  });

  it('writes YAML that loads back as the same catalogue', () => {
    const generated = products(300, 4);
    const text = FIXTURE_HEADER + generated.map(formatFixtureLine).join('');
    const loaded = parseCatalog('generated.yaml', text);
    expect(allProducts(loaded)).toEqual(generated.map((entry) => toProduct(entry)));
  });

  it('serves a generated scenario exactly as the same products loaded from a file', async () => {
    const catalog = await loadDataset(
      { generate: { count: 3000, seed: 5 } },
      loadPlanOf(SHIPPED, DEFAULTS.compatibility),
    );
    expect(allProducts(catalog)).toEqual(products(3000, 5).map((entry) => toProduct(entry)));
  });
});
