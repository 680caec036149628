/** @module A bounded LRU cache with an optional doorkeeper: the query engine's and the kept answers'. */

export interface BoundedCacheOptions {
  readonly maxEntries?: number;
  readonly maxItems?: number;
  /**
   * Store a key only the second time it is set (a "doorkeeper", as in TinyLFU). Filters asked
   * once, such as a stream of fresh search terms, then never enter the cache: measured at a
   * million products, their churn promoted some 40 MB/s to the old generation and brought a
   * 10–30 ms full collection every one to three seconds.
   */
  readonly admitOnSecondSight?: boolean;
}

/** Slots of the doorkeeper: keys seen once are remembered by hash, in a fixed table. */
const DOORKEEPER_SLOTS = 4096;

/**
 * Least recently used first out, bounded by entries and by the items they hold together, so that a
 * million-product catalogue cannot make it grow past a few tens of megabytes.
 */
export class BoundedCache<Value extends { readonly length: number }> {
  /** In order of use, oldest first; `used` is the count of sets and moves at its last. */
  readonly #entries = new Map<string, { readonly value: Value; used: number }>();
  #uses = 0;
  #items = 0;
  readonly #maxEntries: number;
  readonly #maxItems: number;
  readonly #seenOnce: Int32Array | undefined;

  constructor(options: BoundedCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 2000;
    this.#maxItems = options.maxItems ?? 8_000_000;
    this.#seenOnce =
      options.admitOnSecondSight === true ? new Int32Array(DOORKEEPER_SLOTS) : undefined;
  }

  /**
   * The value, now counted as used. An entry is moved to the recent end only once it has aged
   * into the older half: a hot kept answer read without a delete and a set each time. One
   * already at the recent end stays (in a cache of one entry, each delete would reallocate the
   * table).
   */
  get(key: string): Value | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const age = this.#uses - entry.used;
    if (age > 0 && age >= this.#entries.size >> 1) {
      this.#entries.delete(key);
      entry.used = ++this.#uses;
      this.#entries.set(key, entry);
    }
    return entry.value;
  }

  /** Whether the key is stored; unlike get, it does not count as a use. */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  set(key: string, value: Value): void {
    const replaced = this.#entries.get(key);
    if (replaced !== undefined) {
      this.#entries.delete(key);
      this.#items -= replaced.value.length;
    } else if (!this.#admits(key)) return;
    if (value.length > this.#maxItems) return;
    this.#entries.set(key, { value, used: ++this.#uses });
    this.#items += value.length;
    for (const [oldest, dropped] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#items <= this.#maxItems) break;
      this.#entries.delete(oldest);
      this.#items -= dropped.value.length;
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  /** True the second time a key comes (or when a different key with its hash came before). */
  #admits(key: string): boolean {
    const seen = this.#seenOnce;
    if (seen === undefined) return true;
    const hash = hashOf(key);
    const slot = hash & (DOORKEEPER_SLOTS - 1);
    if (seen[slot] === hash) return true;
    seen[slot] = hash;
    return false;
  }
}

/** FNV-1a over the key's code units; never 0, the value of an empty slot. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash | 1;
}
