/** @module The name needles of the benchmark's name mixes, drawn from the catalogue's own names. */
import { generateProducts } from '../src/generate/generate-products.ts';

/** How many names needles are cut from. */
const SAMPLED_NAMES = 5000;

/**
 * Names spread over the whole seeded catalogue (every k-th product), not its first products:
 * needles a real client types come from anywhere in it.
 */
export function sampleNames(size: number): string[] {
  const step = Math.max(1, Math.floor(size / SAMPLED_NAMES));
  const names: string[] = [];
  let position = 0;
  for (const product of generateProducts({ count: size, seed: 1 })) {
    if (position % step === 0 && names.length < SAMPLED_NAMES) names.push(product.name);
    position += 1;
  }
  return names;
}

/** The warm mix's needles: 1 000 substrings (3–5 characters) of the names' words. */
export function warmNeedles(names: readonly string[], random: () => number): string[] {
  const words = [...new Set(names.flatMap((name) => name.split(' ')))];
  return Array.from({ length: 1000 }, () => {
    const word = words[Math.floor(random() * words.length)] ?? '';
    const start = Math.floor(random() * Math.max(1, word.length - 3));
    return word.slice(start, start + 3 + Math.floor(random() * 3)).toLowerCase();
  });
}

/** A cold needle: a fresh substring (3–7 characters) of a random name, as the wrk script cuts it. */
export function coldNeedle(names: readonly string[], random: () => number): string {
  const name = names[Math.floor(random() * names.length)] ?? '';
  const length = 3 + Math.floor(random() * 5);
  const start = Math.floor(random() * Math.max(1, name.length - length + 1));
  return name.slice(start, start + length);
}
