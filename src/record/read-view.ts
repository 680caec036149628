/**
 * @module A view read backwards: the record fields an item shows, under the names the stand-in
 * gives them, whatever names and id types the service chose among those the settings allow.
 */
import { STOCK_FIELD_NAMES } from '../compatibility/compatibility.ts';
import type { CollectionDeclaration, ViewDeclaration } from '../resources/declarations.ts';

/** The record fields an item shows, in the order shown. */
export type Fields = ReadonlyMap<string, unknown>;

/**
 * The fields of one item as a view shows them. The `stockField` field is read under the name the
 * view gives it or any name the setting allows; the `productIdType` field and the key, as an
 * integer where the service wrote one as a string of digits, as the setting lets it.
 */
export function readView(
  item: Readonly<Record<string, unknown>>,
  view: ViewDeclaration,
  collection: CollectionDeclaration,
): Fields {
  const fields = new Map<string, unknown>();
  const read = new Set<string>();
  for (const [output, field] of view.fields) {
    const names =
      field === collection.settings.stockField ? [output, ...STOCK_FIELD_NAMES] : [output];
    const member = names.find((name) => Object.hasOwn(item, name));
    for (const name of names) read.add(name);
    if (member !== undefined) fields.set(field, typed(collection, field, item[member]));
  }
  if (view.rest) {
    for (const [member, value] of Object.entries(item)) {
      if (!read.has(member) && !fields.has(member)) {
        fields.set(member, typed(collection, member, value));
      }
    }
  }
  return fields;
}

/** A value as the record holds it: an integer field's string of digits is the integer. */
function typed(collection: CollectionDeclaration, field: string, value: unknown): unknown {
  if (typeof value !== 'string' || collection.fields.get(field) !== 'integer') return value;
  if (field !== collection.key && field !== collection.settings.productIdType) return value;
  if (!/^-?(?:0|[1-9]\d*)$/.test(value)) return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}
