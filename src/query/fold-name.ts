/** @module Case folding for the literal, case-insensitive `contains` match. */

/**
 * Folds a string for caseless comparison. JavaScript has no full Unicode case folding, so this
 * composes it: NFC first (so `é` typed either way matches), then upper- and lower-casing (so
 * `ß` matches `SS`), then the final sigma `ς` folds to `σ`, as Unicode's CaseFolding.txt does.
 */
export function foldName(text: string): string {
  // ASCII needs none of that: lower-casing is its whole folding.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFC').toUpperCase().toLowerCase().replaceAll('ς', 'σ');
}

/** Any character outside ASCII: only such names need more than lower-casing. */
const NON_ASCII = /[^\p{ASCII}]/u;
