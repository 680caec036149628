/**
 * @module Keys made of words: `riverside-hall`, `the-old-mill`, then `riverside-hall-2`, from
 * texts such as the examples of a record's label. A key is a function of its place alone (the
 * text at the place modulo their number, and the round past the first as a suffix), and unique
 * by construction: no word part ends in a separator and digits, so the suffix is known.
 */

export interface WordKeys {
  readonly key: (index: number) => string;
  /** The text the key at a place was made from: the record's label, where it came from one. */
  readonly source: (index: number) => string;
}

/** Separators tried in turn, as a pattern allows them; '' writes `riversidehall2`. */
const SEPARATORS = ['-', '_', '.', ''];
/** Keys checked one by one here, at most; past them, the first and the last of each round. */
const CHECKED = 10_000;

/**
 * Keys from texts for `count` records, each one `accepts` takes (the pattern's matcher and the
 * lengths); undefined where no way of writing them (lower or upper case, a separator) fits.
 */
export function wordKeys(
  texts: readonly string[],
  count: number,
  accepts: (key: string) => boolean,
): WordKeys | undefined {
  for (const upper of [false, true]) {
    for (const separator of SEPARATORS) {
      const found = keysWith(texts, count, accepts, { separator, upper });
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function keysWith(
  texts: readonly string[],
  count: number,
  accepts: (key: string) => boolean,
  style: { readonly separator: string; readonly upper: boolean },
): WordKeys | undefined {
  const { separator } = style;
  const suffixed = separator === '' ? /\d$/ : new RegExp(`${escaped(separator)}\\d+$`);
  const bases: string[] = [];
  const sources: string[] = [];
  for (const text of texts) {
    const base = slugOf(text, style);
    if (base === '' || suffixed.test(base) || bases.includes(base)) continue;
    bases.push(base);
    sources.push(text);
  }
  if (bases.length === 0) return undefined;
  const rounds = Math.ceil(count / bases.length);
  const key = (index: number) => {
    const base = bases[index % bases.length] as string;
    const round = Math.floor(index / bases.length);
    return round === 0 ? base : `${base}${separator}${String(round + 1)}`;
  };
  // Every key where they are few; else each text bare, with the first suffix and the last.
  const places =
    count <= CHECKED
      ? Array.from({ length: count }, (_, i) => i)
      : bases.flatMap((_, i) => [i, i + bases.length, i + (rounds - 1) * bases.length]);
  if (!places.filter((place) => place < count).every((place) => accepts(key(place)))) {
    return undefined;
  }
  return { key, source: (index) => sources[index % sources.length] as string };
}

/** `Casa da Música` as `casa-da-musica`: letters without their accents, digits, separators. */
function slugOf(text: string, style: { readonly separator: string; readonly upper: boolean }) {
  const plain = text
    .normalize('NFKD')
    .replaceAll(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, ' ')
    .trim()
    .replaceAll(' ', style.separator);
  return style.upper ? plain.toUpperCase() : plain;
}

function escaped(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
