/**
 * @module The checker's own case folding, written apart from the server's on purpose: a bug in
 * the stand-in's folding must not move its judge with it.
 */

/**
 * PRODUCT.md's "Unicode-aware case folding": canonically composed text, upper- then lower-cased
 * (so `ß` meets `SS`), with the final sigma `ς` as `σ` (CaseFolding.txt folds both to `σ`) and
 * the capital `ẞ`, which JavaScript lower-cases to `ß`, as `ss` (CaseFolding.txt: 1E9E; F).
 */
export function foldCase(text: string): string {
  return text
    .normalize('NFC')
    .toUpperCase()
    .toLowerCase()
    .replaceAll('ς', 'σ')
    .replaceAll('ß', 'ss')
    .normalize('NFC');
}

/**
 * The loosest match a correct service could make of a literal substring: compatibility forms
 * decomposed, accents dropped, case folded. What a name filter keeps must match this much.
 */
export function foldLoosely(text: string): string {
  let folded = loosely.get(text);
  if (folded === undefined) {
    folded = foldCase(text.normalize('NFKD').replaceAll(/\p{M}/gu, ''))
      .normalize('NFKD')
      .replaceAll(/\p{M}/gu, '');
    // The model folds every served text for every request: each once, within a bound of
    // texts and of length (a target's texts may be of any size).
    if (loosely.size >= LOOSELY_KEPT) loosely.clear();
    if (text.length <= LONGEST_KEPT) loosely.set(text, folded);
  }
  return folded;
}

const LOOSELY_KEPT = 100_000;
const LONGEST_KEPT = 1_000;
const loosely = new Map<string, string>();
