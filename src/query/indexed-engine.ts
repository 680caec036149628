/**
 * @module The indexed query engine: name substring, id and status, combined with AND, over the
 * indexes of engine-index.ts and the caches below. engine.ts gives it to the rest of the code
 * with its tuning fixed; the tuning is a parameter here so that the equivalence suite can reach
 * every path with small catalogues.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { foldName } from '../catalog/fold-name.ts';
import { STOCK_STATUSES } from '../catalog/stock-status.ts';
import {
  buildEngineIndexData,
  engineIndexOf,
  STATUSES,
  type EngineIndex,
  type EngineIndexData,
} from './engine-index.ts';
import type { QueryEngine } from './engine.ts';
import { BoundedCache } from '../util/bounded-cache.ts';
import { packedAt } from '../util/packed-strings.ts';
import { collectPositions, createScratch, scanPositions, type Scratch } from './name-pages.ts';
import { createNameIndex, type NameIds, type NameIndex } from './name-index.ts';
import type { ProductFilter } from './query.ts';
import { everyPosition, slicesOf, type Selection } from './selection.ts';

/**
 * How a name filter's matches are listed; `auto` picks by estimated cost, the others are for
 * the equivalence suite, which holds each to the plain definition. See name-pages.ts.
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
/** A collect costs about this many scan steps per product it touches (measured: 16 ns, 2.3 ns). */
const COLLECT_STEPS_PER_MATCH = 7;

/** What engine.ts serves with. */
export const SERVING_TUNING: EngineTuning = {
  strategy: 'auto',
  firstPrefix: FIRST_PREFIX,
  cachedPrefixLimit: CACHED_PREFIX_LIMIT,
};

/** What a name (and status) filter matched. Immutable: a longer prefix replaces the entry. */
interface NameMatch {
  /** The distinct names that contain the needle. */
  readonly names: NameIds;
  /** Products matched, the status applied. */
  readonly total: number;
  /** Products of the matched names, whatever their status: what a collect walks through. */
  readonly visited: number;
  /** The positions of the first matches, ascending; all `total` of them once complete. */
  readonly prefix: Int32Array;
  /** The cache's measure of the entry's size. */
  readonly length: number;
}

/** The prefix of a match not listed yet; shared, since an ArrayBuffer apiece costs the GC. */
const NO_POSITIONS = new Int32Array(0);

/** One engine per catalogue: the data cannot change under its caches, and a reload makes another. */
interface Engine {
  readonly catalog: Catalog;
  readonly index: EngineIndex;
  readonly tuning: EngineTuning;
  /** Over the trigram index built with the rest (in the loading worker, when served). */
  readonly names: NameIndex;
  /** Distinct names that contain a folded needle. */
  readonly needles: BoundedCache<NameIds>;
  /** Name matches by status and needle. */
  readonly matches: BoundedCache<NameMatch>;
  /** Made on the first listing: catalogues never filtered by name never pay for it. */
  scratch?: Scratch;
}

/**
 * The products that match every given filter, in the catalogue's order (ascending id).
 *
 * The definition is plain (keep each product whose id and status equal and whose folded name
 * contains the folded needle); the work is not:
 * - An id is a lookup by position or binary search, and a status alone is a list built at load.
 * - A name is looked up in a trigram index of the distinct names. The total then comes from
 *   per-name counts, and a page from the matching names' position lists (see PageStrategy).
 * The equivalence suite holds this to the plain definition.
 */
export function createIndexedEngine(
  catalog: Catalog,
  tuning: EngineTuning,
  data: EngineIndexData = buildEngineIndexData(catalog.columns),
): QueryEngine {
  const index = engineIndexOf(catalog.columns, data);
  const engine: Engine = {
    catalog,
    index,
    names: createNameIndex(index.names, index.grams),
    tuning,
    needles: new BoundedCache<NameIds>({ admitOnSecondSight: true }),
    matches: new BoundedCache<NameMatch>({ admitOnSecondSight: true }),
  };
  return { select: (filter) => select(engine, filter) };
}

function select(engine: Engine, filter: ProductFilter): Selection {
  const { catalog, index } = engine;
  const needle = filter.name === undefined ? undefined : foldName(filter.name);
  if (filter.id !== undefined) {
    const position = catalog.byId.positionOf(filter.id);
    const keep =
      position >= 0 &&
      (filter.status === undefined ||
        STOCK_STATUSES[index.statusOf[position] as number] === filter.status) &&
      (needle === undefined ||
        packedAt(index.names, index.nameOf[position] as number).includes(needle));
    return slicesOf(keep ? [position] : NO_POSITIONS);
  }
  const status = filter.status === undefined ? -1 : STOCK_STATUSES.indexOf(filter.status);
  if (needle === undefined) {
    return status < 0
      ? everyPosition(index.size)
      : slicesOf(index.byStatus[status] ?? NO_POSITIONS);
  }
  return selectByName(engine, needle, status);
}

function selectByName(engine: Engine, needle: string, status: number): Selection {
  const { firstPrefix, cachedPrefixLimit } = engine.tuning;
  const cache = engine.matches;
  const key = `${String(status)}\u0000${needle}`;
  const cached = cache.get(key);
  let match = cached ?? matchOf(engine, needle, status);
  if (cached === undefined) cache.set(key, match);
  return {
    total: match.total,
    slice(start, end) {
      const stop = Math.min(end, match.total);
      if (start >= stop) return [];
      let positions = match.prefix;
      if (positions.length < stop) {
        // A prefix listed beyond the page is for the cache; a filter asked once is not kept.
        const kept = cache.has(key);
        const wanted = kept
          ? Math.min(match.total, Math.max(stop, 2 * positions.length, firstPrefix))
          : stop;
        const listed = list(engine, match, status, wanted);
        positions = listed;
        // Cached (as a copy: the scratch is reused) only once the filter was asked twice.
        if (kept && listed.length <= cachedPrefixLimit) {
          const prefix = listed.slice();
          match = { ...match, prefix, length: match.names.length + prefix.length };
          cache.set(key, match);
        }
      }
      return Array.from(positions.subarray(start, stop));
    },
  };
}

function matchOf(engine: Engine, needle: string, status: number): NameMatch {
  let names = engine.needles.get(needle);
  if (names === undefined) {
    names = engine.names.namesContaining(needle);
    engine.needles.set(needle, names);
  }
  const { counts, nameSizes } = engine.index;
  let visited = 0;
  let total = 0;
  // From the flat counts only: reading each name's position list would be a pointer chase apiece.
  for (const name of names) {
    const size = nameSizes[name] as number;
    visited += size;
    total += status < 0 ? size : (counts[name * STATUSES + status] as number);
  }
  return { names, total, visited, prefix: NO_POSITIONS, length: names.length };
}

/**
 * At least the first `wanted` matches, by the cheaper way: a scan touches about `wanted / total`
 * of the catalogue, a collect the matched names' products (and sorts them, and lists them all).
 */
function list(engine: Engine, match: NameMatch, status: number, wanted: number): Int32Array {
  const { index, tuning } = engine;
  const { names, total, visited } = match;
  const scanSteps = names.length + (wanted / total) * index.size;
  const collectSteps = COLLECT_STEPS_PER_MATCH * visited;
  const chosen =
    tuning.strategy === 'auto' ? (scanSteps <= collectSteps ? 'scan' : 'collect') : tuning.strategy;
  engine.scratch ??= createScratch(index);
  return chosen === 'scan'
    ? scanPositions(index, names, status, wanted, engine.scratch)
    : collectPositions(index, names, status, total, engine.scratch);
}
