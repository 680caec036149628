/**
 * @module The indexed query engine: `exact` and `contains` conditions on any declared field,
 * combined with AND, over the indexes of engine-index.ts and the caches below. engine.ts gives
 * it to the rest of the code with its tuning fixed; the tuning is a parameter here so that the
 * equivalence suite can reach every path with small collections.
 */
import { BoundedCache } from '../util/bounded-cache.ts';
import { packedAt, type PackedStrings } from '../util/packed-strings.ts';
import type { EngineIndexData, Postings, TextIndexData, ValueIndexData } from './engine-index.ts';
import type { QueryEngine } from './engine.ts';
import { foldName } from './fold-name.ts';
import { createNameIndex, type NameIds, type NameIndex } from './name-index.ts';
import { collectPositions, createScratch, scanPositions, type Scratch } from './name-pages.ts';
import { firstKeyAbove, type Key } from './keys.ts';
import { boundOf, orderValueOf } from './order-value.ts';
import { PositionSet } from './position-set.ts';
import {
  keyRanks,
  orderKeyOf,
  rankCount,
  refineOrder,
  sortPositions,
  type RankedColumn,
  type SortKey,
} from './sort.ts';
import type { Condition, ConditionScalar, EngineSource } from './query.ts';
import { everyPosition, positionRange, slicesOf, type Selection } from './selection.ts';

/**
 * How a `contains` condition's matches are listed; `auto` picks by estimated cost, the others
 * are for the equivalence suite, which holds each to the plain definition. See name-pages.ts.
 */
export type PageStrategy = 'auto' | 'scan' | 'collect';

export interface EngineTuning {
  readonly strategy: PageStrategy;
  /** See FIRST_PREFIX. */
  readonly firstPrefix: number;
  /** See CACHED_PREFIX_LIMIT. */
  readonly cachedPrefixLimit: number;
}

/**
 * A filter's matches are listed as far as a page needs, and that prefix is cached: clients ask
 * for the first pages far more often than for the last. A prefix grows by doubling, from this
 * size, so that paging through a result lists it about twice in all. A filter asked for the
 * first time is not cached (the doorkeeper), so it lists its page and no further: at a million
 * products, that took a fresh search from 64 to 38 µs on average, in process.
 */
const FIRST_PREFIX = 256;
/**
 * Prefixes longer than this are not cached: a mix of common substrings would have them evict
 * each other (measured: caching whole results of up to 200 000 matches gave 440 req/s on a warm
 * mix at a million products). Pages beyond are listed anew on each request.
 */
const CACHED_PREFIX_LIMIT = 65_536;
/** A collect costs about this many scan steps per record it touches (measured: 16 ns, 2.3 ns). */
const COLLECT_STEPS_PER_MATCH = 7;

/** What engine.ts serves with. */
export const SERVING_TUNING: EngineTuning = {
  strategy: 'auto',
  firstPrefix: FIRST_PREFIX,
  cachedPrefixLimit: CACHED_PREFIX_LIMIT,
};

/** What a filter matched. Immutable: a longer prefix replaces the entry. */
interface Match {
  readonly total: number;
  /** The positions of the first matches, ascending; all `total` of them once complete. */
  readonly prefix: Int32Array;
  /** The cache's measure of the entry's size. */
  readonly length: number;
}

/** The prefix of a match not listed yet; shared, since an ArrayBuffer apiece costs the GC. */
const NO_POSITIONS = new Int32Array(0);

/** A `contains` field as the engine serves it: its index, caches and scratch buffers. */
interface TextField {
  readonly data: TextIndexData;
  readonly names: NameIndex;
  /** Distinct folded values that contain a folded needle. */
  readonly needles: BoundedCache<NameIds>;
  /** Made on the first listing: fields never filtered never pay for it. */
  scratch?: Scratch;
}

/** A field that `exact`, `min` or `max` conditions read: its column and what the load built. */
interface ValueField {
  readonly of: Int32Array;
  readonly values: PackedStrings;
  readonly index: ValueIndexData;
  scratch?: Scratch;
}

/**
 * A condition resolved against the indexes: the values of its field that it accepts, where
 * their records are listed, and how many those are.
 */
interface Resolved {
  readonly field: string;
  readonly of: Int32Array;
  readonly postings: Postings;
  readonly accepted: NameIds;
  readonly visited: number;
  /** The field's buffers for listing, made on first use. */
  readonly scratch: () => Scratch;
}

/** One engine per load: the data cannot change under its caches, and a reload makes another. */
interface Engine {
  readonly source: EngineSource;
  readonly tuning: EngineTuning;
  readonly text: ReadonlyMap<string, TextField>;
  readonly exact: ReadonlyMap<string, ValueField>;
  /** Matches by conditions. */
  readonly matches: BoundedCache<Match>;
  /** The ranked columns of the fields lists sort by, made on first use. */
  readonly ranked: Map<string, RankedColumn>;
  /** Whole collections in the orders asked for, by their keys. */
  readonly orders: BoundedCache<Int32Array>;
  /** Parts of the collection (a filter's matches) in an order, kept from their second asking on. */
  readonly sortedParts: BoundedCache<Int32Array>;
  /** Records per pair of values of two fields, by the fields' names: see pairCounts. */
  readonly pairs: Map<string, Int32Array>;
  /** Shared by every listing of several conditions: listing is synchronous. */
  scratch?: Scratch;
}

/**
 * The records that match every condition, in the collection's order (ascending key).
 *
 * The definition is plain (keep each record whose field equals the value, or whose folded text
 * contains the folded needle); the work is not:
 * - Conditions on the key are a run of positions, found by binary search: one for `exact`.
 * - An `exact` condition on another field reads a list built at load.
 * - A `contains` condition is looked up in a trigram index of the field's distinct values. Its
 *   total comes from the postings' sizes, and a page from a scan or from the postings.
 * - Several conditions list the records of the most selective one and test the others.
 * The equivalence suite holds this to the plain definition.
 */
export function createIndexedEngine(
  source: EngineSource,
  data: EngineIndexData,
  tuning: EngineTuning,
): QueryEngine {
  const text = new Map(
    Object.entries(data.contains).map(([field, index]) => [
      field,
      {
        data: index,
        names: createNameIndex(index.folded, index.grams),
        needles: new BoundedCache<NameIds>({ admitOnSecondSight: true }),
      } satisfies TextField,
    ]),
  );
  const exact = new Map<string, ValueField>();
  for (const [field, index] of Object.entries(data.exact)) {
    const column = source.column(field);
    if (column === undefined) continue;
    exact.set(field, { of: column.of, values: column.values, index });
  }
  const engine: Engine = {
    source,
    tuning,
    text,
    exact,
    matches: new BoundedCache<Match>({ admitOnSecondSight: true }),
    ranked: new Map(),
    pairs: new Map(),
    orders: new BoundedCache<Int32Array>({ maxItems: CACHED_ORDER_POSITIONS }),
    sortedParts: new BoundedCache<Int32Array>({
      admitOnSecondSight: true,
      maxItems: CACHED_ORDER_POSITIONS,
    }),
  };
  return {
    select: (conditions) => select(engine, conditions),
    sort: (conditions, keys) => sort(engine, data, conditions, keys),
    filter: (conditions, positions) => filter(engine, conditions, positions),
  };
}

/**
 * The positions that meet every condition, each tested by flags of its fields' accepted values
 * (resolved once, as a list's are): a session's touched records, thousands at a time.
 */
function filter(
  engine: Engine,
  conditions: readonly Condition[],
  positions: Int32Array,
): Int32Array {
  const { source } = engine;
  const isOnKey = (c: Condition) => c.field === source.key && c.match !== 'contains';
  const onKey = conditions.filter(isOnKey);
  const [first, end] = keyRange(source, onKey);
  const anyOf = onKey.filter((c) => Array.isArray(c.value));
  const named = anyOf.length === 0 ? undefined : new Set(keyPositions(source, anyOf));
  const resolved = conditions.filter((c) => !isOnKey(c)).map((c) => resolve(engine, c));
  if (end <= first || resolved.some(({ visited }) => visited === 0)) return NO_POSITIONS;
  const keep = acceptsAll(resolved);
  return positions.filter(
    (position) =>
      position >= first && position < end && (named?.has(position) ?? true) && keep(position),
  );
}

/**
 * Whole collections in sorted order, and the sorted parts of them, each kept up to this many
 * positions: 4 bytes a record, so four orders of a million records.
 */
const CACHED_ORDER_POSITIONS = 4_000_000;

function sort(
  engine: Engine,
  data: EngineIndexData,
  conditions: readonly Condition[],
  keys: readonly SortKey[],
): Selection {
  const { source } = engine;
  const columnOf = (key: SortKey): readonly [RankedColumn, SortKey] => {
    let column = engine.ranked.get(key.field);
    if (column === undefined) {
      if (key.field === source.key) {
        column = keyRanks(source.size);
      } else {
        const ranks = data.ranks[key.field];
        const of = source.column(key.field)?.of;
        if (ranks === undefined || of === undefined) throw new Error(`${key.field} has no ranks`);
        column = { of, ranks, count: rankCount(ranks) };
      }
      engine.ranked.set(key.field, column);
    }
    return [column, key];
  };
  const orderKey = orderKeyOf(keys);
  const wholeOrder = (): Int32Array => {
    const built = data.orders[orderKey];
    if (built !== undefined) return built;
    let order = engine.orders.get(orderKey);
    if (order === undefined) {
      // The load built each field's whole orders: the last key's saves a pass.
      const last = keys.at(-1) as SortKey;
      const byLast = data.orders[orderKeyOf([last])];
      order =
        byLast === undefined
          ? sortPositions(undefined, source.size, keys.map(columnOf))
          : refineOrder(byLast, keys.slice(0, -1).map(columnOf));
      engine.orders.set(orderKey, order);
    }
    return order;
  };
  if (conditions.length === 0) return slicesOf(wholeOrder());
  // A filter's matches, sorted once and kept from their second asking on: a client pages
  // through one sorted result, and each page would sort it anew.
  const partKey = `${orderKey} ${keyOfAll(conditions)}`;
  const known = engine.sortedParts.get(partKey);
  if (known !== undefined) return slicesOf(known);
  const sorted = sortedMatches(engine, conditions, keys.map(columnOf), wholeOrder);
  engine.sortedParts.set(partKey, sorted);
  return slicesOf(sorted);
}

/**
 * A filter's matches in order. Few matches are listed and sorted on their own. Many are read
 * off the whole order, each record tested by flags of its fields' accepted values: listing
 * 500 000 matches first, to mark them, took 100 ms at a million records.
 */
function sortedMatches(
  engine: Engine,
  conditions: readonly Condition[],
  columns: readonly (readonly [RankedColumn, SortKey])[],
  wholeOrder: () => Int32Array,
): Int32Array {
  const { size } = engine.source;
  const onKey = conditions.some((c) => c.field === engine.source.key && c.match !== 'contains');
  const resolved = onKey ? undefined : conditions.map((condition) => resolve(engine, condition));
  if (resolved?.some(({ visited }) => visited === 0) === true) return NO_POSITIONS;
  // The fewest records any one condition accepts: no more can match all of them.
  const most = resolved === undefined ? undefined : Math.min(...resolved.map((r) => r.visited));
  if (resolved !== undefined && most !== undefined && most * SORT_OWN_BELOW >= size) {
    const keep = acceptsAll(resolved);
    const members = new PositionSet(size);
    for (let position = 0; position < size; position++) {
      if (keep(position)) members.add(position);
    }
    return members.inOrder(wholeOrder());
  }
  const selection = select(engine, conditions);
  const positions = selection.slice(0, selection.total);
  if (positions.length * SORT_OWN_BELOW < size) return sortPositions(positions, size, columns);
  // Many matches of a condition on the key.
  const members = new PositionSet(size);
  for (const position of positions) members.add(position);
  return members.inOrder(wholeOrder());
}

/**
 * A part smaller than a sixteenth of the list is sorted on its own; a larger one is read off the
 * whole order, one pass over the collection (measured at 100 000 invoices: sorting half of them
 * anew on each request served 500 requests a second).
 */
const SORT_OWN_BELOW = 16;

function select(engine: Engine, conditions: readonly Condition[]): Selection {
  const { source } = engine;
  const isOnKey = (c: Condition) => c.field === source.key && c.match !== 'contains';
  // The common request has no key condition: it pays for no new array.
  if (!conditions.some(isOnKey)) return selectByFields(engine, conditions);
  const onKey = conditions.filter(isOnKey);
  const [first, end] = keyRange(source, onKey);
  const others = conditions.filter((c) => !isOnKey(c));
  if (end <= first) return slicesOf(NO_POSITIONS);
  const anyOf = onKey.filter((c) => Array.isArray(c.value));
  if (anyOf.length > 0) {
    // Keys asked for by name: each is a lookup, and few enough to test one by one.
    const positions = keyPositions(source, anyOf).filter(
      (position) =>
        position >= first &&
        position < end &&
        others.every((condition) => holdsAt(engine, condition, position)),
    );
    return slicesOf(positions);
  }
  if (others.length === 0) return positionRange(first, end);
  if (end - first === 1) {
    return slicesOf(others.every((c) => holdsAt(engine, c, first)) ? [first] : NO_POSITIONS);
  }
  // A run of keys with other conditions: the others' matches ascend, so those in the run are
  // one stretch of them. Listed whole, uncached: a key range beside a filter is a rare request.
  const matched = selectByFields(engine, others);
  return slicesOf(
    matched.slice(0, matched.total).filter((position) => position >= first && position < end),
  );
}

/**
 * The run of positions whose keys meet every key condition, as [first, end): keys ascend, so
 * `exact` is one position, `min` a suffix and `max` a prefix, each found by binary search.
 */
function keyRange(source: EngineSource, onKey: readonly Condition[]): [number, number] {
  let first = 0;
  let end = source.size;
  const keyType = source.keys.type === 'integer' ? 'number' : 'string';
  for (const { match, value } of onKey) {
    if (Array.isArray(value)) continue;
    if (typeof value !== keyType) return [0, 0];
    if (match === 'exact') {
      const position = source.positionOf(value as Key);
      if (position < 0) return [0, 0];
      first = Math.max(first, position);
      end = Math.min(end, position + 1);
    } else if (match === 'min') {
      first = Math.max(first, firstKeyAbove(source.keys, value as Key, 'or-equal'));
    } else {
      end = Math.min(end, firstKeyAbove(source.keys, value as Key, 'strictly'));
    }
  }
  return [first, end];
}

/** The positions whose keys every one of the key lists names, ascending. */
function keyPositions(source: EngineSource, anyOf: readonly Condition[]): number[] {
  let kept: Set<number> | undefined;
  for (const { value } of anyOf) {
    const found = new Set<number>();
    for (const key of value as readonly ConditionScalar[]) {
      const position = typeof key === 'boolean' ? -1 : source.positionOf(key);
      if (position >= 0 && (kept === undefined || kept.has(position))) found.add(position);
    }
    kept = found;
  }
  return [...(kept ?? [])].sort((a, b) => a - b);
}

/** Conditions on fields other than the key, read through their indexes. */
function selectByFields(engine: Engine, conditions: readonly Condition[]): Selection {
  if (conditions.length === 0) return everyPosition(engine.source.size);
  const [single] = conditions;
  if (conditions.length === 1 && single !== undefined && !isOneValue(single)) {
    // Resolved only when the cache cannot answer: a broad needle's names are many to add up.
    let listing: Listing | undefined;
    return selectBySet(engine, keyOf(single), () => (listing ??= setListing(engine, single)));
  }
  const [a, b] = conditions;
  if (conditions.length === 2 && a !== undefined && b !== undefined && pairable(engine, a, b)) {
    let listing: Listing | undefined;
    return selectBySet(engine, keyOfAll(conditions), () => (listing ??= pairListing(engine, a, b)));
  }
  if (conditions.length > 1) {
    // Kept matches first: resolving a range reads every value it accepts (60 000 distinct
    // amounts, 2.7 ms), which a kept answer needs none of.
    const cached = engine.matches.get(keyOfAll(conditions));
    if (cached !== undefined) return slicesOf(cached.prefix);
  }
  const resolved: Resolved[] = [];
  for (const condition of conditions) {
    const one = resolve(engine, condition);
    if (one.visited === 0) return slicesOf(NO_POSITIONS);
    resolved.push(one);
  }
  const [only] = resolved;
  if (resolved.length === 1 && only !== undefined) {
    // One exact value: its postings are the list, in key order.
    const value = only.accepted[0] as number;
    const { positions, starts } = only.postings;
    return slicesOf(positions.subarray(starts[value], starts[value + 1]));
  }
  return selectByAll(engine, conditions, resolved);
}

/** An `exact` condition of one value: its postings are its matches, as they are. */
function isOneValue(condition: Condition): boolean {
  return condition.match === 'exact' && !Array.isArray(condition.value);
}

/** Whether the record at a position meets a condition on a field other than the key. */
function holdsAt(engine: Engine, condition: Condition, position: number): boolean {
  if (condition.match === 'contains') {
    const { data } = textField(engine, condition.field);
    const number = data.of[position] as number;
    return number >= 0 && packedAt(data.folded, number).includes(foldName(String(condition.value)));
  }
  const column = engine.source.column(condition.field);
  if (column === undefined) throw new Error(`${condition.field} has no column`);
  const number = column.of[position] as number;
  if (number < 0) return false;
  const json = packedAt(column.values, number);
  if (condition.match === 'exact') {
    const wanted = Array.isArray(condition.value) ? condition.value : [condition.value];
    return wanted.some((value) => json === JSON.stringify(value));
  }
  const value = orderValueOf(JSON.parse(json));
  const bound = boundOf(condition.match, condition.value);
  if (value === undefined || bound === undefined) return false;
  return condition.match === 'min' ? value >= bound : value <= bound;
}

/** A `contains` condition's field; none is a wiring bug (the load plan indexes every one). */
function textField(engine: Engine, field: string): TextField {
  const found = engine.text.get(field);
  if (found === undefined) throw new Error(`${field} has no text index`);
  return found;
}

/** The accepted values of a condition's field, from its index. */
function resolve(engine: Engine, condition: Condition): Resolved {
  if (condition.match !== 'contains') {
    const field = engine.exact.get(condition.field);
    if (field === undefined) throw new Error(`${condition.field} has no value index`);
    const accepted = acceptedValues(field, condition);
    const { postings } = field.index;
    const { starts } = postings;
    let visited = 0;
    for (const number of accepted) {
      visited += (starts[number + 1] as number) - (starts[number] as number);
    }
    const scratch = () => (field.scratch ??= createScratch(starts.length - 1, engine.source.size));
    return { field: condition.field, of: field.of, postings, accepted, visited, scratch };
  }
  const field = textField(engine, condition.field);
  const needle = foldName(String(condition.value));
  let names = field.needles.get(needle);
  if (names === undefined) {
    names = field.names.namesContaining(needle);
    field.needles.set(needle, names);
  }
  const { starts } = field.data.postings;
  let visited = 0;
  // From the postings' bounds only: reading each value's list would be a pointer chase apiece.
  for (const name of names) visited += (starts[name + 1] as number) - (starts[name] as number);
  const scratch = () =>
    (field.scratch ??= createScratch(field.data.folded.ends.length, engine.source.size));
  return {
    field: condition.field,
    of: field.data.of,
    postings: field.data.postings,
    accepted: names,
    visited,
    scratch,
  };
}

/**
 * The value numbers a condition accepts: those equal to an `exact` value (or to any of its
 * values), or the numbers at least (`min`) or at most (`max`) the value, found by binary search
 * in the order of numbers and instants.
 */
function acceptedValues(field: ValueField, condition: Condition): NameIds {
  const { byText, byNumber, numbers } = field.index;
  if (condition.match === 'exact') {
    const wanted = Array.isArray(condition.value) ? condition.value : [condition.value];
    const accepted = new Set<number>();
    for (const value of wanted) {
      const text = JSON.stringify(value);
      let low = 0;
      let high = byText.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (packedAt(field.values, byText[middle] as number) < text) low = middle + 1;
        else high = middle;
      }
      const number = byText[low];
      if (number !== undefined && packedAt(field.values, number) === text) accepted.add(number);
    }
    return [...accepted];
  }
  if (condition.match === 'contains') throw new Error('contains reads the text index');
  const bound = boundOf(condition.match, condition.value);
  if (bound === undefined) return [];
  // The first place whose value is at least the bound (`min`), or above it (`max`).
  let low = 0;
  let high = numbers.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const value = numbers[middle] as number;
    if (condition.match === 'min' ? value < bound : value <= bound) low = middle + 1;
    else high = middle;
  }
  return Array.from(condition.match === 'min' ? byNumber.subarray(low) : byNumber.subarray(0, low));
}

/**
 * A condition's cache key: its field, its match and its value as the engine reads it, as a JSON
 * array. JSON escapes every control character, so no needle can spell another key: with plain
 * separators, a needle holding them was answered from another filter's matches.
 */
function keyOf(condition: Condition): string {
  const value =
    condition.match === 'contains' ? foldName(String(condition.value)) : condition.value;
  return JSON.stringify([condition.field, condition.match, value]);
}

/** How a filter's matches are listed: their count, known before any is listed, and the first ones. */
interface Listing {
  readonly total: number;
  /** What the cache counts an entry as, beside its prefix: the values it accepts. */
  readonly weight: number;
  /** At least the first `wanted` matches, ascending: a view of scratch buffers. */
  list(wanted: number): Int32Array;
}

/** One condition that accepts a set of values: counted from its postings' bounds. */
function setListing(engine: Engine, condition: Condition): Listing {
  const resolved = resolve(engine, condition);
  return {
    total: resolved.visited,
    weight: resolved.accepted.length,
    list: (wanted) => listSet(engine, resolved, wanted),
  };
}

/**
 * Matches listed as far as a page needs, and that prefix cached: one condition that accepts a
 * set of values (`contains`, `min`, `max`), or two that are counted together (pairListing).
 */
function selectBySet(engine: Engine, key: string, listing: () => Listing): Selection {
  const { firstPrefix, cachedPrefixLimit } = engine.tuning;
  const cache = engine.matches;
  let match = cache.get(key);
  if (match === undefined) {
    const { total, weight } = listing();
    match = { total, prefix: NO_POSITIONS, length: weight };
    cache.set(key, match);
  }
  return {
    total: match.total,
    slice(start, end) {
      const current = match as Match;
      const stop = Math.min(end, current.total);
      if (start >= stop) return [];
      let positions = current.prefix;
      if (positions.length < stop) {
        // A prefix listed beyond the page is for the cache; a filter asked once is not kept.
        const kept = cache.has(key);
        const wanted = kept
          ? Math.min(current.total, Math.max(stop, 2 * positions.length, firstPrefix))
          : stop;
        const listed = listing().list(wanted);
        positions = listed;
        // Cached (as a copy: the scratch is reused) only once the filter was asked twice.
        if (kept && listed.length <= cachedPrefixLimit) {
          const prefix = listed.slice();
          match = { ...current, prefix, length: listing().weight + prefix.length };
          cache.set(key, match);
        }
      }
      return Array.from(positions.subarray(start, stop));
    },
  };
}

/**
 * At least the first `wanted` matches, by the cheaper way: a scan touches about `wanted / total`
 * of the collection, a collect the matched values' records (and sorts them, and lists them all).
 */
function listSet(engine: Engine, resolved: Resolved, wanted: number): Int32Array {
  const { accepted, visited } = resolved;
  const scratch = resolved.scratch();
  return cheaperWay(engine, accepted.length + (wanted / visited) * engine.source.size, visited) ===
    'scan'
    ? scanPositions(resolved.of, accepted, wanted, scratch)
    : collectPositions(resolved.postings, accepted, visited, scratch);
}

function cheaperWay(engine: Engine, scanSteps: number, collected: number): 'scan' | 'collect' {
  const { strategy } = engine.tuning;
  if (strategy !== 'auto') return strategy;
  return scanSteps <= COLLECT_STEPS_PER_MATCH * collected ? 'scan' : 'collect';
}

/**
 * The records of each pair of values of two fields are counted once, in one pass over the
 * collection, where the pairs are few enough (4 bytes a pair): a filter with a status, say, is
 * then counted by adding up its accepted pairs, and only a page of it is listed. Without the
 * counts, the total needed every match listed: a name needle with a status listed all of the
 * needle's records (a mean of 363 µs at a million products, in process).
 */
const MAX_PAIRS = 4_194_304;
/** The pairs of every table together: a spec with many filters asks many pairs of fields. */
const MAX_PAIRS_IN_ALL = 2 * MAX_PAIRS;

/** The number of values a condition's field has, each with its postings. */
function valueCount(engine: Engine, condition: Condition): number | undefined {
  const starts =
    condition.match === 'contains'
      ? engine.text.get(condition.field)?.data.postings.starts
      : engine.exact.get(condition.field)?.index.postings.starts;
  return starts === undefined ? undefined : starts.length - 1;
}

/**
 * Whether two conditions are counted together: two fields whose table is made already, or whose
 * pairs are few enough to make one within what all tables may hold. Made tables are kept for
 * the load, so a pair of fields is answered one way throughout.
 */
function pairable(engine: Engine, a: Condition, b: Condition): boolean {
  if (a.field === b.field || a.field === engine.source.key || b.field === engine.source.key) {
    return false;
  }
  if (engine.pairs.has(pairKey(a.field, b.field))) return true;
  const [x, y] = [valueCount(engine, a), valueCount(engine, b)];
  if (x === undefined || y === undefined || x * y > MAX_PAIRS) return false;
  let made = 0;
  for (const table of engine.pairs.values()) made += table.length;
  return made + x * y <= MAX_PAIRS_IN_ALL;
}

/** A pair of fields' key, the same in either order. */
function pairKey(one: string, other: string): string {
  return JSON.stringify(one < other ? [one, other] : [other, one]);
}

/** The records of each pair of values of two fields: `[value of a × values of b + value of b]`. */
function pairCounts(engine: Engine, a: Resolved, b: Resolved, width: number): Int32Array {
  const key = pairKey(a.field, b.field);
  let counts = engine.pairs.get(key);
  if (counts === undefined) {
    counts = new Int32Array((a.postings.starts.length - 1) * width);
    const [of, other] = [a.of, b.of];
    for (let position = 0; position < of.length; position++) {
      const [x, y] = [of[position] as number, other[position] as number];
      if (x >= 0 && y >= 0) counts[x * width + y] = (counts[x * width + y] as number) + 1;
    }
    engine.pairs.set(key, counts);
  }
  return counts;
}

/**
 * Two conditions on two fields: counted by their pairs of accepted values; listed by a scan
 * that tests both, or from the more selective one's postings, whichever is cheaper.
 */
function pairListing(engine: Engine, first: Condition, second: Condition): Listing {
  // The fields in one order, so that each pair of fields is counted once.
  const [a, b] = [first, second]
    .sort((x, y) => (x.field < y.field ? -1 : 1))
    .map((condition) => resolve(engine, condition)) as [Resolved, Resolved];
  const width = b.postings.starts.length - 1;
  let total = 0;
  if (a.visited > 0 && b.visited > 0) {
    const counts = pairCounts(engine, a, b, width);
    for (const x of a.accepted) {
      for (const y of b.accepted) total += counts[x * width + y] as number;
    }
  }
  const [driver, other] = a.visited <= b.visited ? [a, b] : [b, a];
  return {
    total,
    weight: a.accepted.length + b.accepted.length,
    list(wanted) {
      if (total === 0) return NO_POSITIONS;
      engine.scratch ??= createScratch(0, engine.source.size);
      // Each field's flags of its accepted values, set for this listing and cleared after it:
      // flags made per request would be an ArrayBuffer apiece for the collector.
      const [flagsA, flagsB] = [a, b].map((one) => {
        const { flags } = one.scratch();
        for (const value of one.accepted) flags[value] = 1;
        return flags;
      }) as [Uint8Array, Uint8Array];
      const holds = (flags: Uint8Array, of: Int32Array, position: number) => {
        const value = of[position] as number;
        return value >= 0 && flags[value] === 1;
      };
      try {
        const scanSteps = (wanted / total) * engine.source.size;
        if (cheaperWay(engine, scanSteps, driver.visited) === 'collect') {
          const [flags, of] = other === a ? [flagsA, a.of] : [flagsB, b.of];
          const keep = (position: number) => holds(flags, of, position);
          const { postings, accepted, visited } = driver;
          return collectPositions(postings, accepted, visited, engine.scratch, keep);
        }
        const { positions } = engine.scratch;
        let filled = 0;
        for (let position = 0; position < engine.source.size && filled < wanted; position++) {
          if (holds(flagsA, a.of, position) && holds(flagsB, b.of, position)) {
            positions[filled++] = position;
          }
        }
        return positions.subarray(0, filled);
      } finally {
        for (const value of a.accepted) flagsA[value] = 0;
        for (const value of b.accepted) flagsB[value] = 0;
      }
    },
  };
}

/**
 * Several conditions: the records of the most selective one, kept where every other one holds,
 * listed whole (the total needs them all) and cached from the second asking on.
 */
/** Several conditions' cache key: JSON arrays side by side, so one alone is never two of them. */
function keyOfAll(conditions: readonly Condition[]): string {
  return conditions.map(keyOf).sort().join(',');
}

function selectByAll(
  engine: Engine,
  conditions: readonly Condition[],
  resolved: readonly Resolved[],
): Selection {
  const key = keyOfAll(conditions);
  const ordered = [...resolved].sort((a, b) => a.visited - b.visited);
  const [driver, ...others] = ordered as [Resolved, ...Resolved[]];
  const keep = acceptsAll(others);
  engine.scratch ??= createScratch(0, engine.source.size);
  const positions = collectPositions(
    driver.postings,
    driver.accepted,
    driver.visited,
    engine.scratch,
    keep,
  ).slice();
  if (positions.length <= engine.tuning.cachedPrefixLimit) {
    engine.matches.set(key, {
      total: positions.length,
      prefix: positions,
      length: positions.length,
    });
  }
  return slicesOf(positions);
}

/** Whether a record meets every resolved condition: a flag per value of each one's field. */
function acceptsAll(resolved: readonly Resolved[]): (position: number) => boolean {
  const tests = resolved.map(({ of, postings, accepted }) => {
    const flags = new Uint8Array(postings.starts.length - 1);
    for (const name of accepted) flags[name] = 1;
    return { of, flags };
  });
  return (position) => {
    for (const test of tests) {
      const number = test.of[position] as number;
      if (number < 0 || test.flags[number] !== 1) return false;
    }
    return true;
  };
}
