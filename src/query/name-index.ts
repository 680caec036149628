/** @module Which distinct names contain a needle: a trigram index, so that no request scans them all. */

/** Catalogues with more distinct names than this are scanned instead (the index would pass 25 MB). */
const MAX_INDEXED_NAMES = 250_000;
const GRAM = 3;

/**
 * Indexes into the catalogue's distinct names, ascending. A plain array, not a typed one: one is
 * made per fresh needle, and each ArrayBuffer costs the full collection's pause a sweep step.
 */
export type NameIds = readonly number[];

/** Finds the distinct names that contain a folded needle. */
export interface NameIndex {
  namesContaining(needle: string): NameIds;
}

/**
 * For each run of three code units, the names that hold it. A needle of three or more code units
 * can only be in names that hold every one of its trigrams, so the shortest of its trigrams' lists
 * gives the candidates, and each candidate is then checked with `includes`, the definition.
 * Shorter needles scan every name: they match most names anyway.
 */
export function createNameIndex(names: readonly string[]): NameIndex {
  const grams = names.length <= MAX_INDEXED_NAMES ? indexGrams(names) : undefined;
  return {
    namesContaining(needle) {
      if (grams === undefined || needle.length < GRAM) return scan(names, needle);
      let candidates: Int32Array | undefined;
      for (let i = 0; i + GRAM <= needle.length; i++) {
        const list = grams.get(needle.slice(i, i + GRAM));
        if (list === undefined) return NONE;
        if (candidates === undefined || list.length < candidates.length) candidates = list;
      }
      const found: number[] = [];
      for (const name of candidates ?? NONE) {
        if ((names[name] as string).includes(needle)) found.push(name);
      }
      return found;
    },
  };
}

const NONE: NameIds = Object.freeze([]);

/** `includes` compares code units literally: `%`, `*`, `_` and regex syntax mean themselves. */
function scan(names: readonly string[], needle: string): NameIds {
  const found: number[] = [];
  for (let i = 0; i < names.length; i++) if ((names[i] as string).includes(needle)) found.push(i);
  return found;
}

function indexGrams(names: readonly string[]): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  names.forEach((name, id) => {
    for (let i = 0; i + GRAM <= name.length; i++) {
      const gram = name.slice(i, i + GRAM);
      const list = lists.get(gram);
      if (list === undefined) lists.set(gram, [id]);
      // Names are visited in order, so a name that repeats a trigram is the list's last entry.
      else if (list[list.length - 1] !== id) list.push(id);
    }
  });
  const grams = new Map<string, Int32Array>();
  for (const [gram, list] of lists) grams.set(gram, Int32Array.from(list));
  return grams;
}
