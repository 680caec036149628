/**
 * @module What generated requests ask a text filter with, from the values a list serves: pieces
 * from any code point, of any length, in any case; each rarer character alone; the longest
 * values, whole and one character past their end.
 */
import fc from 'fast-check';

/** At most this many rarer characters are asked alone. */
const RARE_CHARACTERS = 32;

/** The served texts, their rarer characters, and the texts by length, longest first. */
export interface TextMaterial {
  readonly texts: readonly string[];
  /**
   * Beyond the BMP first (two UTF-16 units, four UTF-8 bytes), then the ASCII characters that are
   * not letters, digits or spaces (`&`, `%`, `+`, `=`: where a query is split and decoded), then
   * the rest of every script the texts hold.
   */
  readonly rare: readonly string[];
  readonly longest: readonly string[];
}

export function textMaterial(texts: readonly string[]): TextMaterial {
  const rank = (character: string) =>
    (character.codePointAt(0) ?? 0) > 0xffff ? 0 : /^[^\w\s]$/.test(character) ? 1 : 2;
  const rare = [...new Set(texts.flatMap((text) => Array.from(text)))]
    .filter((character) => (character.codePointAt(0) ?? 0) > 0x7f || rank(character) === 1)
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, RARE_CHARACTERS);
  const longest = [...texts].sort((a, b) => Array.from(b).length - Array.from(a).length);
  return { texts, rare, longest };
}

/** One of the values, by index: a million values as arguments would overflow the stack. */
export function pickFrom(values: readonly string[]): fc.Arbitrary<string> {
  return fc.integer({ min: 0, max: values.length - 1 }).map((index) => values[index] ?? '');
}

/** A piece of a served text: from any code point, of any length, as written or in another case. */
function piece(texts: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.integer({ min: 0, max: texts.length - 1 }),
      fc.nat(),
      fc.nat(),
      fc.constantFrom('as written', 'as written', 'upper', 'lower'),
    )
    .map(([index, from, length, casing]) => {
      const points = Array.from(texts[index] ?? '');
      const start = from % Math.max(1, points.length);
      const cut = points.slice(start, start + 1 + (length % (points.length - start))).join('');
      return casing === 'upper' ? cut.toUpperCase() : casing === 'lower' ? cut.toLowerCase() : cut;
    });
}

/** Characters added past a whole value's end: a needle cut short finds the value then. */
const PAST_THE_END = ['s', ' X', '0'] as const;

/**
 * Needles from served texts: pieces, whole values, the longest ones (as often as all others)
 * one character past their end, each rarer character alone, empty, and noise.
 */
export function textValue(material: TextMaterial): fc.Arbitrary<string> {
  const { texts, rare, longest } = material;
  const noise = fc.string({ maxLength: 5 });
  if (texts.length === 0) return noise;
  return fc.oneof(
    { weight: 3, arbitrary: piece(texts) },
    { weight: 2, arbitrary: pickFrom(texts) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.oneof(
            fc.integer({ min: 0, max: Math.ceil(longest.length / 4) - 1 }),
            fc.integer({ min: 0, max: longest.length - 1 }),
          ),
          fc.constantFrom(...PAST_THE_END),
        )
        .map(([index, more]) => `${longest[index] ?? ''}${more}`),
    },
    ...(rare.length > 0 ? [{ weight: 1, arbitrary: pickFrom(rare) }] : []),
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: noise },
  );
}

/**
 * A text filter's edges, asked on purpose: empty, each rarer character alone, the longest value
 * whole, one character past its end and upper-cased, and a short piece of it.
 */
export function textEdges(material: TextMaterial): string[] {
  const [long = ''] = material.longest;
  return [
    '',
    ...material.rare,
    long,
    `${long}${PAST_THE_END[0]}`,
    long.toUpperCase(),
    shortPiece(long),
  ];
}

/** Three code points from the second on: a piece of a value, not its start. */
export function shortPiece(text: string): string {
  return Array.from(text).slice(1, 4).join('');
}

/** Every UTF-8 octet as `%XX`, unreserved ones too: RFC 3986 §2.1 reads them as the same. */
export function everyOctet(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((octet) => `%${octet.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}
