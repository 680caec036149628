/**
 * @module Positions in a fixture found by its lines, without a second parse.
 *
 * `yaml`'s document tree can locate anything, but building it for a 100 000-product file took
 * 14 s and 1.3 GB, ten times what loading the file costs, so one bad line in a large file cost
 * more than the whole file. A fixture's issues are almost all at `products[i]` or one of its
 * fields, and the entries of a top-level block sequence are found by their lines: an entry
 * starts with `- ` at the list's indentation, and its fields are the keys within its lines.
 * What this cannot place (another shape of file, a path below an entry's field) is left to
 * `yaml`; a property test holds the two to the same answers where both answer.
 */
import type { Position } from '../problems/source-error.ts';

export type Path = readonly (string | number)[];

/** Where a path is, `key` for the key of its last member; undefined when the lines cannot say. */
export type LineLocate = (path: Path, part: 'value' | 'key') => Position | undefined;

interface Entry {
  /** Offset of the entry's `-`. */
  readonly dash: number;
  /** Offset where the next entry (or the end of the list) starts. */
  readonly end: number;
}

export function locateByLines(text: string): LineLocate {
  const list = listEntries(text);
  const entries = list?.entries;
  const lineStarts = lineStartsOf(text);
  const position = (offset: number): Position => {
    // The last line start at or before the offset, by binary search.
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((lineStarts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] as number) + 1 };
  };
  return (path, part) => {
    if (list === undefined || entries === undefined || path[0] !== list.name) return undefined;
    if (path.length === 1) {
      if (part === 'key') return position(list.key);
      return entries[0] === undefined ? undefined : position(entries[0].dash);
    }
    const index = path[1];
    const entry = typeof index === 'number' ? entries[index] : undefined;
    if (entry === undefined || path.length > 3) return undefined;
    const body = firstContent(text, entry.dash + 1, entry.end);
    const field = path[2];
    if (field === undefined) return position(body);
    const found = fieldIn(text, body, entry.end, String(field));
    if (found === undefined) return position(body);
    return position(part === 'key' ? found.key : found.value);
  };
}

/**
 * The entries of the first top-level key's block sequence (`products:`), its name and where the
 * key is; undefined for any other shape.
 */
function listEntries(text: string): { name: string; key: number; entries: Entry[] } | undefined {
  const key = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]*(#.*)?\r?$/m.exec(text);
  if (key === null) return undefined;
  const dashes: number[] = [];
  let indent = -1;
  let start = text.indexOf('\n', key.index);
  let listEnd = text.length;
  while (start >= 0 && start < text.length) {
    start += 1;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    const content = line.trimStart();
    const depth = line.length - content.length;
    if (content === '' || content === '\r' || content.startsWith('#')) {
      start = end;
      continue;
    }
    const isItem = content.startsWith('- ') || content === '-' || content === '-\r';
    if (indent < 0) {
      if (!isItem) return undefined;
      indent = depth;
    }
    if (depth === indent && isItem) dashes.push(start + depth);
    else if (depth <= indent) {
      listEnd = start;
      break;
    }
    start = end;
  }
  return {
    name: key[1] ?? '',
    key: key.index,
    entries: dashes.map((dash, i) => ({ dash, end: dashes[i + 1] ?? listEnd })),
  };
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The first character after spaces (and a flow mapping's `{` stays: the mapping starts there). */
function firstContent(text: string, from: number, end: number): number {
  let at = from;
  while (at < end && (text[at] === ' ' || text[at] === '\t')) at += 1;
  return at;
}

/**
 * A field of an entry: its key, as plain or double-quoted text followed by `:`, at the start of
 * a line of the entry (block) or after `{` or `,` (flow); and where its value starts, which for
 * an empty value is where `yaml` places its null: right after the colon and any spaces.
 */
function fieldIn(
  text: string,
  from: number,
  end: number,
  field: string,
): { key: number; value: number } | undefined {
  const span = text.slice(from, end);
  const name = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(^|[{,]\\s*|\\n[ \\t]*)("${name}"|${name})[ \\t]*:`, 'g');
  let key = -1;
  let match: RegExpExecArray | null;
  // The first match that is the entry's own field, not one of a nested mapping's.
  while ((match = pattern.exec(span)) !== null) {
    const at = from + match.index + (match[1] ?? '').length;
    if (isEntryField(text, from, at)) {
      key = at;
      break;
    }
  }
  if (match === null) return undefined;
  let value = from + match.index + match[0].length;
  while (value < end && (text[value] === ' ' || text[value] === '\t')) value += 1;
  const rest = text[value];
  if (value < end && rest !== '\n' && rest !== '\r' && rest !== '#') return { key, value };
  // Nothing after the colon: a block value starts on a later line, indented deeper than the key.
  const keyColumn = key - (text.lastIndexOf('\n', key - 1) + 1);
  for (let next = text.indexOf('\n', value) + 1; next > 0 && next < end;) {
    const lineEnd = text.indexOf('\n', next);
    const line = text.slice(next, lineEnd < 0 ? end : lineEnd);
    const content = line.trimStart();
    if (content !== '' && content !== '\r' && !content.startsWith('#')) {
      const depth = line.length - content.length;
      return { key, value: depth > keyColumn ? next + depth : value };
    }
    next = lineEnd + 1;
  }
  return { key, value };
}

/**
 * Whether a key at `key` belongs to the entry whose content starts at `from`, not to a mapping
 * nested in one of its values nor to quoted text. A flow entry (`{ … }`) owns the keys at
 * bracket depth one outside quotes (plain scalars in flow cannot hold brackets); a block entry
 * owns its first key and the keys that start a later line at the first key's column.
 */
function isEntryField(text: string, from: number, key: number): boolean {
  if (key === from) return true;
  if (text[from] === '{') {
    let depth = 0;
    for (let at = from; at < key; at++) {
      const char = text[at];
      if (char === '"' || char === "'") {
        at = closingQuote(text, at, key);
        // Still inside the quotes at the key: it is text of a value.
        if (at >= key) return false;
      } else if (char === '{' || char === '[') depth += 1;
      else if (char === '}' || char === ']') depth -= 1;
    }
    return depth === 1;
  }
  const lineStart = text.lastIndexOf('\n', key - 1) + 1;
  return lineStart > from && key - lineStart === from - (text.lastIndexOf('\n', from - 1) + 1);
}

/** Where a quoted scalar that opens at `open` closes (`\"` and `''` escape), or `limit`. */
function closingQuote(text: string, open: number, limit: number): number {
  const quote = text[open];
  for (let at = open + 1; at < limit; at++) {
    if (quote === '"' && text[at] === '\\') at += 1;
    else if (text[at] === quote) {
      if (quote === "'" && text[at + 1] === "'") at += 1;
      else return at;
    }
  }
  return limit;
}

/**
 * The lines around an offset that a parser can read on their own: from the start of the entry
 * before the one that holds the offset, to the end of the offset's line; undefined where the
 * file is not a top-level block sequence of products. A syntax fault in a large file is read
 * again in this fragment only, to say where it starts.
 */
export function fragmentAround(
  text: string,
  offset: number,
): { start: number; end: number } | undefined {
  const entries = listEntries(text)?.entries;
  if (entries === undefined || entries.length === 0) return undefined;
  let holder = entries.findIndex((entry) => offset < entry.end);
  if (holder < 0) holder = entries.length - 1;
  const first = entries[Math.max(0, holder - 1)] as Entry;
  const start = text.lastIndexOf('\n', first.dash) + 1;
  const lineEnd = text.indexOf('\n', offset);
  return { start, end: lineEnd < 0 ? text.length : lineEnd + 1 };
}
