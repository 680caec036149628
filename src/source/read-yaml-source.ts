/** @module Parse a YAML file and validate it with a JSON Schema, keeping lines for every field. */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
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

/** Parses YAML text; a syntax error becomes a SourceError with its line. */
export function readYamlSource(file: string, text: string): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new SourceError(
      doc.errors.map((error) => {
        const pos = lineCounter.linePos(error.pos[0]);
        const at = { line: pos.line, column: pos.col };
        return { file, at, field: '', message: firstLine(error.message) };
      }),
    );
  }
  const positionOf = (offset: number): Position => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  return {
    file,
    value: doc.toJS({ maxAliasCount: 100 }) as unknown,
    locate(path) {
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

function isNodeLike(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'range' in value;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
