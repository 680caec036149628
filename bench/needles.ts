/** @module The name needles of the benchmark's name mixes, drawn from the catalogue's own names. */
import { generateProducts } from '../src/generate/generate-products.ts';
import { shuffled } from './shuffled.ts';

/** How many names needles are cut from. */
const SAMPLED_NAMES = 5000;

/**
 * Names spread over the whole seeded catalogue (every k-th product), not its first products:
 * needles a real client types come from anywhere in it.
 */
export function sampleNames(size: number, count: number = SAMPLED_NAMES): string[] {
  const step = Math.max(1, Math.floor(size / count));
  const names: string[] = [];
  let position = 0;
  for (const product of generateProducts({ count: size, seed: 1 })) {
    if (position % step === 0 && names.length < count) names.push(product.name);
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

/** Hands out needles for a server: none is handed out twice for the same server. */
export type NeedleFeed = (server: string, count: number) => string[];

/**
 * Needles never asked before, as a tester's new searches are: distinct (in lower case, as the
 * name filter folds them), 3–10 characters, cut from names across the whole catalogue. The
 * generated catalogue holds about 20 000 such needles at any size (its names repeat about
 * 10 000 word combinations), so a feed gives out at most that many per server.
 */
export function freshNeedles(names: readonly string[], random: () => number): NeedleFeed {
  const all = distinctNeedles(names);
  // Each server draws from its own shuffle, and takes each needle once.
  const left = new Map<string, string[]>();
  return (server, count) => {
    let needles = left.get(server);
    if (needles === undefined) {
      needles = shuffled(all, random);
      left.set(server, needles);
    }
    if (needles.length < count) {
      throw new Error(`only ${String(needles.length)} fresh needles are left for ${server}`);
    }
    return needles.splice(0, count);
  };
}

function distinctNeedles(names: readonly string[]): string[] {
  const needles = new Set<string>();
  for (const name of new Set(names)) {
    for (let length = 3; length <= 10; length++) {
      for (let start = 0; start + length <= name.length; start++) {
        const needle = name.slice(start, start + length).toLowerCase();
        // Spaces at either end would read as a different search to some clients.
        if (needle.trim() === needle) needles.add(needle);
      }
    }
  }
  return [...needles];
}
