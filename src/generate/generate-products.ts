/**
 * @module Realistic, seeded product data: the same seed gives the same products, always.
 *
 * @faker-js/faker supplies the vocabulary (adjectives, materials, products, departments, colours);
 * a small seeded PRNG makes the choices. Names are composed from faker's word lists as
 * `commerce.productName()` composes them, but without a faker call per field: at a million
 * products that is seconds saved at every start of a generated scenario.
 */
import { Faker, en } from '@faker-js/faker';
import { seededRandom } from '../util/seeded-random.ts';
import { skuOf } from './generated-extras.ts';

export interface GenerateOptions {
  readonly count: number;
  readonly seed: number;
}

/** One generated fixture entry: the known fields and the extra fields, in a fixed order. */
export type GeneratedProduct = {
  readonly id: number;
  readonly name: string;
  /** Absolute stock; null or absent when unknown. */
  readonly quantity?: number | null;
  status?: 'incoming';
  readonly category: string;
  readonly material: string;
  readonly color: string;
  readonly price_eur: number;
  readonly sku: string;
};

/**
 * Yields `count` products with ids 1…count. The stock mix is that of a real shop: most products
 * in stock, some sold out, some unknown, a few incoming.
 */
export function* generateProducts(options: GenerateOptions): Generator<GeneratedProduct> {
  // Copied out once: faker's definitions are proxies, too slow to read a million times.
  const { definitions } = new Faker({ locale: [en] });
  const {
    adjective: adjectives,
    material: materials,
    product: kinds,
  } = definitions.commerce.product_name;
  const departments = [...definitions.commerce.department];
  const colors = [...definitions.color.human];
  const [adjectiveList, materialList, kindList] = [[...adjectives], [...materials], [...kinds]];
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const between = (min: number, max: number): number =>
    min + Math.floor(random() * (max - min + 1));
  for (let id = 1; id <= options.count; id++) {
    const material = pick(materialList);
    const name = `${pick(adjectiveList)} ${material} ${pick(kindList)}`;
    const roll = random();
    // Known fields first, then the extra ones: the file reads like a hand-written fixture. Plain
    // assignments, not spreads, keep one object shape per stock kind (spreads cost 3× here).
    const product: { -readonly [K in keyof GeneratedProduct]?: GeneratedProduct[K] } = { id, name };
    if (roll < 0.55) product.quantity = between(1, 500);
    else if (roll < 0.75) product.quantity = 0;
    else if (roll < 0.88) product.quantity = null;
    else if (roll < 0.97) {
      product.quantity = between(0, 20);
      product.status = 'incoming';
    }
    product.category = pick(departments);
    product.material = material;
    product.color = pick(colors);
    product.price_eur = between(199, 249_999) / 100;
    product.sku = skuOf(id);
    yield product as GeneratedProduct;
  }
}
