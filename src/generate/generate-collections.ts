/**
 * @module Data for the collections a spec declares: the catalogue generator for a collection
 * shaped as the interface's products (tuned for a million of them, with their stock mix), the
 * schema-driven one for any other. One choice, for `fixtures generate`, a scenario's
 * `generate:` and what a test generates.
 */
import type { CollectionDeclaration } from '../resources/declarations.ts';
import { createAjv } from '../source/create-ajv.ts';
import { describeAjvError } from '../source/describe-ajv-error.ts';
import { generateProducts } from './generate-products.ts';
import { recordSources, type GeneratedRecord, type GenerationIssue } from './generate-records.ts';

export type { GeneratedRecord, GenerationIssue } from './generate-records.ts';

/**
 * Shaped as the interface's products: an integer `id`, a `name` label, and a status derived
 * from a quantity, the fields the catalogue generator makes.
 */
export function isCatalogue(collection: CollectionDeclaration): boolean {
  return (
    collection.key === 'id' &&
    collection.keyType === 'integer' &&
    collection.label === 'name' &&
    collection.derived.some((derivation) => derivation.from === 'quantity')
  );
}

/**
 * Each named collection's records, `count` of each (or as many as `count` says for its name),
 * each held to its schema as it is made; or the fields that cannot be generated.
 */
export function generateCollections(
  collections: readonly CollectionDeclaration[],
  count: number | ReadonlyMap<string, number>,
  seed: number,
):
  | { readonly records: (name: string) => Iterable<GeneratedRecord> }
  | { readonly issues: readonly GenerationIssue[] } {
  const countOf = (name: string) => (typeof count === 'number' ? count : (count.get(name) ?? 0));
  const sources = recordSources(
    collections.map((declaration) => ({ declaration, count: countOf(declaration.name) })),
    seed,
  );
  if ('issues' in sources) return sources;
  const ajv = createAjv();
  const validators = new Map(
    collections.map((collection) => [collection.name, ajv.compile(collection.record)]),
  );
  return {
    *records(name) {
      const collection = collections.find((candidate) => candidate.name === name);
      if (collection !== undefined && isCatalogue(collection)) {
        yield* generateProducts({ count: countOf(name), seed }) as Iterable<GeneratedRecord>;
        return;
      }
      const validate = validators.get(name);
      let index = 0;
      for (const record of sources.records(name)) {
        // Held to the schema: a record it refuses is the generator's fault, and names the field.
        // Every record's values come from the same makers, so a fault shows in the first ones:
        // the first thousand are checked, then one in a hundred (checking all took a third of
        // the time at a million).
        const checked = index < 1000 || index % 100 === 0;
        // A refusal is confirmed by a second look: a pattern RE2 cannot run is matched within a
        // time bound (src/source/linear-pattern.ts), and a busy machine can run a good value
        // out of it once.
        if (checked && validate !== undefined && !validate(record) && !validate(record)) {
          const [error] = validate.errors ?? [];
          const at = error?.instancePath.replaceAll('/', '.') ?? '';
          throw new Error(
            `generate made ${name}[${String(index)}]${at}, which ${error === undefined ? 'is invalid' : describeAjvError(error)}: give the field \`examples\``,
          );
        }
        index += 1;
        yield record;
      }
    },
  };
}
