/**
 * @module The extra fields of a generated catalogue, by column.
 *
 * Generated products draw category, material and colour from short word lists, and their sku
 * follows from the id. Kept as one small code per word and a price apiece, their extra fields
 * take 14 bytes a product instead of a JSON string of about 100, and the load makes no string
 * at all: measured at a million products, the strings cost a second of start-up and 120 MB.
 * The JSON text is made when a request reads a product, as JSON.stringify made it at load.
 */
import { skuOf, type GeneratedProduct } from './generate-products.ts';

export interface GeneratedExtras {
  /** Records a product's extra fields; ids run from 1 to the count, as the generator gives them. */
  readonly record: (product: GeneratedProduct) => void;
  /** The extra fields of the product with an id, as JSON object text. */
  readonly jsonOf: (id: number) => string;
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
    jsonOf: (id) => {
      const index = id - 1;
      // The generator's field order.
      return JSON.stringify({
        category: words.wordOf(categories[index] as number),
        material: words.wordOf(materials[index] as number),
        color: words.wordOf(colors[index] as number),
        price_eur: prices[index],
        sku: skuOf(id),
      });
    },
  };
}

function createWordTable(): { codeOf(word: string): number; wordOf(code: number): string } {
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
    wordOf: (code) => list[code] as string,
  };
}
