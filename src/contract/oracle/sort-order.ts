/**
 * @module The order a declared sort (`x-stockmock.sort`) gives, computed by the checker itself
 * from the record schema's types: numbers by value, dates and date-times as instants, booleans
 * false first, ties by key. Text has an order only in the stand-in's reading (code points): the
 * interface fixes no collation, so a service may sort text by its own.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { DeclaredList } from '../declared.ts';
import { compareIds, type Id, type Item } from '../walk.ts';
import { instantsOf } from './instants.ts';

/** Whose order: the interface's (text and missing values left open) or the stand-in's. */
export type OrderReading = 'interface' | 'stand-in';

/** How two present values of a field compare; undefined where the reading fixes no order. */
type Compare = (a: unknown, b: unknown) => number | undefined;

function typeOf(schema: OpenAPIV3_1.SchemaObject | undefined): string | undefined {
  return Array.isArray(schema?.type) ? schema.type.find((one) => one !== 'null') : schema?.type;
}

/** Whether a field is text the interface fixes no order of (not a date or a date-time). */
export function isText(schema: OpenAPIV3_1.SchemaObject | undefined): boolean {
  return typeOf(schema) === 'string' && schema?.format !== 'date' && schema?.format !== 'date-time';
}

function compareOf(schema: OpenAPIV3_1.SchemaObject | undefined, reading: OrderReading): Compare {
  const type = typeOf(schema);
  if (type === 'integer' || type === 'number') {
    return (a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : undefined);
  }
  if (type === 'boolean') {
    return (a, b) =>
      typeof a === 'boolean' && typeof b === 'boolean' ? Number(a) - Number(b) : undefined;
  }
  if (!isText(schema)) {
    return (a, b) => {
      const [x, y] = [instantOf(a), instantOf(b)];
      return x === undefined || y === undefined ? undefined : x - y;
    };
  }
  return (a, b) =>
    reading === 'stand-in' && typeof a === 'string' && typeof b === 'string'
      ? compareIds(a, b)
      : undefined;
}

function instantOf(value: unknown): number | undefined {
  const instants = typeof value === 'string' ? instantsOf(value) : undefined;
  return instants === undefined
    ? undefined
    : instants.kind === 'date'
      ? instants.from
      : instants.at;
}

const missing = (value: unknown): boolean => value === undefined || value === null;

/** What the order needs of a list: its items, a field's value in one, and an item's key. */
export interface Ordered {
  readonly list: DeclaredList;
  readonly items: readonly Item[];
  /** Whether a field's value can be read from the items (a level shown it). */
  shows(field: string): boolean;
  valueOf(item: Item, field: string): unknown;
  keyOf(item: Item): Id | undefined;
}

/**
 * The places of `places` in the order a sort value (`status,-amount`) gives, ties by key; or
 * undefined where correct services may order them differently: a key on text (the interface's
 * reading), a field no level is shown, a record without a value for a key (the stand-in puts it
 * last in either direction; a database may put it first), a value not of the field's type.
 */
export function sortedPlaces(
  ordered: Ordered,
  places: readonly number[],
  value: string,
  reading: OrderReading,
): number[] | undefined {
  const keys = value.split(',').map((part) => {
    const field = part.replace(/^-/, '');
    const compare = compareOf(ordered.list.record.schemas.get(field), reading);
    return { field, descending: part.startsWith('-'), compare };
  });
  if (keys.some(({ field }) => !ordered.shows(field))) return undefined;
  // Set where two items' order is not fixed by the reading.
  const state = { open: false };
  const compareItems = (a: Item, b: Item): number => {
    for (const key of keys) {
      const [x, y] = [ordered.valueOf(a, key.field), ordered.valueOf(b, key.field)];
      if (missing(x) || missing(y)) {
        if (missing(x) && missing(y)) continue;
        state.open ||= reading === 'interface';
        return missing(x) ? 1 : -1;
      }
      const order = key.compare(x, y);
      if (order === undefined) state.open = true;
      else if (order !== 0) return key.descending ? -order : order;
    }
    const [x, y] = [ordered.keyOf(a), ordered.keyOf(b)];
    return x === undefined || y === undefined ? 0 : compareIds(x, y);
  };
  const sorted = [...places].sort((a, b) =>
    compareItems(ordered.items[a] ?? {}, ordered.items[b] ?? {}),
  );
  return state.open ? undefined : sorted;
}
