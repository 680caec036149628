/**
 * @module Realistic, seeded product data: the same seed gives the same products, always.
 *
 * @faker-js/faker supplies the vocabulary (adjectives, materials, products, departments, colours)
 * and its seeded Mersenne Twister the choices. Names are composed from faker's word lists rather
 * than with `commerce.productName()` per product: that is the same kind of name, about ten
 * times faster, which matters at a million products.
 */
import { Faker, en } from '@faker-js/faker';
import type { FixtureProduct } from '../catalog/fixture-schema.ts';

export interface GenerateOptions {
  readonly count: number;
  readonly seed: number;
}

/** One generated fixture entry: the known fields and the extra fields, in a fixed order. */
export type GeneratedProduct = FixtureProduct & {
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
  const faker = new Faker({ locale: [en], seed: options.seed });
  const words = faker.definitions.commerce.product_name;
  const departments = faker.definitions.commerce.department;
  const colors = faker.definitions.color.human;
  for (let id = 1; id <= options.count; id++) {
    const material = faker.helpers.arrayElement(words.material);
    const name = `${faker.helpers.arrayElement(words.adjective)} ${material} ${faker.helpers.arrayElement(words.product)}`;
    const roll = faker.number.float();
    const stock =
      roll < 0.55
        ? { quantity: faker.number.int({ min: 1, max: 500 }) }
        : roll < 0.75
          ? { quantity: 0 }
          : roll < 0.88
            ? { quantity: null }
            : roll < 0.97
              ? { quantity: faker.number.int({ min: 0, max: 20 }), status: 'incoming' as const }
              : {};
    // Known fields first, then the extra ones: the file reads like a hand-written fixture.
    yield {
      id,
      name,
      ...stock,
      category: faker.helpers.arrayElement(departments),
      material,
      color: faker.helpers.arrayElement(colors),
      price_eur: faker.number.int({ min: 199, max: 249_999 }) / 100,
      sku: `SM-${String(id).padStart(7, '0')}`,
    };
  }
}
