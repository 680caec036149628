/** @module Parse a YAML file and validate it with a JSON Schema, keeping lines for every field. */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { SourceError, type Position, type SourceIssue } from '../problems/source-error.ts';
import {
  describeAjvError,
  fieldPathOf,
  formatField,
  parseInstancePath,
} from './describe-ajv-error.ts';

/** A parsed YAML file that can say where each of its fields stands. */
export interface YamlSource {
  readonly file: string;
  readonly value: unknown;
  /** Position of the node at a JSON path (`['products', 3, 'quantity']`); nearest parent if absent. */
  locate(path: readonly (string | number)[]): Position;
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
  if (value === undefined) {
    try {
      value = load(text, { schema: CORE_SCHEMA, filename: file });
    } catch (error) {
      // Where the parsers disagree (js-yaml refuses an empty document, for one), `yaml` decides.
      value = valueOrSyntaxIssues(file, text, error);
    }
  }
  let located: { doc: Document.Parsed; lineCounter: LineCounter } | undefined;
  const positioned = () => {
    if (located === undefined) {
      const lineCounter = new LineCounter();
      located = { doc: parseDocument(text, { lineCounter, uniqueKeys: true }), lineCounter };
    }
    return located;
  };
  return {
    file,
    value,
    locate(path) {
      const { doc, lineCounter } = positioned();
      const positionOf = (offset: number): Position => {
        const pos = lineCounter.linePos(offset);
        return { line: pos.line, column: pos.col };
      };
      let node: unknown = doc.contents;
      let found: Node | null = isNodeLike(node) ? node : null;
      for (const key of path) {
        if (isMap(node)) {
          const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
          if (pair === undefined) break;
          // Point at the key when the value is empty (`quantity:` alone).
          node = pair.value ?? pair.key;
        } else if (isSeq(node) && typeof key === 'number') {
          node = node.items[key];
        } else break;
        if (isNodeLike(node)) found = node;
      }
      return positionOf(found?.range?.[0] ?? 0);
    },
  };
}

/** Validates a parsed source with a compiled schema; every violation names file, line and field. */
export function schemaIssues(source: YamlSource, validate: ValidateFunction): SourceIssue[] {
  if (validate(source.value)) return [];
  return (validate.errors ?? []).map((error) => issueFromAjv(source, error));
}

/** Throws a SourceError when there is any issue; returns otherwise. */
export function refuseOnIssues(issues: readonly SourceIssue[]): void {
  if (issues.length > 0) throw new SourceError(issues);
}

function issueFromAjv(source: YamlSource, error: ErrorObject): SourceIssue {
  const at = source.locate(parseInstancePath(error.instancePath));
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
        const pos = lineCounter.linePos(problem.pos[0]);
        const at = { line: pos.line, column: pos.col };
        return { file, at, field: '', message: firstLine(problem.message) };
      }),
    );
  }
  if (doc.contents === null) return null;
  if (error instanceof YAMLException && error.mark !== undefined) {
    const at = { line: error.mark.line + 1, column: error.mark.column + 1 };
    throw new SourceError([{ file, at, field: '', message: error.reason }]);
  }
  return doc.toJS({ maxAliasCount: 100 }) as unknown;
}

function isNodeLike(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'range' in value;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
