/** @module Fixture file → the columns of each declared collection, or a SourceError naming file, line and field. */
import type { ValidateFunction } from 'ajv';
import type { SourceIssue } from '../problems/source-error.ts';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import { parseBlockFixture } from '../source/block-fixture.ts';
import { createAjv } from '../source/create-ajv.ts';
import { parseJsonLineFixture } from '../source/json-line-fixture.ts';
import { readSourceText, type ReadOptions } from '../source/read-source-text.ts';
import {
  readYamlSource,
  MAX_ISSUES,
  refuseOnIssues,
  schemaIssues,
  type YamlSource,
} from '../source/read-yaml-source.ts';
import { compareKeys, type Key } from '../query/keys.ts';
import { buildCollection, fieldOf, type RecordInput } from './build-collection.ts';
import type { CollectionData } from './collection.ts';
import { deriveValue } from './derive.ts';

/**
 * The two layouts read without a YAML parser: the generator's JSON lines, and block mappings.
 * Each is there for a measured reason, written in its module; anything else goes to js-yaml. All
 * three give a plain value to the same schema check and the same `locate`, so an issue reads the
 * same whichever path read the file.
 */
function readFixtureLayout(text: string): unknown {
  return parseJsonLineFixture(text) ?? parseBlockFixture(text);
}

/**
 * The schema of a fixture file: one list of records per declared collection, each record valid
 * by its collection's record schema. The record schemas are the spec's, so ajv checks them too.
 */
function fixtureValidator(collections: readonly CollectionDeclaration[]): ValidateFunction {
  return createAjv().compile({
    type: 'object',
    required: collections.map((collection) => collection.name),
    properties: Object.fromEntries(
      collections.map((collection) => [
        collection.name,
        { type: 'array', items: collection.record },
      ]),
    ),
    additionalProperties: false,
  });
}

/** Reads and validates a fixture file. Nothing is returned unless the whole file is valid. */
export async function loadFixture(
  file: string,
  collections: readonly CollectionDeclaration[],
  options: ReadOptions = {},
): Promise<CollectionData[]> {
  return fixtureCollections(await readFixture(file, options), collections);
}

/**
 * Reads and parses a fixture file, without the declarations: a load starts here while the spec
 * that says what the records must be is still being read.
 */
export async function readFixture(file: string, options: ReadOptions = {}): Promise<YamlSource> {
  return parseFixtureText(file, await readSourceText(file, options));
}

/** Parses a fixture file's text, already read. */
export function parseFixtureText(file: string, text: string): YamlSource {
  return readYamlSource(file, text, readFixtureLayout);
}

/** Parses fixture text into each collection's columns (see fixtureCollections). */
export function parseFixture(
  file: string,
  text: string,
  collections: readonly CollectionDeclaration[],
): CollectionData[] {
  return fixtureCollections(parseFixtureText(file, text), collections);
}

/**
 * A parsed fixture's columns, by its collections' declarations. Collects every issue of the file
 * (schema and duplicate keys) before refusing it, so one run shows all that needs fixing.
 */
export function fixtureCollections(
  source: YamlSource,
  collections: readonly CollectionDeclaration[],
): CollectionData[] {
  const { file } = source;
  // A spec that declares no collections answers everything from its examples: no fixture's
  // keys can fit it, and none is needed (the start log says the fixtures were not used).
  if (collections.length === 0) return [];
  refuseOnIssues(schemaIssues(source, fixtureValidator(collections)));
  const fixture = source.value as Readonly<Record<string, readonly RecordInput[]>>;

  const issues: SourceIssue[] = [];
  for (const { name, key } of collections) {
    const records = recordsOf(fixture, name);
    // Keys in ascending order, as generated and most written files have them, are distinct.
    if (ascending(records, key)) continue;
    const firstIndexOf = new Map<unknown, number>();
    records.forEach((record, index) => {
      const first = firstIndexOf.get(fieldOf(record, key));
      if (first === undefined) {
        firstIndexOf.set(fieldOf(record, key), index);
        return;
      }
      // Only the issues reported are located (refuseOnIssues counts the rest): each locating
      // reads the file, and a large one with a duplicate on every other line took hours.
      if (issues.length >= MAX_ISSUES) {
        issues.push({ file, field: '', message: '' });
        return;
      }
      const firstLine = source.locate([name, first]).line;
      issues.push({
        file,
        at: source.locate([name, index, key]),
        field: `${name}[${String(index)}].${key}`,
        // A number is echoed; text is not, as a file's contents never are.
        message: `duplicate ${key}${typeof fieldOf(record, key) === 'number' ? ` ${String(fieldOf(record, key))}` : ''}, first used on line ${String(firstLine)}; ${key}s must be unique`,
      });
    });
  }
  refuseOnIssues(issues);
  return collections.map((collection) =>
    buildCollection(collection, file, recordsOf(fixture, collection.name)),
  );
}

/** Whether each record's key is above the one before (by compareKeys, as the columns sort). */
function ascending(records: readonly RecordInput[], key: string): boolean {
  for (let i = 1; i < records.length; i++) {
    const before = fieldOf(records[i - 1] as RecordInput, key) as Key;
    if (compareKeys(before, fieldOf(records[i] as RecordInput, key) as Key) >= 0) return false;
  }
  return true;
}

/** A collection's records in a fixture: its own member, never one Object.prototype has. */
function recordsOf(
  fixture: Readonly<Record<string, readonly RecordInput[]>>,
  name: string,
): readonly RecordInput[] {
  return (Object.hasOwn(fixture, name) ? fixture[name] : undefined) ?? [];
}

/** At most this many disagreements of one file are told, then how many more. */
const MAX_WARNINGS = 20;

/**
 * Records whose own value of a derived field disagrees with what the derivation gives (a
 * status `out_of_stock` with a quantity of 5): served as written, since an explicit value wins,
 * and told, with file and line, since it may be a slip. A value the rule never gives
 * (`incoming`) is no disagreement. For `stockmock validate`; the text is valid by then.
 */
export function derivationWarnings(
  file: string,
  text: string,
  collections: readonly CollectionDeclaration[],
): SourceIssue[] {
  const source = parseFixtureText(file, text);
  const fixture = source.value as Readonly<Record<string, readonly RecordInput[]>>;
  const warnings: SourceIssue[] = [];
  let more = 0;
  for (const { name, derived } of collections) {
    for (const [index, record] of recordsOf(fixture, name).entries()) {
      for (const derivation of derived) {
        const given = fieldOf(record, derivation.field);
        const rule = [derivation.positive, derivation.zero, derivation.unknown];
        if (typeof given !== 'string' || !rule.includes(given)) continue;
        const derivedValue = deriveValue(derivation, fieldOf(record, derivation.from));
        if (given === derivedValue) continue;
        if (warnings.length >= MAX_WARNINGS) {
          more += 1;
          continue;
        }
        warnings.push({
          file,
          at: source.locate([name, index, derivation.field]),
          field: `${name}[${String(index)}].${derivation.field}`,
          message: `is ${given}, where ${derivation.from} gives ${derivedValue}: served as written (an explicit value wins)`,
        });
      }
    }
  }
  if (more > 0) {
    warnings.push({
      file,
      field: '',
      message: `and ${String(more)} more disagreements like these`,
    });
  }
  return warnings;
}
