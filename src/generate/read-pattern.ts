/**
 * @module The patterns the generator reads, as a tree to make text from: literals, classes
 * (negated too), `.`, `\d \w \s`, groups with alternatives (`(0[1-9]|1[0-2])`, `(?:…)`,
 * `(?<name>…)`), and repeats of any of them (`?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`). That covers
 * the usual keys, slugs, codes, versions and dates. Backreferences are not read. Assertions
 * (lookarounds, `\b`) are refused, or read as the empty text where the caller draws again
 * until the matcher takes the text: what they exclude is not in the tree.
 *
 * A pattern is another team's, unreviewed: the reader is one pass over a source of bounded
 * length, with groups nested to a bounded depth, and builds no character list of a class (a class
 * is ranges of code points). Where text is made, the matcher of src/source/linear-pattern.ts has
 * the last word: the tree is a guide, not a judge.
 */

/** What one pattern may be for the reader to read it (docs/security.md, row 7). */
export const PATTERN_LIMITS = {
  /** UTF-16 code units of the source. */
  source: 4096,
  /** Groups nested in one another. */
  depth: 32,
} as const;

/** Characters as sorted, disjoint ranges of code points, surrogates apart; `size` of them. */
export interface CharSet {
  readonly ranges: readonly (readonly [number, number])[];
  readonly size: number;
}

/**
 * One node of a pattern. `least` and `most` are the lengths of the shortest and longest text it
 * matches, in code points (`most` may be Infinity).
 */
export type PatternNode =
  | { readonly kind: 'chars'; readonly set: CharSet; readonly least: number; readonly most: number }
  | Composite<'sequence', { readonly parts: readonly PatternNode[] }>
  | Composite<'choice', { readonly branches: readonly PatternNode[] }>
  | Composite<'repeat', { readonly node: PatternNode; readonly min: number; readonly max: number }>;

type Composite<Kind extends string, Fields> = Fields & {
  readonly kind: Kind;
  readonly least: number;
  readonly most: number;
};

/**
 * The tree of a pattern (`exact` unless an assertion was read as the empty text), or what in it
 * the reader does not read, in words.
 */
export type ReadPattern =
  { readonly node: PatternNode; readonly exact: boolean } | { readonly unread: string };

/** The `index`th character of a set, from 0. */
export function charAt(set: CharSet, index: number): string {
  let rest = index;
  for (const [from, to] of set.ranges) {
    if (rest <= to - from) return String.fromCodePoint(from + rest);
    rest -= to - from + 1;
  }
  throw new RangeError(`no character ${String(index)} in a set of ${String(set.size)}`);
}

/**
 * What to do with an assertion (a lookaround, `\b`, an anchor inside the pattern): refuse the
 * pattern, or read it as matching the empty text and leave the matcher to refuse what it
 * excludes. Text can be drawn again until the matcher takes it; a key cannot, as keys are made
 * by place.
 */
export type Assertions = 'refuse' | 'ignore';

/** Reads a pattern as JSON Schema writes it (ECMA-262 with the `u` flag, unanchored). */
export function readPattern(pattern: string, assertions: Assertions = 'refuse'): ReadPattern {
  if (pattern.length > PATTERN_LIMITS.source) {
    return { unread: `more than ${String(PATTERN_LIMITS.source)} characters` };
  }
  const reader = new Reader(Array.from(pattern), assertions);
  try {
    const node = reader.choice(0);
    if (!reader.done()) reader.fail('an unmatched )');
    return { node, exact: !reader.ignored };
  } catch (error) {
    if (error instanceof Unread) return { unread: error.message };
    throw error;
  }
}

class Unread extends Error {}

const range = (from: string, to = from): [number, number] => [
  from.codePointAt(0) ?? 0,
  to.codePointAt(0) ?? 0,
];
const DIGIT = [range('0', '9')];
const WORD = [range('a', 'z'), range('A', 'Z'), range('0', '9'), range('_')];
const SPACE = [range(' ')];
/** What `.` and a negated class draw from: readable text, not every code point they allow. */
const READABLE = [
  range('a', 'z'),
  range('A', 'Z'),
  range('0', '9'),
  range(' '),
  range('-', '.'),
  range('_'),
];

/** `\p{…}` properties read, by their ASCII members (text needs only fit, not span them). */
const PROPERTIES: Readonly<Record<string, [number, number][]>> = {
  L: [range('a', 'z'), range('A', 'Z')],
  Letter: [range('a', 'z'), range('A', 'Z')],
  Lu: [range('A', 'Z')],
  Uppercase_Letter: [range('A', 'Z')],
  Ll: [range('a', 'z')],
  Lowercase_Letter: [range('a', 'z')],
  N: DIGIT,
  Nd: DIGIT,
  Number: DIGIT,
  Decimal_Number: DIGIT,
};

const CONTROLS: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v' };
const SYNTAX = '^$\\.*+?()[]{}|/-';

function charSet(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    // Surrogates are halves of characters, never characters of text.
    for (const [a, b] of [
      [from, Math.min(to, 0xd7ff)],
      [Math.max(from, 0xe000), to],
    ] as const) {
      if (a > b) continue;
      const last = merged.at(-1);
      if (last !== undefined && a <= last[1] + 1) last[1] = Math.max(last[1], b);
      else merged.push([a, b]);
    }
  }
  return { ranges: merged, size: merged.reduce((sum, [a, b]) => sum + b - a + 1, 0) };
}

function contains(set: CharSet, code: number): boolean {
  return set.ranges.some(([from, to]) => from <= code && code <= to);
}

/** The readable characters a set leaves out: a negated class, `\D`, `\W`, `\S`. */
function outside(set: CharSet): CharSet {
  const kept: [number, number][] = [];
  for (const [from, to] of charSet(READABLE).ranges) {
    for (let code = from; code <= to; code++) if (!contains(set, code)) kept.push([code, code]);
  }
  return charSet(kept);
}

const chars = (set: CharSet): PatternNode => ({ kind: 'chars', set, least: 1, most: 1 });
const EMPTY: PatternNode = { kind: 'sequence', parts: [], least: 0, most: 0 };

/** Products that stay 0 where either side is (Infinity × 0 is NaN). */
const times = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b);

class Reader {
  private at = 0;
  private readonly source: readonly string[];
  private readonly assertions: Assertions;
  /** Whether an assertion was read as the empty text. */
  ignored = false;
  constructor(source: readonly string[], assertions: Assertions) {
    this.source = source;
    this.assertions = assertions;
  }

  /** An assertion, as the empty text where assertions are ignored. */
  private assertion(what: string, length: number): PatternNode {
    if (this.assertions === 'refuse') this.fail(what);
    this.ignored = true;
    this.at += length;
    return EMPTY;
  }

  done(): boolean {
    return this.at >= this.source.length;
  }

  fail(what: string): never {
    throw new Unread(`${what} (at character ${String(this.at + 1)})`);
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.at + offset];
  }

  choice(depth: number): PatternNode {
    const branches = [this.sequence(depth)];
    while (this.peek() === '|') {
      this.at += 1;
      branches.push(this.sequence(depth));
    }
    if (branches.length === 1) return branches[0] as PatternNode;
    return {
      kind: 'choice',
      branches,
      least: Math.min(...branches.map((branch) => branch.least)),
      most: Math.max(...branches.map((branch) => branch.most)),
    };
  }

  private sequence(depth: number): PatternNode {
    const parts: PatternNode[] = [];
    const start = this.at;
    for (let char = this.peek(); char !== undefined && char !== '|' && char !== ')';) {
      // Anchors at the ends of the whole pattern's alternatives: text made to fit starts and
      // ends there anyway. Elsewhere an anchor says something the tree cannot.
      if (char === '^' && depth === 0 && this.at === start) this.at += 1;
      else if (char === '$' && depth === 0 && [undefined, '|'].includes(this.peek(1))) {
        this.at += 1;
      } else parts.push(this.repeat(this.atom(depth)));
      char = this.peek();
    }
    if (parts.length === 1) return parts[0] as PatternNode;
    return {
      kind: 'sequence',
      parts,
      least: parts.reduce((sum, part) => sum + part.least, 0),
      most: parts.reduce((sum, part) => sum + part.most, 0),
    };
  }

  private atom(depth: number): PatternNode {
    const char = this.peek() as string;
    if (char === '(') return this.group(depth);
    if (char === '[') return chars(this.characterClass());
    if (char === '.') {
      this.at += 1;
      return chars(charSet(READABLE));
    }
    if (char === '\\' && (this.peek(1) === 'b' || this.peek(1) === 'B')) {
      return this.assertion('a word boundary \\b', 2);
    }
    if (char === '\\') return chars(this.escape(false));
    if ('^$'.includes(char)) return this.assertion(`an anchor ${char} inside the pattern`, 1);
    if ('*+?{}]'.includes(char)) this.fail(`a ${char} with nothing to repeat`);
    this.at += 1;
    return chars(charSet([range(char)]));
  }

  private group(depth: number): PatternNode {
    if (depth + 1 > PATTERN_LIMITS.depth) {
      this.fail(`groups nested more than ${String(PATTERN_LIMITS.depth)} deep`);
    }
    this.at += 1;
    if (this.peek() === '?') {
      const kind = `${this.peek(1) ?? ''}${this.peek(2) ?? ''}`;
      if (kind.startsWith(':')) this.at += 2;
      else if (kind === '<=' || kind === '<!' || kind.startsWith('=') || kind.startsWith('!')) {
        // Read through, for the groups and classes inside, and kept as the empty text.
        this.assertion('a lookaround (?= (?! (?<= (?<!', kind.startsWith('<') ? 3 : 2);
        this.choice(depth + 1);
        if (this.peek() !== ')') this.fail('an unclosed group');
        this.at += 1;
        return EMPTY;
      } else if (kind.startsWith('<')) {
        const close = this.source.indexOf('>', this.at);
        if (close < 0) this.fail('an unclosed group name');
        this.at = close + 1;
      } else this.fail('a group modifier (?…)');
    }
    const node = this.choice(depth + 1);
    if (this.peek() !== ')') this.fail('an unclosed group');
    this.at += 1;
    return node;
  }

  private repeat(node: PatternNode): PatternNode {
    const bounds = this.quantifier();
    if (bounds === undefined) return node;
    // A lazy repeat matches the same texts.
    if (this.peek() === '?') this.at += 1;
    if ('*+?{'.includes(this.peek() ?? '|')) this.fail('a repeat of a repeat');
    const [min, max] = bounds;
    return {
      kind: 'repeat',
      node,
      min,
      max,
      least: times(min, node.least),
      most: times(max, node.most),
    };
  }

  private quantifier(): [number, number] | undefined {
    const char = this.peek();
    if (char === '?' || char === '*' || char === '+') {
      this.at += 1;
      return char === '?' ? [0, 1] : char === '*' ? [0, Infinity] : [1, Infinity];
    }
    if (char !== '{') return undefined;
    const close = this.source.indexOf('}', this.at);
    const bounds =
      close < 0 ? null : /^(\d+)(,(\d*))?$/.exec(this.source.slice(this.at + 1, close).join(''));
    if (bounds === null) this.fail('a { that is not a repeat {n}, {n,} or {n,m}');
    const min = Number(bounds[1]);
    const max = bounds[2] === undefined ? min : bounds[3] === '' ? Infinity : Number(bounds[3]);
    if (max < min) this.fail(`a repeat {${String(min)},${String(max)}} of more than most`);
    this.at = close + 1;
    return [min, max];
  }

  /** `[a-z0-9_]`, `[^\s@]`: a class as a set, negated ones drawn from readable text. */
  private characterClass(): CharSet {
    this.at += 1;
    const negated = this.peek() === '^';
    if (negated) this.at += 1;
    const ranges: (readonly [number, number])[] = [];
    while (this.peek() !== ']') {
      if (this.done()) this.fail('an unclosed class [');
      const from = this.classMember();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.at += 1;
        const to = this.classMember();
        const [a, b] = [single(from), single(to)];
        if (a === undefined || b === undefined) this.fail('a range of a class such as \\d-z');
        if (b < a) this.fail('a range out of order');
        ranges.push([a, b]);
      } else ranges.push(...from.ranges);
    }
    this.at += 1;
    const set = charSet(ranges);
    const result = negated ? outside(set) : set;
    if (result.size === 0) this.fail('a class no character fits');
    return result;
  }

  private classMember(): CharSet {
    if (this.peek() === '\\') return this.escape(true);
    const char = this.peek() as string;
    this.at += 1;
    return charSet([range(char)]);
  }

  /** The characters of an escape: `\d`, `\.`, `\u00e9`, `\p{Lu}`. */
  private escape(inClass: boolean): CharSet {
    const char = this.peek(1);
    this.at += 2;
    switch (char) {
      case 'd':
        return charSet(DIGIT);
      case 'w':
        return charSet(WORD);
      case 's':
        return charSet(SPACE);
      case 'D':
        return outside(charSet(DIGIT));
      case 'W':
        return outside(charSet(WORD));
      case 'S':
        return outside(charSet(SPACE));
      case 'x':
      case 'u': {
        const code = this.codePoint(char);
        return charSet([[code, code]]);
      }
      case 'p':
        return this.property();
      case 'b':
        // Outside a class, \b is an assertion (atom() reads it).
        if (inClass) return charSet([[8, 8]]);
        return this.fail('a word boundary \\b');
      case '0':
        if (/\d/.test(this.peek() ?? '')) this.fail('an octal escape');
        return charSet([[0, 0]]);
      case undefined:
        return this.fail('a \\ at the end');
      default: {
        const control = CONTROLS[char];
        if (control !== undefined) return charSet([range(control)]);
        if (SYNTAX.includes(char)) return charSet([range(char)]);
        if (/[1-9]/.test(char)) this.fail('a backreference \\1…\\9');
        return this.fail(`the escape \\${char}`);
      }
    }
  }

  /** The code point of `\xHH`, `\uHHHH` or `\u{H…}`, the reader past it. */
  private codePoint(kind: 'x' | 'u'): number {
    const rest = this.source.slice(this.at, this.at + 10).join('');
    const found =
      kind === 'x'
        ? /^[0-9a-fA-F]{2}/.exec(rest)
        : (/^\{([0-9a-fA-F]{1,6})\}/.exec(rest) ?? /^[0-9a-fA-F]{4}/.exec(rest));
    if (found === null) this.fail(`a malformed \\${kind} escape`);
    this.at += found[0].length;
    const code = parseInt(found[1] ?? found[0], 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
      this.fail('a code point no text holds');
    return code;
  }

  private property(): CharSet {
    const close = this.source.indexOf('}', this.at);
    const name = close < 0 ? '' : this.source.slice(this.at + 1, close).join('');
    const ranges = PROPERTIES[name];
    if (this.peek() !== '{' || ranges === undefined) this.fail(`the property \\p{${name}}`);
    this.at = close + 1;
    return charSet(ranges);
  }
}

/** The code point of a set of one character, else undefined. */
function single(set: CharSet): number | undefined {
  const [only] = set.ranges;
  return set.size === 1 && only !== undefined ? only[0] : undefined;
}
