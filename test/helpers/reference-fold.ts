/**
 * @module Caseless folding by its own code, for the reference engine: not the production
 * `foldName`, whose upper-then-lower composition a test that borrowed it could never doubt.
 *
 * Unicode's full case folding (CaseFolding.txt, statuses C and F) is a map per code point. Most
 * of it is a code point's own lower case; FOLDINGS lists, from that file, the code points whose
 * folding is something else (a longer string, or another lower-case letter), for the scripts
 * catalogues hold: Latin, Greek, Armenian, the Latin ligatures, Cherokee.
 */

/** CaseFolding.txt's C and F mappings that differ from the code point's own lower case. */
const FOLDINGS: ReadonlyMap<number, string> = new Map([
  [0x00b5, '\u03bc'], // MICRO SIGN
  [0x00df, 'ss'], // ß
  [0x0130, 'i\u0307'], // İ
  [0x0149, '\u02bcn'], // ŉ
  [0x017f, 's'], // ſ
  [0x01f0, 'j\u030c'], // ǰ
  [0x0345, '\u03b9'], // COMBINING GREEK YPOGEGRAMMENI
  [0x0390, '\u03b9\u0308\u0301'], // ΐ
  [0x03b0, '\u03c5\u0308\u0301'], // ΰ
  [0x03c2, '\u03c3'], // ς
  [0x03d0, '\u03b2'], // ϐ
  [0x03d1, '\u03b8'], // ϑ
  [0x03d5, '\u03c6'], // ϕ
  [0x03d6, '\u03c0'], // ϖ
  [0x03f0, '\u03ba'], // ϰ
  [0x03f1, '\u03c1'], // ϱ
  [0x03f5, '\u03b5'], // ϵ
  [0x0587, '\u0565\u0582'], // և
  [0x1e96, 'h\u0331'], // ẖ
  [0x1e97, 't\u0308'], // ẗ
  [0x1e98, 'w\u030a'], // ẘ
  [0x1e99, 'y\u030a'], // ẙ
  [0x1e9a, 'a\u02be'], // ẚ
  [0x1e9b, '\u1e61'], // ẛ
  [0x1e9e, 'ss'], // ẞ
  [0x1fb3, '\u03b1\u03b9'], // ᾳ
  [0x1fbe, '\u03b9'], // ι
  [0xfb00, 'ff'],
  [0xfb01, 'fi'],
  [0xfb02, 'fl'],
  [0xfb03, 'ffi'],
  [0xfb04, 'ffl'],
  [0xfb05, 'st'],
  [0xfb06, 'st'],
]);

/** Cherokee folds to its capitals (CaseFolding.txt, status C): small letters map up. */
function cherokee(code: number): string | undefined {
  if (code >= 0x13a0 && code <= 0x13f5) return String.fromCodePoint(code);
  if (code >= 0xab70 && code <= 0xabbf) return String.fromCodePoint(code - 0xab70 + 0x13a0);
  if (code >= 0x13f8 && code <= 0x13fd) return String.fromCodePoint(code - 8);
  return undefined;
}

/** NFC (so that `é` typed either way is one letter), then each code point's full folding. */
export function referenceFold(text: string): string {
  let folded = '';
  for (const character of text.normalize('NFC')) {
    const code = character.codePointAt(0) ?? 0;
    folded += FOLDINGS.get(code) ?? cherokee(code) ?? character.toLowerCase();
  }
  return folded;
}
