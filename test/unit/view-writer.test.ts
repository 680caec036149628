/**
 * The record writer against the obvious definition of a view, for declarations, views, settings
 * and records of any shape: named members in order, then (with `rest`) the declared fields
 * neither shown nor omitted, then the record's undeclared fields. The shipped views are held to
 * it in access.test.ts; these are the shapes a spec may declare beyond them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCollection } from '../../src/dataset/build-collection.ts';
import { collectionFromData } from '../../src/dataset/collection.ts';
import { viewWriter, type ViewSettings } from '../../src/dataset/view-writer.ts';
import type { CollectionDeclaration, ViewDeclaration } from '../../src/resources/declarations.ts';
import { itemsDeclaration } from '../helpers/datasets.ts';

const KEY = 'id';
/** Fields a declaration may have beside its key: `qty` is the stockField one. */
const OPTIONAL_FIELDS = ['name', 'qty', 'ref', 'note'] as const;
const ALL_FIELDS: readonly string[] = [KEY, ...OPTIONAL_FIELDS];

interface Case {
  /** The declared fields beside the key, in declaration order. */
  readonly declared: readonly string[];
  /** The field the productIdType setting acts on. */
  readonly idField: 'id' | 'ref';
  readonly view: ViewDeclaration;
  readonly settings: ViewSettings;
  readonly records: readonly Record<string, unknown>[];
}

const number = fc.option(fc.integer({ min: -5, max: 2 ** 40 }), { nil: null });
const any = fc.jsonValue({ maxDepth: 2 });
const valueOf: Record<string, fc.Arbitrary<unknown>> = {
  name: any,
  qty: number,
  // Numbers, but a spec may name a text field too: text is never quoted again.
  ref: fc.oneof(number, fc.string({ unit: fc.constantFrom('1', '-', 'a', '"'), maxLength: 3 })),
  note: any,
};
const undeclaredKey = fc
  .string({ maxLength: 3 })
  .filter((key) => !ALL_FIELDS.includes(key) && key !== '__proto__');

/** Records with unique ids; each field may be absent; undeclared fields after. */
const records = fc.uniqueArray(
  fc
    .tuple(
      fc.integer({ min: 1, max: 60 }),
      fc.record(valueOf, { requiredKeys: [] }),
      fc.dictionary(undeclaredKey, any, { maxKeys: 3 }),
    )
    .map(([id, fields, undeclared]) => ({ id, ...fields, ...undeclared })),
  { selector: (record) => record.id, maxLength: 12 },
);

const idTypes = fc.oneof(
  fc.constantFrom('integer' as const, 'string' as const),
  fc.dictionary(
    fc.constantFrom('id', 'id_shown', 'ref', 'ref_shown', 'other'),
    fc.constantFrom('integer' as const, 'string' as const),
  ),
);

const cases: fc.Arbitrary<Case> = fc
  .tuple(fc.shuffledSubarray([...OPTIONAL_FIELDS]), fc.constantFrom('id' as const, 'ref' as const))
  .chain(([declared, idField]) => {
    const fields = [KEY, ...declared];
    const view = fc.record({
      fields: fc
        .shuffledSubarray(fields)
        .chain((shown) =>
          fc.tuple(
            ...shown.map((field) =>
              fc.constantFrom(field, `${field}_shown`).map((output) => [output, field] as const),
            ),
          ),
        ),
      rest: fc.boolean(),
      omit: fc.subarray(fields),
    });
    const settings = fc.record({
      stockField: fc.constantFrom('qty', 'stock'),
      productIdType: idTypes,
    });
    return fc.record({
      declared: fc.constant(declared),
      idField: fc.constant(idField),
      view,
      settings,
      records,
    });
  });

function declarationOf({ declared, idField }: Case): CollectionDeclaration {
  return itemsDeclaration(Object.fromEntries(declared.map((field) => [field, 'other'])), {
    ...(declared.includes('qty') ? { stockField: 'qty' } : {}),
    ...(idField === 'id' || declared.includes('ref') ? { productIdType: idField } : {}),
  });
}

/** The view of a record, built as an object and written by JSON.stringify member by member. */
function expectedText(c: Case, record: Record<string, unknown>): string {
  const { settings } = declarationOf(c);
  const { productIdType } = c.settings;
  const textual = (member: string) =>
    typeof productIdType === 'string'
      ? productIdType === 'string'
      : Object.hasOwn(productIdType, member) && productIdType[member] === 'string';
  const shown = (field: string, member: string, value: unknown) =>
    field === settings.productIdType && typeof value === 'number' && textual(member)
      ? String(value)
      : value;
  const members: [string, unknown][] = c.view.fields.map(([output, field]) => [
    field === settings.stockField ? c.settings.stockField : output,
    shown(field, output, record[field] ?? null),
  ]);
  if (c.view.rest) {
    const named = new Set([...c.view.fields.map(([, field]) => field), ...c.view.omit]);
    const declared = [KEY, ...c.declared];
    for (const field of declared) {
      if (named.has(field) || record[field] === undefined) continue;
      members.push([field, shown(field, field, record[field])]);
    }
    for (const [field, value] of Object.entries(record)) {
      if (!declared.includes(field)) members.push([field, value]);
    }
  }
  return `{${members.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`;
}

describe('viewWriter', () => {
  it('writes every record of every declared view as the view built the obvious way', () => {
    fc.assert(
      fc.property(cases, (c) => {
        const declaration = declarationOf(c);
        const write = viewWriter(declaration, c.view, c.settings);
        const collection = collectionFromData(buildCollection(declaration, 'v.yaml', c.records));
        const sorted = [...c.records].sort((a, b) => (a['id'] as number) - (b['id'] as number));
        sorted.forEach((record, position) => {
          expect(write(collection, position)).toBe(expectedText(c, record));
        });
      }),
      { numRuns: 400 },
    );
  });

  it('writes from the collection it is given, when a reload brings another', () => {
    const c: Case = {
      declared: ['name'],
      idField: 'id',
      view: { fields: [['id', 'id']], rest: true, omit: [] },
      settings: { stockField: 'qty', productIdType: 'integer' },
      records: [],
    };
    const declaration = declarationOf(c);
    const write = viewWriter(declaration, c.view, c.settings);
    const first = collectionFromData(buildCollection(declaration, 'a', [{ id: 1, name: 'A' }]));
    const second = collectionFromData(
      buildCollection(declaration, 'b', [{ id: 2, name: 'B', extra: true }]),
    );
    expect(write(first, 0)).toBe('{"id":1,"name":"A"}');
    expect(write(second, 0)).toBe('{"id":2,"name":"B","extra":true}');
    expect(write(first, 0)).toBe('{"id":1,"name":"A"}');
  });

  it('leaves a null id null where ids are shown as text', () => {
    const c: Case = {
      declared: ['ref'],
      idField: 'ref',
      view: { fields: [['ref', 'ref']], rest: false, omit: [] },
      settings: { stockField: 'qty', productIdType: 'string' },
      records: [],
    };
    const declaration = declarationOf(c);
    const write = viewWriter(declaration, c.view, c.settings);
    const collection = collectionFromData(
      buildCollection(declaration, 'a', [{ id: 1, ref: null }, { id: 2, ref: -3 }, { id: 3 }]),
    );
    expect([0, 1, 2].map((position) => write(collection, position))).toStrictEqual([
      '{"ref":null}',
      '{"ref":"-3"}',
      '{"ref":null}',
    ]);
  });
});
