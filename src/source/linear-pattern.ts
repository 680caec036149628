/**
 * @module The one way a spec's `pattern` is matched: in time linear in the input.
 *
 * JavaScript's RegExp backtracks, and a pattern such as `^(a+)+$` takes exponential time on
 * `aaaa…a!`: one request value would hold the thread for minutes. Patterns come from teams'
 * specs, unreviewed; values come from anyone. RE2JS (the `re2js` package, a pure JavaScript port
 * of RE2 at parity with Go's `regexp`) matches in linear time. Chosen over `re2` (native C++:
 * node-gyp at install, and a crossing into C++ on each of many short matches), `re2-wasm`
 * (unmaintained since 2021) and V8's experimental linear engine (a process-wide flag that a
 * library cannot set for its host process).
 *
 * RE2 has no lookaround and no backreference. A pattern that needs one is run by RegExp inside
 * a `vm` context with a time-out, {@link BOUNDED_MATCH_MS} per value: a value whose match runs
 * out counts as not matching. `patternsBeyondLinear` names such patterns, so that the start log
 * and `validate` can say which they are, with file and line.
 */
import vm from 'node:vm';
import { RE2JS } from 're2js';

/** How long a pattern RE2 cannot run may take on one value before the value is refused. */
export const BOUNDED_MATCH_MS = 20;

/** What a compiled pattern offers: a test of any part of the input, as RegExp#test. */
export interface PatternMatcher {
  test(input: string): boolean;
  /** Whether the pattern runs in linear time; otherwise it runs bounded by BOUNDED_MATCH_MS. */
  readonly linear: boolean;
  /** The source, as written in the spec: Ajv keys its compiled patterns by it. */
  toString(): string;
}

const compiled = new Map<string, PatternMatcher>();

/**
 * The matcher of a pattern as JSON Schema reads it (ECMA-262 syntax, Unicode, unanchored).
 * Throws a SyntaxError for a pattern no engine can read, as `new RegExp` would.
 */
export function compilePattern(source: string): PatternMatcher {
  const known = compiled.get(source);
  if (known !== undefined) return known;
  const matcher = MAY_NEED_BACKTRACKING.test(source)
    ? (linearMatcher(source) ?? boundedMatcher(source))
    : deferredMatcher(source);
  // A spec's patterns are few, but a spec is reloaded: the cache stays bounded.
  if (compiled.size >= 10_000) compiled.clear();
  compiled.set(source, matcher);
  return matcher;
}

/**
 * What RE2 may refuse: a lookaround, a backreference, a property of the form `\p{Name=Value}`,
 * a repeat count past 1000 (`{1000,}`, `{1,5000}`). Only such a pattern is built for RE2 at once, to know whether it
 * needs the bounded engine; every other one is built on its first use, since building takes
 * about 0.3 ms and a spec may hold thousands that no request ever reaches.
 */
const MAY_NEED_BACKTRACKING = /\(\?<?[=!]|\\[1-9]|\\k<|\\[pP]\{[^}]*=|\{(?:\d+,)?\d{4,}/;

/** Whether RE2 runs the pattern: false for a lookaround or a backreference. */
export function isLinearPattern(source: string): boolean {
  return compilePattern(source).linear;
}

function linearMatcher(source: string): PatternMatcher | undefined {
  const re = re2Of(source);
  return re === undefined
    ? undefined
    : { test: (input) => re.test(input), linear: true, toString: () => source };
}

function re2Of(source: string): RE2JS | undefined {
  try {
    return RE2JS.compile(asEcmaReads(RE2JS.translateRegExp(source)));
  } catch {
    return undefined;
  }
}

function deferredMatcher(source: string): PatternMatcher {
  try {
    // Read now (RegExp parses and defers its own compilation): a bad pattern fails here.
    new RegExp(source, 'u');
  } catch (error) {
    // One that RE2 reads still serves (`\-` outside a class, refused in Unicode mode).
    const linear = linearMatcher(source);
    if (linear === undefined) throw error;
    return linear;
  }
  let test: ((input: string) => boolean) | undefined;
  return {
    test(input) {
      if (test === undefined) {
        const re = re2Of(source);
        const bounded = re === undefined ? boundedMatcher(source) : undefined;
        test = (text) => (re === undefined ? bounded?.test(text) === true : re.test(text));
      }
      return test(input);
    },
    linear: true,
    toString: () => source,
  };
}

/** One context for every bounded match: creating one takes about a millisecond. */
let boundedContext: { pattern: RegExp; input: string } | undefined;
const BOUNDED_TEST = new vm.Script('pattern.test(input)');

function boundedMatcher(source: string): PatternMatcher {
  // Throws here, at compile time, for a pattern RegExp cannot read either.
  const pattern = new RegExp(source, 'u');
  return {
    test(input) {
      boundedContext ??= vm.createContext({ pattern, input: '' }) as {
        pattern: RegExp;
        input: string;
      };
      boundedContext.pattern = pattern;
      boundedContext.input = input;
      try {
        return BOUNDED_TEST.runInContext(boundedContext, { timeout: BOUNDED_MATCH_MS }) === true;
      } catch {
        // Out of time: the value is refused rather than the thread held.
        return false;
      }
    },
    linear: false,
    toString: () => source,
  };
}

// ECMA-262's white space and line terminators, which `\s` matches; RE2's `\s` is ASCII only.
const ECMA_SPACE = String.raw`\t\n\x0B\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`;

// What `.` does not match in ECMA-262: its line terminators; RE2's `.` leaves out `\n` only.
const ECMA_LINE_TERMINATORS = String.raw`\n\r\x{2028}\x{2029}`;

/**
 * `.`, `\s` and `\S` as ECMA-262 reads them, in a pattern already in RE2's syntax: outside a
 * class each becomes a class of its own; inside one, `\s` becomes its members (a `\S` inside a
 * class keeps RE2's reading, which differs only for non-ASCII spaces).
 */
function asEcmaReads(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let at = 0; at < pattern.length; at += 1) {
    const char = pattern[at];
    if (char === '\\' && at + 1 < pattern.length) {
      const next = pattern[at + 1];
      at += 1;
      if (next === 's') out += inClass ? ECMA_SPACE : `[${ECMA_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${ECMA_SPACE}]`;
      else out += `\\${next ?? ''}`;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    out += char === '.' && !inClass ? `[^${ECMA_LINE_TERMINATORS}]` : (char ?? '');
  }
  return out;
}

/**
 * Ajv's `code.regExp` engine: every `pattern` (and `patternProperties` name) a validator
 * compiles goes through compilePattern. The flags Ajv passes are `u` or none; both read as
 * Unicode here, as RE2 always does.
 */
export const linearRegExpEngine = Object.assign(
  (source: string): PatternMatcher => compilePattern(source),
  { code: 'compilePattern' },
);

/** Where in a document a pattern RE2 cannot run is written: its path, and the pattern. */
export interface BoundedPattern {
  readonly path: readonly (string | number)[];
  readonly pattern: string;
}

/**
 * Every `pattern` keyword (and `patternProperties` name) of a document, as written, that
 * needs the bounded engine: for the start log and `validate`. A `pattern` member of any
 * object counts, as a schema may sit anywhere under an extension.
 */
export function patternsBeyondLinear(document: unknown): BoundedPattern[] {
  const found: BoundedPattern[] = [];
  const seen = new Set<object>();
  const pending: [unknown, (string | number)[]][] = [[document, []]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const members = value as Record<string, unknown>;
    const check = (pattern: string, at: (string | number)[]): void => {
      try {
        if (!isLinearPattern(pattern)) found.push({ path: at, pattern });
      } catch {
        // Not a pattern any engine reads: the OpenAPI check or Ajv reports it.
      }
    };
    if (typeof members['pattern'] === 'string' && !Array.isArray(value)) {
      check(members['pattern'], [...path, 'pattern']);
    }
    const named = members['patternProperties'];
    if (typeof named === 'object' && named !== null && !Array.isArray(value)) {
      for (const name of Object.keys(named)) check(name, [...path, 'patternProperties', name]);
    }
    for (const [key, member] of Object.entries(members).reverse()) {
      pending.push([member, [...path, Array.isArray(value) ? Number(key) : key]]);
    }
  }
  return found;
}
