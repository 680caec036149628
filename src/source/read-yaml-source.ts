/** @module Parse a YAML file and validate it with a JSON Schema, keeping lines for every field. */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type Node,
  type YAMLError,
} from 'yaml';
import { SourceError, type Position, type SourceIssue } from '../problems/source-error.ts';
import { fragmentAround, locateByLines, type LineLocate } from './locate-by-lines.ts';
import { scanLocation } from './scan-location.ts';
import {
  ALIAS_ALLOWANCE,
  ALIAS_GROWTH,
  judgeValue,
  MAX_DEPTH,
  type ValueVerdict,
} from './value-limits.ts';
import {
  describeAjvError,
  fieldPathOf,
  formatField,
  locationPathOf,
  parseInstancePath,
} from './describe-ajv-error.ts';

/** A parsed YAML file that can say where each of its fields stands. */
export interface YamlSource {
  readonly file: string;
  readonly value: unknown;
  /**
   * Position of the node at a JSON path (`['products', 3, 'quantity']`); nearest parent if
   * absent. `key` points at the last member's key rather than its value: where an unknown key
   * is written, whatever its value.
   */
  locate(path: readonly (string | number)[], part?: 'value' | 'key'): Position;
}

/**
 * Parses YAML text; a syntax error becomes a SourceError with its line.
 *
 * Two parsers, each for what it does best: js-yaml (YAML 1.2 core schema) reads the value, about
 * twenty times faster than `yaml` on a 100 000-product file; `yaml`, with its LineCounter, is
 * only run when something must be located, that is when the file has an issue to report.
 */
export function readYamlSource(
  file: string,
  text: string,
  /** A faster parser for a layout the caller knows; it returns undefined for any other text. */
  fastPath?: (text: string) => unknown,
): YamlSource {
  let value: unknown = fastPath?.(text);
  // The fast layouts have no anchors (their readers give up on one): only js-yaml's value can
  // share objects through aliases.
  const mayAlias = value === undefined && text.includes('&');
  if (value === undefined) {
    try {
      value = load(text, { schema: CORE_SCHEMA, filename: file });
    } catch (error) {
      // Too deep for a parser (js-yaml's own limit, or the stack): the one depth rule's answer.
      if (error instanceof RangeError || /maxDepth/.test(String(error))) {
        throw new SourceError([tooDeepIssue(file, text)]);
      }
      const mark = error instanceof YAMLException ? error.mark : undefined;
      if (text.length > LOCATE_BY_LINES_FROM && mark !== undefined) {
        throw new SourceError([
          largeFileSyntaxIssue(file, text, mark, (error as YAMLException).reason),
        ]);
      }
      // Where the parsers disagree (js-yaml refuses an empty document, for one), `yaml` decides.
      value = valueOrSyntaxIssues(file, text, error);
    }
  }
  if (text.includes(PROTO)) refuseProtoKeys(file, text);
  // Built on the first issue to place: a valid file never needs it.
  let byLines: LineLocate | undefined;
  const quickLocate = (path: readonly (string | number)[], part: 'value' | 'key') => {
    if (text.length <= LOCATE_BY_LINES_FROM) return undefined;
    byLines ??= locateByLines(text);
    return byLines(path, part);
  };
  const limits = judgeValue(value, { aliases: mayAlias });
  let located: { doc: Document.Parsed; lineCounter: LineCounter } | undefined;
  let scans = 0;
  const positioned = () => {
    if (located === undefined) {
      const lineCounter = new LineCounter();
      located = { doc: parseDocument(text, { lineCounter, uniqueKeys: true }), lineCounter };
    }
    return located;
  };
  const source: YamlSource = {
    file,
    value,
    locate(path, part = 'value') {
      const quick = quickLocate(path, part);
      if (quick !== undefined) return quick;
      // Each scan reads the text up to its member: a few issues are placed at once, and a file
      // with many (a spec of thousands of faults) pays for the tree once instead, where the
      // tree is affordable.
      scans += 1;
      const scanned =
        located === undefined && (scans <= SCANS_BEFORE_TREE || text.length > LOCATE_BY_LINES_FROM)
          ? scanLocation(text, path, part)
          : undefined;
      if (scanned !== undefined) return positionAt(text, scanned);
      const { doc, lineCounter } = positioned();
      const positionOf = (offset: number): Position => {
        const pos = lineCounter.linePos(offset);
        return { line: pos.line, column: pos.col };
      };
      let node: unknown = doc.contents;
      let found: Node | null = isNodeLike(node) ? node : null;
      for (const [index, key] of path.entries()) {
        if (isMap(node)) {
          const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
          if (pair === undefined) break;
          const last = index === path.length - 1;
          // Point at the key when the value is empty (`quantity:` alone).
          node = last && part === 'key' ? pair.key : (pair.value ?? pair.key);
        } else if (isSeq(node) && typeof key === 'number') {
          node = node.items[key];
        } else break;
        if (isNodeLike(node)) found = node;
      }
      return positionOf(found?.range?.[0] ?? 0);
    },
  };
  if (limits.kind !== 'fine') {
    throw new SourceError([
      {
        file,
        at: source.locate(limits.path),
        field: formatField(limits.path),
        message: beyondLimits(limits),
      },
    ]);
  }
  return source;
}

const PROTO = '__proto__';

/**
 * A key `__proto__` anywhere: js-yaml sets the object's prototype with it (the field vanishes),
 * JSON.parse keeps it as a field; neither is data a record can hold, so every reader refuses it
 * alike, at its line. Read by `yaml`, which keeps every key as written, only when the text holds
 * the word at all.
 */
function refuseProtoKeys(file: string, text: string): void {
  // A large file is searched by its lines, as large files are located (locate-by-lines.ts):
  // `yaml`'s tree of 200 MB would take gigabytes. A quoted value that reads `"__proto__": …` is
  // refused too there; better a false refusal than a vanished field.
  if (text.length > LOCATE_BY_LINES_FROM) {
    refuseOnIssues(protoKeysByLines(file, text));
    return;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const issues: SourceIssue[] = [];
  visit(doc, {
    Pair: (_key, pair) => {
      if (!isScalar(pair.key) || pair.key.value !== PROTO) return;
      const pos = lineCounter.linePos(pair.key.range?.[0] ?? 0);
      issues.push({
        file,
        at: { line: pos.line, column: pos.col },
        field: '',
        message: `a field named ${PROTO} is refused: JavaScript objects cannot hold it as data`,
      });
    },
  });
  refuseOnIssues(issues);
}

/** A key `__proto__` in a line: at its start (block), or after `{`, `,` (flow), quoted or not. */
const PROTO_KEY = /(?:^[\t ]*(?:- )*|[{,][\t ]*)(["']?)__proto__\1[\t ]*:/gm;

function protoKeysByLines(file: string, text: string): SourceIssue[] {
  return [...text.matchAll(PROTO_KEY)].map((match) => {
    const offset = match.index + match[0].indexOf('_') - (match[1] ?? '').length;
    return {
      file,
      at: positionAt(text, offset),
      field: '',
      message: `a field named ${PROTO} is refused: JavaScript objects cannot hold it as data`,
    };
  });
}

/** Where a text's flow collections (`[`, `{`) first nest past `MAX_DEPTH`, quotes skipped. */
function tooDeepIssue(file: string, text: string): SourceIssue {
  let depth = 0;
  let quote: string | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text[at] as string;
    if (quote !== undefined) {
      if (char === '\\' && quote === '"') at += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '[' || char === '{') {
      depth += 1;
      if (depth > MAX_DEPTH) {
        const line = countLines(text, at);
        return {
          file,
          at: { line, column: at - text.lastIndexOf('\n', at - 1) },
          field: '',
          message: beyondLimits({ kind: 'deep', path: [] }),
        };
      }
    } else if (char === ']' || char === '}') depth -= 1;
  }
  return { file, field: '', message: beyondLimits({ kind: 'deep', path: [] }) };
}

function beyondLimits(verdict: Exclude<ValueVerdict, { kind: 'fine' }>): string {
  switch (verdict.kind) {
    case 'deep':
      return `nests deeper than the ${String(MAX_DEPTH)} levels stockmock reads`;
    case 'cycle':
      return 'is an alias inside the very node it names: the data would never end';
    case 'expands':
      return `aliases expand the data past ${String(ALIAS_GROWTH)} times the ${String(verdict.written)} values written (plus ${String(ALIAS_ALLOWANCE)}): refused as an alias bomb`;
  }
}

/**
 * At most this many issues of one file are reported, then how many more there are: a file
 * whose every product is wrong (a generator's mistake) had 100 000 issues to move to the
 * serving thread, log as one message and send in one 422 answer, where the first ones say
 * what is wrong.
 */
export const MAX_ISSUES = 100;

/** Validates a parsed source with a compiled schema; every violation names file, line and field. */
export function schemaIssues(source: YamlSource, validate: ValidateFunction): SourceIssue[] {
  if (validate(source.value)) return [];
  // Only the issues that will be reported (see refuseOnIssues) are located; the rest are counted.
  return (validate.errors ?? []).map((error, index) =>
    index < MAX_ISSUES
      ? issueFromAjv(source, error)
      : { file: source.file, field: '', message: '' },
  );
}

/** Throws a SourceError when there is any issue; returns otherwise. */
export function refuseOnIssues(issues: readonly SourceIssue[]): void {
  const [first] = issues;
  if (first === undefined) return;
  if (issues.length <= MAX_ISSUES) throw new SourceError(issues);
  const more = `and ${String(issues.length - MAX_ISSUES)} more issues like these`;
  throw new SourceError([
    ...issues.slice(0, MAX_ISSUES),
    { file: first.file, field: '', message: more },
  ]);
}

function issueFromAjv(source: YamlSource, error: ErrorObject): SourceIssue {
  // ajv reports an unknown member on its object; the reader wants the line the member is on.
  const at =
    error.keyword === 'additionalProperties'
      ? source.locate(locationPathOf(error), 'key')
      : source.locate(parseInstancePath(error.instancePath));
  return {
    file: source.file,
    at,
    field: formatField(fieldPathOf(error)),
    message: describeAjvError(error),
  };
}

/** Throws every syntax error `yaml` finds, with lines; returns `yaml`'s value if it finds none. */
function valueOrSyntaxIssues(file: string, text: string, error: unknown): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new SourceError(
      doc.errors.map((problem) => {
        const pos = lineCounter.linePos(faultStart(doc, problem));
        const at = { line: pos.line, column: pos.col };
        return { file, at, field: '', message: `${SYNTAX} ${firstLine(problem.message)}` };
      }),
    );
  }
  if (doc.contents === null) return null;
  if (error instanceof YAMLException && error.mark !== undefined) {
    const at = { line: error.mark.line + 1, column: error.mark.column + 1 };
    throw new SourceError([{ file, at, field: '', message: `${SYNTAX} ${error.reason}` }]);
  }
  return doc.toJS({ maxAliasCount: 100 }) as unknown;
}

/**
 * Files longer than this are located by their lines (locate-by-lines.ts), and a syntax fault in
 * them is read again in the fragment around it: `yaml`'s tree of a whole large file costs ten
 * times the load. Smaller files keep `yaml`'s exact answers at no cost that matters.
 */
const LOCATE_BY_LINES_FROM = 256 * 1024;

/** Issues of one file placed by scanning before `yaml`'s tree is built for the rest. */
const SCANS_BEFORE_TREE = 32;

/**
 * A syntax fault of a large file: js-yaml's mark says where the parse failed; `yaml` reads the
 * lines around it again, to say what and where the fault starts (an unclosed quote opens above
 * the mark). Where it finds nothing there, js-yaml's own reason stands.
 */
function largeFileSyntaxIssue(
  file: string,
  text: string,
  mark: NonNullable<YAMLException['mark']>,
  reason: string,
): SourceIssue {
  const around = fragmentAround(text, mark.position);
  if (around !== undefined) {
    const fragment = text.slice(around.start, around.end);
    const doc = parseDocument(fragment, { prettyErrors: false, uniqueKeys: true });
    const [problem] = doc.errors;
    if (problem !== undefined) {
      const offset = around.start + faultStart(doc, problem);
      const line = countLines(text, offset);
      const column = offset - text.lastIndexOf('\n', offset - 1);
      return {
        file,
        at: { line, column },
        field: '',
        message: `${SYNTAX} ${firstLine(problem.message)}`,
      };
    }
  }
  const at = { line: mark.line + 1, column: mark.column + 1 };
  return { file, at, field: '', message: `${SYNTAX} ${reason}` };
}

function positionAt(text: string, offset: number): Position {
  return { line: countLines(text, offset), column: offset - text.lastIndexOf('\n', offset - 1) };
}

function countLines(text: string, offset: number): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) {
    lines += 1;
  }
  return lines;
}

/** How every syntax issue begins, so that it reads apart from a schema issue. */
const SYNTAX = 'YAML syntax error:';

/**
 * Where a syntax fault starts. `yaml` reports a quote or a flow collection that is never closed
 * where the text runs out of it, often many lines below; the writer's mistake is where it opens.
 */
function faultStart(doc: Document.Parsed, problem: YAMLError): number {
  const [pos] = problem.pos;
  const unclosed = /closing "?'?quote|end with a [}\]]/i.exec(problem.message);
  if (unclosed === null) return pos;
  let start = pos;
  const narrower = (node: Node) => {
    const [from, , to] = node.range ?? [pos, pos, pos];
    if (from < pos && pos <= to && (start === pos || from > start)) start = from;
  };
  visit(doc, {
    Scalar: (_key, node) => {
      if (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') narrower(node);
    },
    Map: (_key, node) => {
      if (node.flow === true) narrower(node);
    },
    Seq: (_key, node) => {
      if (node.flow === true) narrower(node);
    },
  });
  return start;
}

function isNodeLike(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'range' in value;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
