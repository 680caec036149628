/**
 * @module Random text of a pattern's tree (read-pattern.ts), of a length within a range: each
 * repeat a few times past its least (a slug of a few parts, a code of its own length), more
 * only where `minLength` asks for more, fewer where `maxLength` allows fewer. What it makes is
 * a proposal: the caller holds it to the pattern's own matcher.
 */
import { charAt, type PatternNode } from './read-pattern.ts';

/**
 * Nodes one text may visit for its optional parts (repeats past their least, which nest): past
 * it, repeats take their least, so that `((a{0,1000}){0,1000}){0,1000}` stays a few steps.
 */
export const PATTERN_STEPS = 100_000;

/** Repeats past their least, at most: a run of characters, and a repeated group. */
const OPEN_RUN = 8;
const OPEN_GROUP = 2;

/** Text the tree matches, `lo` to `hi` code points long where the tree allows it. */
export function patternText(
  node: PatternNode,
  random: () => number,
  lo: number,
  hi: number,
): string {
  const out: string[] = [];
  write(node, lo, hi, { random, steps: PATTERN_STEPS, out });
  return out.join('');
}

interface Writing {
  readonly random: () => number;
  steps: number;
  readonly out: string[];
}

/** Writes text of a node, `lo` to `hi` long as far as it can; returns its length. */
function write(node: PatternNode, lo: number, hi: number, writing: Writing): number {
  writing.steps -= 1;
  switch (node.kind) {
    case 'chars':
      writing.out.push(charAt(node.set, Math.floor(writing.random() * node.set.size)));
      return 1;
    case 'choice': {
      const fitting = node.branches.filter((branch) => branch.least <= hi && branch.most >= lo);
      const from = fitting.length > 0 ? fitting : node.branches;
      const branch = from[Math.floor(writing.random() * from.length)] as PatternNode;
      return write(branch, lo, hi, writing);
    }
    case 'sequence': {
      let restLeast = node.least;
      // What the parts after this one can take at most: Infinity less Infinity would be NaN, so
      // the unbounded ones are counted apart.
      let [finiteMost, unbounded] = [0, 0];
      for (const part of node.parts) {
        if (part.most === Infinity) unbounded += 1;
        else finiteMost += part.most;
      }
      let written = 0;
      for (const part of node.parts) {
        restLeast -= part.least;
        if (part.most === Infinity) unbounded -= 1;
        else finiteMost -= part.most;
        const restMost = unbounded > 0 ? Infinity : finiteMost;
        written += writePart(part, lo - written, hi - written, restLeast, restMost, writing);
      }
      return written;
    }
    case 'repeat': {
      const count = repeatCount(node, lo, hi, writing);
      const { least, most } = node.node;
      let written = 0;
      for (let i = 0; i < count; i++) {
        const rest = count - 1 - i;
        written += writePart(
          node.node,
          lo - written,
          hi - written,
          rest * least,
          rest === 0 ? 0 : rest * most,
          writing,
        );
      }
      return written;
    }
  }
}

/** A part of a run, given what the parts after it can take. */
function writePart(
  part: PatternNode,
  lo: number,
  hi: number,
  restLeast: number,
  restMost: number,
  writing: Writing,
): number {
  const partLo = Math.max(part.least, lo - restMost);
  const partHi = Math.min(part.most, hi - restLeast);
  return write(part, partLo, Math.max(partLo, partHi), writing);
}

/**
 * How many times a repeat runs: at least as often as its minimum and `lo` need, at most as
 * `hi` and its maximum allow, and a few past the least. A part that may be empty need not run
 * its minimum: empty runs match.
 */
function repeatCount(
  node: Extract<PatternNode, { kind: 'repeat' }>,
  lo: number,
  hi: number,
  writing: Writing,
): number {
  const { least, most } = node.node;
  let low = least === 0 ? 0 : node.min;
  if (lo > 0 && most > 0) low = Math.max(low, most === Infinity ? 1 : Math.ceil(lo / most));
  const high = least === 0 ? node.max : Math.min(node.max, Math.floor(hi / least));
  const open = node.node.kind === 'chars' ? OPEN_RUN : OPEN_GROUP;
  const upper = writing.steps <= 0 ? low : Math.min(high, Math.max(low, node.min) + open);
  if (upper <= low) return low;
  // An unbounded repeat leans to its fewer runs: version parts of a digit or two, slugs of a
  // word or two, as people write them.
  const draw = writing.random();
  const lean = node.max === Infinity ? draw * draw : draw;
  return low + Math.floor(lean * (upper - low + 1));
}
