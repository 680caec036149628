/**
 * Folding pinned to Unicode's CaseFolding.txt (full folding, statuses C and F): each expected
 * string is written out here from that file, not computed by any code under test. The reference
 * engine's own folding (test/helpers/reference-fold.ts) is held to the same strings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldName } from '../../src/query/fold-name.ts';
import { referenceFold } from '../helpers/reference-fold.ts';

/** [text, its full case folding], from CaseFolding.txt. */
const FOLDED: readonly (readonly [string, string])[] = [
  ['Oak TABLE 100%', 'oak table 100%'],
  ['Straße', 'strasse'], // 00DF; F; 0073 0073
  ['STRAẞE', 'strasse'], // 1E9E; F; 0073 0073
  ['ς', 'σ'], // 03C2; C; 03C3
  ['ΣΟΦΟΣ σοφος', 'σοφοσ σοφοσ'],
  ['Ǆ ǅ', 'ǆ ǆ'], // 01C4, 01C5; C; 01C6
  ['µ', 'μ'], // 00B5; C; 03BC
  ['K', 'k'], // 212A (KELVIN SIGN); C; 006B
  ['ſ', 's'], // 017F; C; 0073
  ['ﬁ ﬂ', 'fi fl'], // FB01, FB02; F
  ['İ', 'i\u0307'], // 0130; F; 0069 0307
  ['ŉ', '\u02bcn'], // 0149; F; 02BC 006E
  ['ᾳ', 'αι'], // 1FB3; F; 03B1 03B9
  ['ΐ', '\u03b9\u0308\u0301'], // 0390; F; 03B9 0308 0301
  ['Ωmega', 'ωmega'],
  // NFC first: é typed as e + U+0301 is the one letter é.
  ['Cafe\u0301', 'café'],
  ['', ''],
];

describe('foldName', () => {
  it.each(FOLDED)('folds %j to %j', (text, folded) => {
    expect(foldName(text)).toBe(folded);
  });

  it('differs from CaseFolding.txt where its comment says, and only there', () => {
    // 13A0 and AB70 are one Cherokee letter; CaseFolding.txt folds both to 13A0.
    expect(foldName('\u13a0')).toBe('\uab70');
    expect(foldName('\uab70')).toBe('\uab70');
    // CaseFolding.txt leaves the dotless ı as it is.
    expect(foldName('ı')).toBe('i');
  });
});

describe('the reference engine’s folding', () => {
  it.each(FOLDED)('folds %j to %j', (text, folded) => {
    expect(referenceFold(text)).toBe(folded);
  });

  it('puts the same texts together as foldName, over the letters the catalogue tests use', () => {
    const letters = fc.constantFrom(...'aAbBéÉeE\u0301ßSsẞςσΣµμﬁfiİi %_*.'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: letters }), fc.string({ unit: letters }), (a, b) => {
        expect(referenceFold(a) === referenceFold(b)).toBe(foldName(a) === foldName(b));
      }),
    );
  });
});
