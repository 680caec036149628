/**
 * @module A fast path for the fixture layout that `stockmock fixtures generate` writes.
 *
 * That layout is a top-level key (`products:`) followed by one JSON object per line (`  - {"id":1,…}`), once per collection. JSON is
 * YAML 1.2, so every such line means the same to a YAML parser, and `JSON.parse` reads it about
 * ten times faster than js-yaml: the difference between 1 s and 0.1 s for 100 000 products.
 * Anything else (another key, a comment after an item, a block mapping, a duplicate key) returns
 * undefined, and the file goes through the YAML parser as before.
 */

const LIST_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):\s*$/;
const EMPTY_LIST = /^([A-Za-z_][A-Za-z0-9_-]*): \[\]\s*$/;
/** An item line's start; the JSON runs from its `{` to the line's last `}`. */
const ITEM_START = '  - {';

/**
 * The document's value when the text has the JSON-line layout exactly (one or more lists, each
 * a key line and its items, or `key: []`); undefined otherwise.
 */
export function parseJsonLineFixture(text: string): Record<string, unknown[]> | undefined {
  const lists: Record<string, unknown[]> = Object.create(null) as Record<string, unknown[]>;
  let current: unknown[] | undefined;
  let items = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const lineEnd = text.charCodeAt(end - 1) === CARRIAGE_RETURN ? end - 1 : end;
    const lineStart = start;
    start = end + 1;
    // Item lines first, without a regex or a copy of the line: they are all but a few.
    if (text.startsWith(ITEM_START, lineStart)) {
      let close = lineEnd;
      while (close > lineStart && isBlank(text.charCodeAt(close - 1))) close--;
      const item =
        text.charCodeAt(close - 1) === CLOSE_BRACE
          ? parseObject(text.slice(lineStart + ITEM_START.length - 1, close))
          : undefined;
      if (item === undefined || current === undefined) return undefined;
      current.push(item);
      items += 1;
      continue;
    }
    const line = text.slice(lineStart, lineEnd);
    if (line.trim() === '' || line.startsWith('#')) continue;
    const key = LIST_KEY.exec(line)?.[1] ?? EMPTY_LIST.exec(line)?.[1];
    // Any other line (a block mapping, a comment after an item) is for the YAML parser.
    if (key === undefined) return undefined;
    // A key twice is for the YAML parser to refuse; `__proto__` would be no key at all; a
    // `key:` with no items is null in YAML, not a list.
    if (key === '__proto__' || key in lists || current?.length === 0) return undefined;
    current = [];
    lists[key] = current;
    if (!LIST_KEY.test(line)) current = undefined;
  }
  return items > 0 && current?.length !== 0 ? { ...lists } : undefined;
}

/**
 * A JSON object without a duplicate key at any depth (YAML refuses them; JSON.parse would keep
 * the last): the keys its text writes are as many as the parsed objects hold.
 */
function parseObject(json: string): object | undefined {
  // A carriage return inside a line breaks it for YAML, not for JSON.
  if (json.includes('\r')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return keysWritten(json) === keysHeld(value) ? value : undefined;
}

/** The keys of a valid JSON text, at every depth: the strings followed by a `:`. */
function keysWritten(json: string): number {
  let keys = 0;
  let from = 0;
  for (;;) {
    const open = json.indexOf('"', from);
    if (open < 0) return keys;
    // Strings are skipped whole by indexOf; a quote after an odd run of backslashes is inside.
    let close = json.indexOf('"', open + 1);
    while (close > 0 && isEscaped(json, close)) close = json.indexOf('"', close + 1);
    if (close < 0) return keys;
    let next = close + 1;
    while (isBlank(json.charCodeAt(next))) next++;
    if (json.charCodeAt(next) === COLON) keys++;
    from = next;
  }
}

/** The keys of a parsed value's objects, at every depth. */
function keysHeld(value: object): number {
  if (Array.isArray(value)) {
    let keys = 0;
    for (const item of value as unknown[]) {
      if (typeof item === 'object' && item !== null) keys += keysHeld(item);
    }
    return keys;
  }
  let keys = 0;
  for (const key in value) {
    keys += 1;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null) keys += keysHeld(item);
  }
  return keys;
}

function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

const isBlank = (char: number): boolean => char === SPACE || char === TAB;

const BACKSLASH = 0x5c;
const COLON = 0x3a;
const CLOSE_BRACE = 0x7d;
const SPACE = 0x20;
const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;
