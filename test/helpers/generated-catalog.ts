/** @module A deterministic catalogue of any size, for tests that need more than the shipped 100. */
import type { Dataset } from '../../src/dataset/dataset.ts';
import { seededRandom } from '../../src/util/seeded-random.ts';
import { datasetOf, STOCK_STATUSES, type ProductRecord } from './datasets.ts';

const WOODS = ['Oak', 'Walnut', 'Beech', 'Ash', 'Élm', 'Teak', 'Maple', 'Straße', 'Birch', 'Pine'];
const THINGS = ['table', 'chair', 'desk', 'shelf 100%', 'stool_2', 'bench', 'lamp *LED*', 'bed'];

export function generatedProducts(count: number, seed = 1): ProductRecord[] {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return Array.from({ length: count }, (_, index) => {
    const roll = next();
    const quantity = roll < 0.15 ? null : roll < 0.35 ? 0 : Math.floor(next() * 500);
    const entry = {
      id: index * 3 + 1,
      name: `${pick(WOODS)} ${pick(THINGS)} ${String(index)}`,
      quantity,
      category: pick(THINGS),
    };
    // An explicit status that agrees with the quantity (the contract checker holds a served
    // status to its quantity): `incoming` goes with any, an unknown quantity with any status.
    const explicit = quantity === null ? pick(STOCK_STATUSES) : 'incoming';
    return next() < 0.1 ? { ...entry, status: explicit } : entry;
  });
}

export function generatedCatalog(count: number, seed = 1): Dataset {
  return datasetOf(`generated-${String(count)}`, generatedProducts(count, seed));
}
