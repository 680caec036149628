/** @module Fixture file → Catalog, or a SourceError naming file, line and field. */
import type { SourceIssue } from '../problems/source-error.ts';
import { createAjv } from '../source/create-ajv.ts';
import { parseBlockFixture } from '../source/block-fixture.ts';
import { parseJsonLineFixture } from '../source/json-line-fixture.ts';
import { readSourceText, type ReadOptions } from '../source/read-source-text.ts';
import { readYamlSource, refuseOnIssues, schemaIssues } from '../source/read-yaml-source.ts';
import {
  catalogData,
  catalogFromData,
  type Catalog,
  type CatalogData,
  type JsonValue,
  type Product,
} from './catalog.ts';
import { deriveStatus } from './derive-status.ts';
import { FixtureSchema, type Fixture, type FixtureProduct } from './fixture-schema.ts';
import { foldName } from './fold-name.ts';

const validateFixture = createAjv({ ownSchemas: true }).compile<Fixture>(FixtureSchema);

/**
 * The two layouts read without a YAML parser: the generator's JSON lines, and block mappings.
 * Each is there for a measured reason, written in its module; anything else goes to js-yaml. All
 * three give a plain value to the same schema check and the same `locate`, so an issue reads the
 * same whichever path read the file (a test in catalog.test.ts holds them to it).
 */
function readFixtureLayout(text: string): unknown {
  return parseJsonLineFixture(text) ?? parseBlockFixture(text);
}

/** Reads and validates a fixture file. Nothing is returned unless the whole file is valid. */
export async function loadCatalog(file: string, options: ReadOptions = {}): Promise<Catalog> {
  return catalogFromData(await loadCatalogData(file, options));
}

/** A fixture file's catalogue as columns (what a loading worker hands over). */
export async function loadCatalogData(
  file: string,
  options: ReadOptions = {},
): Promise<CatalogData> {
  return parseCatalogData(file, await readSourceText(file, options));
}

/** Parses fixture text into a Catalog; see parseCatalogData. */
export function parseCatalog(file: string, text: string): Catalog {
  return catalogFromData(parseCatalogData(file, text));
}

/**
 * Parses fixture text into columns. Collects every issue of the file (schema and duplicate ids)
 * before refusing it, so one run shows all that needs fixing.
 */
export function parseCatalogData(file: string, text: string): CatalogData {
  const source = readYamlSource(file, text, readFixtureLayout);
  refuseOnIssues(schemaIssues(source, validateFixture));
  const fixture = source.value as Fixture;

  const issues: SourceIssue[] = [];
  const firstIndexOf = new Map<number, number>();
  fixture.products.forEach((entry, index) => {
    const first = firstIndexOf.get(entry.id);
    if (first === undefined) {
      firstIndexOf.set(entry.id, index);
      return;
    }
    const firstLine = source.locate(['products', first]).line;
    issues.push({
      file,
      at: source.locate(['products', index, 'id']),
      field: `products[${index}].id`,
      message: `duplicate id ${entry.id}, first used on line ${firstLine}; ids must be unique`,
    });
  });
  refuseOnIssues(issues);

  const names = createNameTable();
  return catalogData(
    file,
    fixture.products.map((entry) => toProduct(entry, names)),
    true,
  );
}

/** One shared text for the products that have no extra fields. */
const NO_EXTRA_FIELDS = '{}';

/** The fields that are not extra: everything else in a fixture entry is kept as is. */
const KNOWN_FIELDS = new Set(['id', 'name', 'quantity', 'status']);

/**
 * Names seen during one load, each with its folded form. Catalogues repeat names, so a million
 * products share a few thousand strings instead of holding two million, and each distinct name
 * is folded once.
 */
export type NameTable = Map<string, readonly [name: string, folded: string]>;

export function createNameTable(): NameTable {
  return new Map();
}

/**
 * A fixture entry as a Product. Products are not frozen one by one (a million `Object.freeze`
 * calls cost a second at load); the catalogue's arrays are, and every type is readonly. With
 * `elsewhere`, the caller keeps the extra fields itself (see createCatalog's `extraJsonOf`).
 */
export function toProduct(
  entry: FixtureProduct,
  names: NameTable = createNameTable(),
  extraFields: 'keep' | 'elsewhere' = 'keep',
): Product {
  const quantity = entry.quantity ?? null;
  let extra: Record<string, JsonValue> | undefined;
  if (extraFields === 'keep')
    for (const key in entry) {
      if (KNOWN_FIELDS.has(key)) continue;
      extra ??= {};
      extra[key] = (entry as Record<string, JsonValue>)[key] as JsonValue;
    }
  let interned = names.get(entry.name);
  if (interned === undefined) {
    interned = [entry.name, foldName(entry.name)];
    names.set(entry.name, interned);
  }
  return {
    id: entry.id,
    name: interned[0],
    quantity,
    status: deriveStatus(quantity, entry.status),
    extraJson: extra === undefined ? NO_EXTRA_FIELDS : JSON.stringify(extra),
    foldedName: interned[1],
  };
}
