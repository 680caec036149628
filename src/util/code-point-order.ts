/**
 * @module Text in Unicode code point order: the one order of strings that every language and
 * database can reproduce without a collation (JavaScript's `<` compares UTF-16 code units, which
 * puts U+10000 and beyond before U+E000–U+FFFF).
 */

/**
 * Negative, zero or positive as `a` comes before, with or after `b` by code points. Code units
 * are compared with surrogates moved above U+E000–U+FFFF, which is code point order for
 * well-formed UTF-16.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    return inCodePointOrder(x) - inCodePointOrder(y);
  }
  return a.length - b.length;
}

function inCodePointOrder(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
