/** @module Which distinct names contain a needle: a trigram index, so that no request scans them all. */
import { packedAt, unpackStrings, type PackedStrings } from '../util/packed-strings.ts';

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
 * The names that hold one trigram, in whichever form is smaller: a sorted list where few names
 * hold it, a bitmap (bit `n` for name `n`) where more than one name in 32 does. A bitmap tests a
 * name in one step, and two bitmaps intersect a word (32 names) at a time.
 */
type Holders =
  | { readonly kind: 'list'; readonly names: Int32Array }
  | { readonly kind: 'bitmap'; readonly words: Int32Array };

/**
 * For each run of three code units, the names that hold it. A needle of three or more code units
 * can only be in names that hold every one of its trigrams: the candidates are the shortest list
 * among its trigrams, filtered by their bitmaps, or the intersection of the bitmaps when every
 * trigram has one. Each candidate is then checked with `includes`, the definition, unless the
 * needle is a single trigram, which its holders contain by construction. Shorter needles scan
 * every name: they match most names anyway.
 *
 * Why bitmaps too: generated names repeat a few words, so most trigrams are held by many names,
 * and the shortest list held several times the names that matched; checking those with
 * `includes` was most of a fresh search at a million products. Measured in one process, 5 000
 * fresh needles at a million products, CPU time per needle over eight alternating rounds: median
 * 51.6 → 39.6 µs, and 43.0 → 38.4 µs in a second run.
 */
export function createNameIndex(
  names: PackedStrings,
  data: NameIndexData | undefined = buildNameIndexData(unpackStrings(names)),
): NameIndex {
  const grams = data === undefined ? undefined : gramTable(data);
  // namesContaining is synchronous, so one buffer holds every intersection.
  const intersection = new Int32Array(wordsFor(names.ends.length));
  return {
    namesContaining(needle) {
      if (grams === undefined || needle.length < GRAM) return scan(names, needle);
      let shortest: Int32Array | undefined;
      const bitmaps: Int32Array[] = [];
      for (let i = 0; i + GRAM <= needle.length; i++) {
        const holders = grams(needle.slice(i, i + GRAM));
        if (holders === undefined) return NONE;
        if (holders.kind === 'bitmap') bitmaps.push(holders.words);
        else if (shortest === undefined || holders.names.length < shortest.length) {
          shortest = holders.names;
        }
      }
      // A needle of one trigram is in every name that holds it: nothing is left to check.
      const check = needle.length === GRAM ? undefined : { names, needle };
      return shortest === undefined
        ? namesInAll(bitmaps, intersection, check)
        : listedInAll(shortest, bitmaps, check);
    },
  };
}

/**
 * The trigram index as typed arrays and one string, so that a worker can build it and move it
 * (see engine-index.ts): gram `g` is `keys.slice(3g, 3g + 3)`, its holders are
 * `values[starts[g]]` up to `starts[g + 1]`, a list of names or a bitmap as `bitmap[g]` says.
 */
export interface NameIndexData {
  readonly keys: string;
  readonly bitmap: Uint8Array;
  readonly starts: Int32Array;
  readonly values: Int32Array;
}

/** The index of the names; none past MAX_INDEXED_NAMES, where a scan takes its place. */
export function buildNameIndexData(names: readonly string[]): NameIndexData | undefined {
  if (names.length > MAX_INDEXED_NAMES) return undefined;
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
  const words = wordsFor(names.length);
  const bitmap = new Uint8Array(lists.size);
  const starts = new Int32Array(lists.size + 1);
  let length = 0;
  let gram = 0;
  for (const list of lists.values()) {
    // A bitmap costs a bit per name, a list 32 bits per holder: the smaller one is kept.
    const asBitmap = list.length * 32 > names.length;
    bitmap[gram] = asBitmap ? 1 : 0;
    length += asBitmap ? words : list.length;
    starts[++gram] = length;
  }
  const values = new Int32Array(length);
  gram = 0;
  for (const list of lists.values()) {
    const start = starts[gram] as number;
    if (bitmap[gram] === 1) {
      for (const id of list) {
        const word = start + (id >>> 5);
        values[word] = (values[word] as number) | (1 << (id & 31));
      }
    } else values.set(list, start);
    gram += 1;
  }
  return { keys: [...lists.keys()].join(''), bitmap, starts, values };
}

export function nameIndexBuffers(data: NameIndexData): ArrayBuffer[] {
  return [data.bitmap, data.starts, data.values].map((array) => array.buffer as ArrayBuffer);
}

/** A gram's holders, looked up through a Map built once (a few ms for fifty thousand grams). */
function gramTable(data: NameIndexData): (gram: string) => Holders | undefined {
  const { keys, bitmap, starts, values } = data;
  const numbers = new Map<string, number>();
  for (let gram = 0; gram * GRAM < keys.length; gram++) {
    numbers.set(keys.slice(gram * GRAM, gram * GRAM + GRAM), gram);
  }
  return (key) => {
    const gram = numbers.get(key);
    if (gram === undefined) return undefined;
    const held = values.subarray(starts[gram], starts[gram + 1]);
    return bitmap[gram] === 1 ? { kind: 'bitmap', words: held } : { kind: 'list', names: held };
  };
}

const NONE: NameIds = Object.freeze([]);

/**
 * The names that hold the needle, found in their packed text: `indexOf` compares code units
 * literally (`%`, `*`, `_` and regex syntax mean themselves), and a match that runs across two
 * names counts for neither.
 */
function scan(names: PackedStrings, needle: string): NameIds {
  const { text, ends } = names;
  // An empty needle is in every name, the empty ones too.
  if (needle === '') return Array.from(ends, (_end, index) => index);
  const found: number[] = [];
  let name = 0;
  let from = 0;
  for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, from)) {
    // The name that holds `at`: the first whose end lies past it (ends ascend).
    while (name < ends.length && (ends[name] as number) <= at) name += 1;
    if (at + needle.length <= (ends[name] as number)) {
      found.push(name);
      from = ends[name] as number;
      name += 1;
    } else from = at + 1;
  }
  return found;
}

/** Candidates are confirmed with `includes`, the definition, unless there is nothing to check. */
interface Confirmation {
  readonly names: PackedStrings;
  readonly needle: string;
}

function confirmed(check: Confirmation | undefined, name: number): boolean {
  return check === undefined || packedAt(check.names, name).includes(check.needle);
}

/** The names of `list` that every bitmap holds, confirmed, ascending. */
function listedInAll(
  list: Int32Array,
  bitmaps: readonly Int32Array[],
  check: Confirmation | undefined,
): number[] {
  const found: number[] = [];
  candidates: for (const name of list) {
    for (const words of bitmaps) if (!holds(words, name)) continue candidates;
    if (confirmed(check, name)) found.push(name);
  }
  return found;
}

/** The names that every bitmap (one at least) holds, confirmed, ascending. */
function namesInAll(
  bitmaps: readonly Int32Array[],
  intersection: Int32Array,
  check: Confirmation | undefined,
): number[] {
  const [first, ...rest] = bitmaps as [Int32Array, ...Int32Array[]];
  intersection.set(first);
  for (const words of rest) {
    for (let w = 0; w < words.length; w++) {
      intersection[w] = (intersection[w] as number) & (words[w] as number);
    }
  }
  const found: number[] = [];
  for (let w = 0; w < intersection.length; w++) {
    let word = intersection[w] as number;
    while (word !== 0) {
      const lowest = word & -word;
      const name = w * 32 + (31 - Math.clz32(lowest));
      if (confirmed(check, name)) found.push(name);
      word ^= lowest;
    }
  }
  return found;
}

function holds(words: Int32Array, name: number): boolean {
  return ((words[name >>> 5] as number) & (1 << (name & 31))) !== 0;
}

function wordsFor(nameCount: number): number {
  return Math.ceil(nameCount / 32);
}
