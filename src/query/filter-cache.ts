/** @module A bounded cache of filter results, one per catalogue: a reload starts with an empty one. */

/**
 * Least recently used first out, bounded by entries and by the items they hold together, so that a
 * million-product catalogue cannot make it grow past a few tens of megabytes.
 */
export class FilterCache<Value extends { readonly length: number }> {
  readonly #entries = new Map<string, Value>();
  #items = 0;
  readonly #maxEntries: number;
  readonly #maxItems: number;

  constructor(maxEntries = 2000, maxItems = 8_000_000) {
    this.#maxEntries = maxEntries;
    this.#maxItems = maxItems;
  }

  get(key: string): Value | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Value): void {
    const replaced = this.#entries.get(key);
    if (replaced !== undefined) {
      this.#entries.delete(key);
      this.#items -= replaced.length;
    }
    if (value.length > this.#maxItems) return;
    this.#entries.set(key, value);
    this.#items += value.length;
    for (const [oldest, dropped] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#items <= this.#maxItems) break;
      this.#entries.delete(oldest);
      this.#items -= dropped.length;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
