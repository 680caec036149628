/**
 * @module Many strings as one: text and where each ends.
 *
 * What crosses from a worker to the serving thread is copied there on arrival, on the serving
 * thread. One long string is copied in one step; a hundred thousand short ones are a hundred
 * thousand allocations, on the thread that must not stall.
 */
export interface PackedStrings {
  readonly text: string;
  /** Where string `i` ends in `text`; it starts where string `i − 1` ends. */
  readonly ends: Uint32Array;
}

export function packStrings(list: readonly string[]): PackedStrings {
  const ends = new Uint32Array(list.length);
  let end = 0;
  list.forEach((item, index) => {
    end += item.length;
    ends[index] = end;
  });
  return { text: list.join(''), ends };
}

/** The `index`th string, as a slice of the text (no copy). */
export function packedAt(packed: PackedStrings, index: number): string {
  const start = index === 0 ? 0 : (packed.ends[index - 1] as number);
  return packed.text.slice(start, packed.ends[index]);
}

export function unpackStrings(packed: PackedStrings): string[] {
  return Array.from(packed.ends, (_end, index) => packedAt(packed, index));
}
