/**
 * @module Regular expressions simple enough to generate text from: a run of literals and
 * character classes, each repeated a fixed or bounded number of times (`^inv_[0-9a-z]{6}$`,
 * `^[A-Z]{2}\d{8,12}$`). Groups, alternatives, negated classes and lookarounds are not read.
 */

/** One piece of a pattern: one of these characters, `min` to `max` times. */
export interface PatternAtom {
  readonly characters: readonly string[];
  readonly min: number;
  readonly max: number;
}

/** Unbounded repeats (`*`, `+`, `{n,}`) stop this far past their minimum. */
const OPEN_REPEAT = 8;

const DIGITS = Array.from('0123456789');
const WORD = Array.from('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_');

/** The atoms of a pattern, or undefined where it is more than this reads. */
export function simplePattern(pattern: string): PatternAtom[] | undefined {
  let at = pattern.startsWith('^') ? 1 : 0;
  const end =
    pattern.endsWith('$') && !pattern.endsWith('\\$') ? pattern.length - 1 : pattern.length;
  const atoms: PatternAtom[] = [];
  while (at < end) {
    let characters: readonly string[] | undefined;
    const char = pattern[at] as string;
    if (char === '[') {
      const close = pattern.indexOf(']', at + 1);
      if (close < 0) return undefined;
      characters = classOf(pattern.slice(at + 1, close));
      at = close + 1;
    } else if (char === '\\') {
      characters = escapeOf(pattern[at + 1] ?? '');
      at += 2;
    } else if ('()|.*+?{}^$'.includes(char)) {
      return undefined;
    } else {
      characters = [char];
      at += 1;
    }
    if (characters === undefined || characters.length === 0) return undefined;
    const repeat = repeatAt(pattern, at, end);
    if (repeat === undefined) return undefined;
    atoms.push({ characters, min: repeat.min, max: repeat.max });
    at = repeat.next;
  }
  return atoms;
}

function escapeOf(char: string): readonly string[] | undefined {
  if (char === 'd') return DIGITS;
  if (char === 'w') return WORD;
  // An escaped punctuation character stands for itself; other escapes (\s, \b, \p) are not read.
  return /[^A-Za-z0-9]/.test(char) && char !== '' ? [char] : undefined;
}

/** `a-z0-9_`, `\d`: the characters of a class; undefined for a negated one. */
function classOf(body: string): readonly string[] | undefined {
  if (body.startsWith('^') || body === '') return undefined;
  const characters: string[] = [];
  for (let i = 0; i < body.length; i++) {
    let char = body[i] as string;
    if (char === '\\') {
      const escaped = escapeOf(body[i + 1] ?? '');
      if (escaped === undefined) return undefined;
      i += 1;
      if (escaped.length > 1) {
        characters.push(...escaped);
        continue;
      }
      char = escaped[0] as string;
    }
    if (body[i + 1] === '-' && i + 2 < body.length) {
      const last = body[i + 2] as string;
      const [from, to] = [char.codePointAt(0) ?? 0, last.codePointAt(0) ?? 0];
      if (to < from) return undefined;
      for (let code = from; code <= to; code++) characters.push(String.fromCodePoint(code));
      i += 2;
    } else characters.push(char);
  }
  return [...new Set(characters)];
}

function repeatAt(
  pattern: string,
  at: number,
  end: number,
): { min: number; max: number; next: number } | undefined {
  const char = at < end ? pattern[at] : undefined;
  if (char === '?') return { min: 0, max: 1, next: at + 1 };
  if (char === '*') return { min: 0, max: OPEN_REPEAT, next: at + 1 };
  if (char === '+') return { min: 1, max: 1 + OPEN_REPEAT, next: at + 1 };
  if (char !== '{') return { min: 1, max: 1, next: at };
  const close = pattern.indexOf('}', at);
  const bounds = /^(\d+)(,(\d*))?$/.exec(pattern.slice(at + 1, close));
  if (close < 0 || bounds === null) return undefined;
  const min = Number(bounds[1]);
  const max =
    bounds[2] === undefined ? min : bounds[3] === '' ? min + OPEN_REPEAT : Number(bounds[3]);
  return max < min ? undefined : { min, max, next: close + 1 };
}
