/** @module Fixture file → Catalog, or a SourceError naming file, line and field. */
import { readFile } from 'node:fs/promises';
import type { SourceIssue } from '../problems/source-error.ts';
import { createAjv } from '../source/create-ajv.ts';
import { readYamlSource, refuseOnIssues, schemaIssues } from '../source/read-yaml-source.ts';
import { createCatalog, type Catalog, type JsonValue, type Product } from './catalog.ts';
import { deriveStatus } from './derive-status.ts';
import { FixtureSchema, type Fixture, type FixtureProduct } from './fixture-schema.ts';
import { foldName } from './fold-name.ts';

const validateFixture = createAjv().compile<Fixture>(FixtureSchema);

/** Reads and validates a fixture file. Nothing is returned unless the whole file is valid. */
export async function loadCatalog(file: string): Promise<Catalog> {
  return parseCatalog(file, await readFile(file, 'utf8'));
}

/**
 * Parses fixture text. Collects every issue of the file (schema and duplicate ids) before
 * refusing it, so one run shows all that needs fixing.
 */
export function parseCatalog(file: string, text: string): Catalog {
  const source = readYamlSource(file, text);
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

  return createCatalog(file, fixture.products.map(toProduct));
}

/** The fields that are not extra: everything else in a fixture entry is kept as is. */
const KNOWN_FIELDS = new Set(['id', 'name', 'quantity', 'status']);

export function toProduct(entry: FixtureProduct): Product {
  const quantity = entry.quantity ?? null;
  const extra: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!KNOWN_FIELDS.has(key)) extra[key] = value;
  }
  return Object.freeze({
    id: entry.id,
    name: entry.name,
    quantity,
    status: deriveStatus(quantity, entry.status),
    extra: Object.freeze(extra),
    foldedName: foldName(entry.name),
  });
}
