/** @module Version 4 UUIDs from a seeded PRNG. */

/** Each byte as two hex digits: four lookups a word instead of toString(16) and padStart. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function hexOf(word: number): string {
  return `${HEX[word >>> 24] ?? ''}${HEX[(word >>> 16) & 0xff] ?? ''}${HEX[(word >>> 8) & 0xff] ?? ''}${HEX[word & 0xff] ?? ''}`;
}

/** A version 4 UUID from the PRNG: four 32-bit draws, the version and variant bits set. */
export function uuidOf(random: () => number): string {
  const word = () => Math.floor(random() * 0x1_0000_0000) >>> 0;
  const a = hexOf(word());
  const b = hexOf(((word() & 0xffff0fff) | 0x00004000) >>> 0);
  const c = hexOf(((word() & 0x3fffffff) | 0x80000000) >>> 0);
  const d = hexOf(word());
  return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}
