/**
 * @module Unique keys of a pattern, by place: the pattern's tree (read-pattern.ts) fixed to one
 * shape (each repeat a set number of times, each group of alternatives one set of texts of one
 * length), grown from its least until it has room for the keys asked and is as long as
 * `minLength` asks; then the record's place, scattered by a multiplication that is a
 * permutation, written in the first places of the shape that give room enough, and the rest
 * drawn from a PRNG seeded by the place. Places of fixed width make the keys unique by
 * construction; a key is a function of its place alone, so a reference draws one without the
 * keys being held.
 */
import { seededRandom } from '../util/seeded-random.ts';
import { mix } from './mix-seed.ts';
import { charAt, type PatternNode } from './read-pattern.ts';
import { UngeneratableSchema } from './schema-values.ts';

type Repeat = Extract<PatternNode, { kind: 'repeat' }>;

/** One place of a key: one of `size` texts, each `width` code points long. */
interface Slot {
  readonly size: number;
  readonly width: number;
  readonly at: (index: number) => string;
}

/** Texts of a group of alternatives listed as one place, at most (`(0[1-9]|1[0-2])` is 12). */
const LISTED = 256;
/** Steps to grow a shape, at most: each doubles its room or reaches minLength at once. */
const GROWTH_STEPS = 1000;

/**
 * The key at each place (from 0) for `count` keys of `lo` to `hi` code points, or throws
 * UngeneratableSchema where the pattern has no room for them. `accepts` is the pattern's own
 * matcher with the lengths: the first keys are held to it here.
 */
export function patternKeys(
  node: PatternNode,
  options: {
    readonly count: number;
    readonly lo: number;
    readonly hi: number;
    readonly seed: number;
    readonly accepts: (key: string) => boolean;
  },
): (index: number) => string {
  const { count, lo, hi, seed, accepts } = options;
  if (node.least > hi) {
    throw new UngeneratableSchema(
      `its pattern's shortest text is ${String(node.least)} characters, more than ${String(hi)}`,
    );
  }
  const slots = grownShape(node, count, lo, hi);
  const key = keysOf(slots, count, seed);
  for (const index of [...Array.from({ length: Math.min(count, 64) }, (_, i) => i), count - 1]) {
    const made = key(index);
    if (!accepts(made)) {
      throw new UngeneratableSchema(
        `the generator misread its pattern: it made ${JSON.stringify(made)}, which the pattern or its lengths refuse; give the key \`examples\``,
      );
    }
  }
  return key;
}

function grownShape(node: PatternNode, count: number, lo: number, hi: number): Slot[] {
  const shape = new Shape();
  for (let step = 0; step < GROWTH_STEPS; step++) {
    const slots: Slot[] = [];
    const live: Repeat[] = [];
    shape.slots(node, slots, live);
    const length = widthOf(slots);
    const needRoom = roomOf(slots, count) < BigInt(count);
    const needLength = length < lo;
    if (!needRoom && !needLength) return slots;
    const grown = growable(shape, live, { needRoom, length, hi });
    if (grown === undefined) {
      throw new UngeneratableSchema(
        needRoom
          ? `its pattern has room for ${roomOf(slots, count).toString()} keys of at most ${String(hi)} characters, not ${String(count)}`
          : `its pattern makes no key of ${String(lo)} characters or more`,
      );
    }
    const { repeat, width } = grown;
    const current = shape.countOf(repeat);
    // Lengthened to minLength at once; for room, one more at a time.
    const more = needRoom ? 1 : Math.ceil((lo - length) / width);
    shape.counts.set(repeat, Math.min(repeat.max, current + more));
  }
  throw new UngeneratableSchema('its pattern is more than the generator reads for a key');
}

/** The repeat to run once more: a run of characters first, so that groups stay few. */
function growable(
  shape: Shape,
  live: readonly Repeat[],
  state: { readonly needRoom: boolean; readonly length: number; readonly hi: number },
): { repeat: Repeat; width: number } | undefined {
  let found: { repeat: Repeat; width: number } | undefined;
  for (const repeat of live) {
    if (shape.countOf(repeat) >= repeat.max) continue;
    const inner: Slot[] = [];
    shape.slots(repeat.node, inner, undefined);
    const width = widthOf(inner);
    if (width === 0 || state.length + width > state.hi) continue;
    if (state.needRoom && inner.every((slot) => slot.size === 1)) continue;
    if (repeat.node.kind === 'chars') return { repeat, width };
    found ??= { repeat, width };
  }
  return found;
}

/** A pattern fixed to one shape: how many times each repeat runs (its minimum unless grown). */
class Shape {
  readonly counts = new Map<Repeat, number>();

  countOf(repeat: Repeat): number {
    return this.counts.get(repeat) ?? repeat.min;
  }

  /** The slots of a node in this shape; the repeats met, in order, into `live`. */
  slots(node: PatternNode, out: Slot[], live: Repeat[] | undefined): void {
    switch (node.kind) {
      case 'chars':
        out.push({ size: node.set.size, width: 1, at: (index) => charAt(node.set, index) });
        return;
      case 'sequence':
        for (const part of node.parts) this.slots(part, out, live);
        return;
      case 'choice': {
        const texts = this.texts(node, LISTED);
        if (texts !== undefined) {
          const slot = listSlot(texts);
          if (slot.width > 0) out.push(slot);
          return;
        }
        // Too many to list: the branch with room for the most keys.
        let [best, bestRoom] = [node.branches[0] as PatternNode, -1];
        for (const branch of node.branches) {
          const slots: Slot[] = [];
          this.slots(branch, slots, undefined);
          const room = slots.reduce((sum, slot) => sum + Math.log2(slot.size), 0);
          if (room > bestRoom) [best, bestRoom] = [branch, room];
        }
        this.slots(best, out, live);
        return;
      }
      case 'repeat': {
        live?.push(node);
        const times = this.countOf(node);
        if (times === 0) return;
        const inner: Slot[] = [];
        this.slots(node.node, inner, live);
        if (inner.length === 0) return;
        for (let i = 0; i < times; i++) out.push(...inner);
      }
    }
  }

  /** Every text of a node in this shape, where there are `limit` or fewer. */
  private texts(node: PatternNode, limit: number): string[] | undefined {
    switch (node.kind) {
      case 'chars':
        return node.set.size > limit
          ? undefined
          : Array.from({ length: node.set.size }, (_, i) => charAt(node.set, i));
      case 'sequence':
        return this.product(node.parts, limit);
      case 'choice': {
        const all: string[] = [];
        for (const branch of node.branches) {
          const texts = this.texts(branch, limit - all.length);
          if (texts === undefined) return undefined;
          all.push(...texts);
        }
        return all;
      }
      case 'repeat': {
        const times = this.countOf(node);
        const texts = this.texts(node.node, limit);
        if (texts === undefined) return undefined;
        if (texts.length === 1) return [(texts[0] as string).repeat(times)];
        return times > 16 ? undefined : this.product(Array(times).fill(node.node), limit);
      }
    }
  }

  private product(parts: readonly PatternNode[], limit: number): string[] | undefined {
    let texts = [''];
    for (const part of parts) {
      const next = this.texts(part, limit);
      if (next === undefined || texts.length * next.length > limit) return undefined;
      texts = texts.flatMap((head) => next.map((tail) => head + tail));
    }
    return texts;
  }
}

/** Texts as one slot: those of the most common length, so that every key place has one width. */
function listSlot(texts: readonly string[]): Slot {
  const byWidth = new Map<number, string[]>();
  for (const text of new Set(texts)) {
    const width = Array.from(text).length;
    byWidth.set(width, [...(byWidth.get(width) ?? []), text]);
  }
  let [width, chosen] = [0, [''] as string[]];
  for (const [w, list] of byWidth) if (list.length > chosen.length) [width, chosen] = [w, list];
  return { size: chosen.length, width, at: (index) => chosen[index] as string };
}

function widthOf(slots: readonly Slot[]): number {
  return slots.reduce((sum, slot) => sum + slot.width, 0);
}

/** The keys the slots have room for, counted up to `enough` and a slot past it. */
function roomOf(slots: readonly Slot[], enough: number): bigint {
  let room = 1n;
  for (const slot of slots) {
    if (room >= BigInt(enough)) return room;
    room *= BigInt(slot.size);
  }
  return room;
}

/**
 * Keys by place: the place, scattered by a multiplication that is a permutation of the room of
 * the first slots that have room enough, written in those slots; the other slots drawn.
 */
function keysOf(slots: readonly Slot[], count: number, seed: number): (index: number) => string {
  let room = 1n;
  let unique = 0;
  while (unique < slots.length && room < BigInt(count)) {
    room *= BigInt((slots[unique] as Slot).size);
    unique += 1;
  }
  let step = 1_000_003n;
  while (gcd(step, room) !== 1n) step += 2n;
  const offset = BigInt(seed) % room;
  const drawn = slots.slice(unique);
  const rest = (index: number) => {
    if (drawn.length === 0) return '';
    const random = seededRandom(mix(seed, index));
    let text = '';
    for (const slot of drawn) text += slot.at(Math.floor(random() * slot.size));
    return text;
  };
  const first = slots.slice(0, unique);
  // In doubles where every product is exact (BigInt arithmetic was a twentieth of generating
  // a million invoices); the same keys either way.
  if (BigInt(count) * step + room < BigInt(Number.MAX_SAFE_INTEGER)) {
    const [small, stride, start] = [Number(room), Number(step), Number(offset)];
    return (index) => {
      let place = (index * stride + start) % small;
      let text = '';
      for (const slot of first) {
        text += slot.at(place % slot.size);
        place = Math.floor(place / slot.size);
      }
      return text + rest(index);
    };
  }
  return (index) => {
    let place = (BigInt(index) * step + offset) % room;
    let text = '';
    for (const slot of first) {
      const size = BigInt(slot.size);
      text += slot.at(Number(place % size));
      place /= size;
    }
    return text + rest(index);
  };
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}
