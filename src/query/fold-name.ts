/** @module Case folding for the literal, case-insensitive `contains` match. */

/**
 * Folds a string for caseless comparison. JavaScript has no full Unicode case folding, so this
 * composes it: NFC first (so `é` typed either way matches), then upper- and lower-casing (so
 * `ß` matches `SS`), then what that leaves apart and Unicode's CaseFolding.txt folds: the final
 * sigma `ς` to `σ`, and the capital sharp s `ẞ` (which lower-cases to `ß`) to `ss`.
 *
 * Where it differs from CaseFolding.txt (test/unit/fold-name.test.ts): dotless `ı` folds to `i`
 * (upper-casing makes it `I`), and Cherokee folds to its small letters, not its capitals, which
 * puts the same letters together.
 */
export function foldName(text: string): string {
  // ASCII needs none of that: lower-casing is its whole folding.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFC')
    .toUpperCase()
    .toLowerCase()
    .replaceAll('ς', 'σ')
    .replaceAll('ß', 'ss');
}

/** Any character outside ASCII: only such names need more than lower-casing. */
const NON_ASCII = /[^\p{ASCII}]/u;
