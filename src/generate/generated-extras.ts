/**
 * @module The extra fields of a generated catalogue, by column.
 *
 * Generated products draw category, material and colour from short word lists, and their sku
 * follows from the id. Kept as one small code per word and a price apiece, their extra fields
 * take 14 bytes a product instead of a JSON string of about 100, and the load makes no string
 * at all: measured at a million products, the strings cost a second of start-up and 120 MB.
 * The JSON text is made when a request reads a product, as JSON.stringify made it at load.
 */
import type { Key } from '../query/keys.ts';
import type { GeneratedProduct } from './generate-products.ts';

export interface GeneratedExtras {
  /** Records a product's extra fields; ids run from 1 to the count, as the generator gives them. */
  readonly record: (product: GeneratedProduct) => void;
  /** What was recorded, as columns that can move to another thread. */
  readonly data: () => GeneratedExtrasData;
}

/** The extra fields by column: a code per word (into `words`) and a price per product. */
export interface GeneratedExtrasData {
  readonly categories: Uint16Array;
  readonly materials: Uint16Array;
  readonly colors: Uint16Array;
  readonly prices: Float64Array;
  readonly words: readonly string[];
}

export function createGeneratedExtras(count: number): GeneratedExtras {
  const words = createWordTable();
  const categories = new Uint16Array(count);
  const materials = new Uint16Array(count);
  const colors = new Uint16Array(count);
  const prices = new Float64Array(count);
  return {
    record: (product) => {
      const index = product.id - 1;
      categories[index] = words.codeOf(product.category);
      materials[index] = words.codeOf(product.material);
      colors[index] = words.codeOf(product.color);
      prices[index] = product.price_eur;
    },
    data: () => ({ categories, materials, colors, prices, words: words.list }),
  };
}

/** The buffers of GeneratedExtrasData, to move to another thread instead of copying them. */
export function extrasBuffersOf(data: GeneratedExtrasData): ArrayBuffer[] {
  return [data.categories, data.materials, data.colors, data.prices].map(
    (array) => array.buffer as ArrayBuffer,
  );
}

/**
 * The fields of the product with an id that the collection does not declare, as JSON object
 * text: the generator's extra fields, but those a spec declares (and so keeps by column).
 */
export function extrasJsonOf(
  data: GeneratedExtrasData,
  declared: ReadonlyMap<string, unknown>,
): (id: Key) => string {
  const { categories, materials, colors, prices, words } = data;
  return (key) => {
    // Generated products are keyed 1, 2, 3, …
    const id = Number(key);
    const index = id - 1;
    // The generator's field order.
    const extras: [string, string | number][] = [
      ['category', words[categories[index] as number] as string],
      ['material', words[materials[index] as number] as string],
      ['color', words[colors[index] as number] as string],
      ['price_eur', prices[index] as number],
      ['sku', skuOf(id)],
    ];
    return JSON.stringify(Object.fromEntries(extras.filter(([field]) => !declared.has(field))));
  };
}

function createWordTable(): { codeOf(word: string): number; readonly list: readonly string[] } {
  const codes = new Map<string, number>();
  const list: string[] = [];
  return {
    codeOf(word) {
      let code = codes.get(word);
      if (code === undefined) {
        code = list.length;
        if (code > 0xffff) throw new Error('The generator drew from more than 65 536 words');
        codes.set(word, code);
        list.push(word);
      }
      return code;
    },
    list,
  };
}

/** The stock-keeping unit of the generated product with an id. */
export function skuOf(id: number): string {
  return `SM-${String(id).padStart(7, '0')}`;
}
