/**
 * @module Where a member of a YAML or JSON text is written, found by scanning the text along
 * its path, without building a tree.
 *
 * `yaml`'s document tree places anything, but costs about 1 ms per kilobyte: a 265 kB spec with
 * one warning to place paid 200-370 ms at start, and a 6 MB JSON spec seconds. A path is found
 * here by reading only the keys on its way: block mappings and sequences by their indentation,
 * flow collections (all of JSON) by their brackets. What this scanner does not read (anchors,
 * aliases, tags, complex keys, several documents, keys that YAML reads as other than their
 * text) answers `undefined`, and the caller asks `yaml`; a property test holds the two to the
 * same answers.
 */

export type Path = readonly (string | number)[];

/**
 * The offset of the member at `path` (`key`: of its last key), or of the nearest member on its
 * way when the rest is absent, as `yaml`'s tree places it; undefined where the scan cannot say.
 */
export function scanLocation(text: string, path: Path, part: 'value' | 'key'): number | undefined {
  try {
    return new Scanner(text).locate(path, part);
  } catch (error) {
    if (error === UNSURE) return undefined;
    throw error;
  }
}

/** Thrown where the text takes a form the scanner does not read. */
const UNSURE = Symbol('unsure');

function unsure(): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a private signal, caught above
  throw UNSURE;
}

/** A member found: where its key starts and where its value does. */
interface Member {
  readonly key: number;
  readonly value: number;
}

class Scanner {
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  locate(path: Path, part: 'value' | 'key'): number {
    let at = this.documentStart();
    // Inside a flow collection everything is flow: a scalar there is never a block mapping.
    let flow = false;
    for (const [index, segment] of path.entries()) {
      flow ||= this.text[at] === '{' || this.text[at] === '[';
      const member = this.member(at, segment, flow);
      if (member === undefined) return at;
      at = index === path.length - 1 && part === 'key' ? member.key : member.value;
    }
    return at;
  }

  /** The first content of the one document the text holds. */
  private documentStart(): number {
    const { text } = this;
    if (text.startsWith('%')) unsure();
    let at = this.nextContent(text.startsWith('\uFEFF') ? 1 : 0);
    if (this.isDocumentMarker(at)) {
      if (text.startsWith('...', at)) unsure();
      at = this.nextContent(at + 3);
    }
    return at;
  }

  /** The member `segment` of the node that starts at `at`; undefined where it has none. */
  private member(at: number, segment: string | number, flow: boolean): Member | undefined {
    const char = this.text[at];
    if (char === '{')
      return typeof segment === 'number' ? undefined : this.flowMapMember(at, segment);
    if (char === '[') return typeof segment === 'number' ? this.flowItem(at, segment) : undefined;
    if (char === undefined || '&*!?|>%@`'.includes(char)) {
      if (char === undefined || char === '|' || char === '>') return undefined;
      unsure();
    }
    if (flow) return undefined;
    if (this.isEntryDash(at)) {
      return typeof segment === 'number' ? this.blockItem(at, segment) : undefined;
    }
    // A scalar holds no member; a line that reads as a key starts a block mapping.
    const key = this.blockKey(at);
    if (key === undefined) return undefined;
    return typeof segment === 'number' ? undefined : this.blockMapMember(at, segment);
  }

  // Block collections: read by indentation.

  private blockMapMember(first: number, name: string): Member | undefined {
    const column = this.columnOf(first);
    let at = first;
    for (;;) {
      const key = this.blockKey(at) ?? unsure();
      if (key.name === name) return { key: at, value: this.blockValue(key.end, column) };
      at = this.nextAtColumn(this.skipInlineValue(key.end), column);
      if (at < 0) return undefined;
      if (this.isEntryDash(at)) {
        // A sequence written at its key's own column is that key's value.
        at = this.nextAtColumn(this.skipInlineValue(at + 1), column, true);
        if (at < 0) return undefined;
      }
    }
  }

  private blockItem(first: number, index: number): Member | undefined {
    const column = this.columnOf(first);
    let at = first;
    for (let n = 0; ; n++) {
      if (!this.isEntryDash(at)) return undefined;
      if (n === index) {
        const value = this.blockValue(at + 1, column);
        return { key: value, value };
      }
      at = this.nextAtColumn(this.skipInlineValue(at + 1), column);
      if (at < 0) return undefined;
    }
  }

  /**
   * Where a block value starts, after its indicator (`:` or `-`) at `from`: on the same line, or
   * on the next line indented deeper (or a sequence at the key's column); an empty value is
   * where `yaml` places its null, right after the indicator and its spaces.
   */
  private blockValue(from: number, column: number): number {
    const { text } = this;
    let at = from;
    while (text[at] === ' ' || text[at] === '\t') at += 1;
    const char = text[at];
    if (char !== undefined && char !== '\n' && char !== '\r' && char !== '#') return at;
    // An empty value (a comment may follow) is placed where `yaml` places its null: here.
    const next = this.nextContent(at);
    if (next >= text.length || this.isDocumentMarker(next)) return at;
    const nextColumn = this.columnOf(next);
    if (nextColumn > column || (nextColumn === column && this.isEntryDash(next))) {
      // A sequence at the key's column belongs to a mapping's key, never to an entry's dash.
      if (nextColumn === column && text[from - 1] === '-') return at;
      return next;
    }
    return at;
  }

  /**
   * The next line at or before `column` after `from`, skipping deeper lines (the members'
   * values); -1 where the collection ends (a shallower line, the end, another document).
   * `dashes` skips lines at the column that are sequence entries.
   */
  private nextAtColumn(from: number, column: number, dashes = false): number {
    for (let at = this.nextContent(from); at < this.text.length;) {
      if (this.isDocumentMarker(at)) unsure();
      const found = this.columnOf(at);
      if (found < column) return -1;
      if (found === column && !(dashes && this.isEntryDash(at))) return at;
      // A deeper line is a value's, read no further: a block scalar's lines can hold anything.
      at = this.nextContent(this.lineEnd(at));
    }
    return -1;
  }

  /**
   * The end of what starts on a line at `from`: a quoted scalar or flow collection may run over
   * lines, and is skipped whole; anything else ends with its line.
   */
  private skipInlineValue(from: number): number {
    const { text } = this;
    let at = from;
    while (text[at] === ' ' || text[at] === '\t') at += 1;
    const char = text[at];
    if (char === '"' || char === "'" || char === '{' || char === '[') {
      return this.lineEnd(this.skipFlowValue(at));
    }
    return this.lineEnd(at);
  }

  /** A block mapping's key at `at`, its text and where its `:` ends; undefined if none. */
  private blockKey(at: number): { name: string; end: number } | undefined {
    const { text } = this;
    const char = text[at];
    let name: string;
    let after: number;
    if (char === '"' || char === "'") {
      const close = this.closingQuote(at);
      after = close + 1;
      while (text[after] === ' ' || text[after] === '\t') after += 1;
      if (text[after] !== ':' || !this.endsIndicator(after + 1)) return undefined;
      name = this.quotedText(at, close);
    } else {
      const end = this.lineEnd(at);
      let colon = -1;
      for (let i = at; i < end; i++) {
        const c = text[i];
        if (c === '#' && (text[i - 1] === ' ' || text[i - 1] === '\t')) break;
        if (c === ':' && this.endsIndicator(i + 1)) {
          colon = i;
          break;
        }
      }
      if (colon < 0) return undefined;
      name = text.slice(at, colon).trimEnd();
      if (!isPlainKeyAsWritten(name)) unsure();
      after = colon;
    }
    return { name, end: after + 1 };
  }

  // Flow collections (and JSON): read by brackets.

  private flowMapMember(open: number, name: string): Member | undefined {
    const { text } = this;
    let at = this.flowSpace(open + 1);
    while (text[at] !== '}') {
      const key = at;
      let keyName: string;
      if (text[at] === '"' || text[at] === "'") {
        const close = this.closingQuote(at);
        keyName = this.quotedText(at, close);
        at = this.flowSpace(close + 1);
      } else {
        const end = this.plainEnd(at);
        keyName = text.slice(at, end).trimEnd();
        if (!isPlainKeyAsWritten(keyName)) unsure();
        at = this.flowSpace(end);
      }
      if (text[at] !== ':') unsure();
      const value = this.flowSpace(at + 1);
      if (keyName === name) return { key, value };
      at = this.afterFlowValue(value, '}');
      if (at < 0) return undefined;
    }
    return undefined;
  }

  private flowItem(open: number, index: number): Member | undefined {
    let at = this.flowSpace(open + 1);
    for (let n = 0; this.text[at] !== ']'; n++) {
      if (n === index) return { key: at, value: at };
      at = this.afterFlowValue(at, ']');
      if (at < 0) return undefined;
    }
    return undefined;
  }

  /** After a flow value at `at`: the next member's start, or -1 at the collection's `close`. */
  private afterFlowValue(at: number, close: '}' | ']'): number {
    const next = this.flowSpace(this.skipFlowValue(at));
    const char = this.text[next];
    if (char === ',') {
      const following = this.flowSpace(next + 1);
      return this.text[following] === close ? -1 : following;
    }
    if (char === close) return -1;
    return unsure();
  }

  /** The end of a flow value (a quoted or plain scalar, or a nested collection). */
  private skipFlowValue(at: number): number {
    const { text } = this;
    const char = text[at];
    if (char === '"' || char === "'") return this.closingQuote(at) + 1;
    if (char === '{' || char === '[') {
      const closing = char === '{' ? '}' : ']';
      let next = this.flowSpace(at + 1);
      while (text[next] !== closing) {
        if (next >= text.length) unsure();
        next = this.flowSpace(this.skipFlowValue(next));
        if (text[next] === ':') next = this.flowSpace(this.skipFlowValue(this.flowSpace(next + 1)));
        if (text[next] === ',') next = this.flowSpace(next + 1);
        else if (text[next] !== closing) unsure();
      }
      return next + 1;
    }
    if (char === undefined || '&*!?|>%@`'.includes(char)) unsure();
    return this.plainEnd(at);
  }

  /**
   * Where a plain scalar in a flow collection ends: at `,`, a bracket, `: ` or a comment (it
   * may run over lines; its trailing spaces are trimmed by the caller).
   */
  private plainEnd(from: number): number {
    const { text } = this;
    for (let at = from; at < text.length; at++) {
      const char = text[at];
      if (char === ',' || char === '}' || char === ']') return at;
      if (char === ':' && (this.endsIndicator(at + 1) || /[,[\]{}]/.test(text[at + 1] ?? ''))) {
        return at;
      }
      if (char === '#' && /[ \t\r\n]/.test(text[at - 1] ?? '')) return at;
    }
    return text.length;
  }

  /** Past spaces, line breaks and comments inside a flow collection. */
  private flowSpace(from: number): number {
    const { text } = this;
    let at = from;
    for (;;) {
      const char = text[at];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') at += 1;
      else if (char === '#') at = this.lineEnd(at);
      else return at;
    }
  }

  // Scalars and lines.

  /** Where the quoted scalar that opens at `open` closes. */
  private closingQuote(open: number): number {
    const { text } = this;
    const quote = text[open];
    for (let at = open + 1; at < text.length; at++) {
      const char = text[at];
      if (quote === '"' && char === '\\') at += 1;
      else if (char === quote) {
        if (quote === "'" && text[at + 1] === "'") at += 1;
        else return at;
      }
    }
    return unsure();
  }

  /** A quoted key's text; a key that runs over lines or escapes past JSON's is left to `yaml`. */
  private quotedText(open: number, close: number): string {
    const raw = this.text.slice(open + 1, close);
    if (/[\n\r]/.test(raw)) unsure();
    if (this.text[open] === "'") return raw.replaceAll("''", "'");
    if (!raw.includes('\\')) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return unsure();
    }
  }

  /** Whether an indicator's next character ends it (a space, a line's end, the text's end). */
  private endsIndicator(at: number): boolean {
    const char = this.text[at];
    return char === undefined || char === ' ' || char === '\t' || char === '\n' || char === '\r';
  }

  private isEntryDash(at: number): boolean {
    return this.text[at] === '-' && this.endsIndicator(at + 1);
  }

  private isDocumentMarker(at: number): boolean {
    const { text } = this;
    return (
      this.columnOf(at) === 0 &&
      (text.startsWith('---', at) || text.startsWith('...', at)) &&
      this.endsIndicator(at + 3)
    );
  }

  /** The next content after `from`: past spaces, line breaks and whole-line comments. */
  private nextContent(from: number): number {
    const { text } = this;
    let at = from;
    for (;;) {
      const char = text[at];
      if (char === ' ' || char === '\n' || char === '\r') at += 1;
      else if (char === '\t') {
        // A tab where indentation would be is not YAML's; `yaml` says what it is.
        if (this.isIndentation(at)) unsure();
        at += 1;
      } else if (char === '#') at = this.lineEnd(at);
      else return at;
    }
  }

  private isIndentation(at: number): boolean {
    return /^[ \t]*$/.test(this.text.slice(this.lineStart(at), at));
  }

  private lineStart(at: number): number {
    return this.text.lastIndexOf('\n', at - 1) + 1;
  }

  private lineEnd(at: number): number {
    const end = this.text.indexOf('\n', at);
    return end < 0 ? this.text.length : end;
  }

  private columnOf(at: number): number {
    return at - this.lineStart(at);
  }
}

/**
 * Whether a plain key's text is the key YAML reads: not a number other than a plain decimal
 * integer (whose text is its JSON key), a boolean, a null or a merge key, which the core schema
 * reads as other values.
 */
function isPlainKeyAsWritten(name: string): boolean {
  if (/^(?:0|[1-9][0-9]*)$/.test(name)) return true;
  return !CORE_NON_STRING.test(name);
}

const CORE_NON_STRING =
  /^(?:|~|<<|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
