/**
 * @module The values a declared filter is asked with on purpose: served values that keep some
 * items but not all, bounds at served numbers and instants, pieces, the other case, spaces
 * around, text beyond ASCII, and the same instant in another offset.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { DeclaredFilter } from '../declared.ts';
import { foldCase, foldLoosely } from '../oracle/fold-case.ts';
import { instantsOf } from '../oracle/instants.ts';
import type { Id } from '../walk.ts';

/**
 * Values that tell a working filter from one that ignores its parameter or reads it otherwise:
 * served values that keep some items but not all (a bound at a served number, so that whether it
 * is inclusive shows), and a piece of a served text for `contains`.
 */
export function probeValues(
  filter: DeclaredFilter,
  values: readonly unknown[],
  /** The items' keys, in the order of `values`: a text filter must not match them. */
  keys: readonly Id[] = [],
): string[] {
  const counts = new Map<string, number>();
  for (const value of values) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
    }
  }
  const byCount = [...counts].sort((a, b) => a[1] - b[1]).map(([text]) => text);
  if (filter.match === 'exact') {
    const narrowing = byCount.filter((text) => (counts.get(text) ?? 0) < values.length);
    // A piece of a served text too: equal is not "contains" nor "starts with".
    const text = values.find((value) => typeof value === 'string' && value.length >= 2);
    const piece = typeof text === 'string' ? text.slice(0, -1) : undefined;
    // In another case: an exact match is not a case-insensitive one. Not for UUIDs, which
    // RFC 9562 §4 lets a service read in any case.
    const cased = isUuid(filter.schema)
      ? undefined
      : values.find(
          (value) => typeof value === 'string' && value.toUpperCase() !== value.toLowerCase(),
        );
    const swapped =
      typeof cased === 'string'
        ? cased === cased.toUpperCase()
          ? cased.toLowerCase()
          : cased.toUpperCase()
        : undefined;
    // With spaces around it: an exact match does not trim.
    const spaced = typeof text === 'string' ? ` ${text} ` : undefined;
    // A served text beyond ASCII held by several items: its links must carry it as UTF-8.
    const unicode = byCount
      .filter((probe) => /[^\p{ASCII}]/u.test(probe) && (counts.get(probe) ?? 0) >= 2)
      .at(-1);
    // Each value an enum lists: a filter that ignores one of them shows only there.
    const listed = Array.isArray(filter.schema.enum) ? filter.schema.enum.map(String) : [];
    return [
      ...new Set([
        narrowing[0],
        narrowing.at(-1),
        byCount[0],
        piece,
        swapped,
        spaced,
        unicode,
        ...listed.slice(0, 20),
      ]),
    ].filter((probe) => probe !== undefined);
  }
  if (filter.match === 'contains') {
    const texts = values.filter((value) => typeof value === 'string');
    const middle = texts.filter((text) => text.length >= 3)[Math.floor(texts.length / 2)];
    const start = Math.floor(((middle?.length ?? 0) - 3) / 2);
    const pieces = middle === undefined ? [] : [middle.slice(start, start + 3), middle];
    return [
      ...new Set([
        ...pieces,
        ...pickNeedles(texts),
        ...edgeNeedles(texts, keys),
        ...spacedNeedle(texts),
      ]),
    ];
  }
  const numbers = values.filter((value) => typeof value === 'number').sort((a, b) => a - b);
  if (numbers.length === 0) return instantProbes(filter, values);
  // And 0, which a falsy test reads as "not given"; and for a decimal parameter, a fraction
  // between two served values, which a parameter read as an integer cuts to the lower one.
  const middle = Math.floor(numbers.length / 2);
  return [
    ...new Set([
      numbers[middle],
      numbers[1],
      numbers.at(-2),
      0,
      ...(filter.schema.type === 'number' ? [between(numbers, middle)] : []),
    ]),
  ].flatMap((value) => (value === undefined ? [] : [String(value)]));
}

/**
 * A number between a served value and the next larger one, with a fraction, written short: the
 * first of `a + 0.5`, `a + 0.05`, … that stays below the next value.
 */
function between(numbers: readonly number[], at: number): number | undefined {
  const low = numbers[at];
  const high = numbers.slice(at).find((value) => low !== undefined && value > low);
  if (low === undefined || high === undefined) return undefined;
  for (let step = 0.5; step > 1e-6; step /= 10) {
    const candidate = Number((low + step).toFixed(7));
    if (candidate > low && candidate < high && !Number.isInteger(candidate)) return candidate;
  }
  return undefined;
}

function isUuid(schema: OpenAPIV3_1.SchemaObject): boolean {
  const items = 'items' in schema ? (schema.items as OpenAPIV3_1.SchemaObject) : schema;
  return schema.format === 'uuid' || items.format === 'uuid';
}

/**
 * Bounds on dates or date-times: served values, in the parameter's format (the day of a
 * date-time, for a parameter of `format: date`), so that whether the bound is inclusive shows.
 */
function instantProbes(filter: DeclaredFilter, values: readonly unknown[]): string[] {
  const dated = values
    .flatMap((value) => {
      const instants = typeof value === 'string' ? instantsOf(value) : undefined;
      return instants === undefined
        ? []
        : [{ text: value as string, at: instants.kind === 'date' ? instants.from : instants.at }];
    })
    .sort((a, b) => a.at - b.at);
  const asDay = filter.schema.format === 'date';
  const chosen = [dated[Math.floor(dated.length / 2)], dated[1], dated.at(-2)];
  // The same instant in another offset: text compared as text orders it elsewhere.
  const moved = asDay
    ? []
    : chosen.flatMap((entry) => (entry === undefined ? [] : [inOtherOffset(entry.at, entry.text)]));
  return [
    ...new Set([
      ...chosen.flatMap((entry) =>
        entry === undefined ? [] : [asDay ? entry.text.slice(0, 10) : entry.text],
      ),
      ...moved,
    ]),
  ];
}

/** An instant written with an offset other than the one it was served with: +05:30, or Z. */
function inOtherOffset(at: number, served: string): string {
  const utc = /(?:Z|z|[+-]00:00)$/.test(served);
  const minutes = utc ? 330 : 0;
  const local = new Date(at + minutes * 60_000).toISOString().slice(0, 19);
  return utc ? `${local}+05:30` : `${local}Z`;
}

/** Characters that regular expressions, SQL LIKE or globs treat as special: each must be literal. */
const SPECIAL_NEEDLES = ['%', '_', '*', '?', '.', '(', '[', '\\', '^', '$', '+', '|', '.*', '%a'];

/**
 * Needles: from the served names, a word in another case, a middle piece, a non-ASCII letter in
 * another case, each rare character; and the characters special to regexes, LIKE and globs.
 * Name-derived needles that match the fewest names first, so that a large catalogue stays fast.
 */
export function pickNeedles(names: readonly string[]): string[] {
  const fromNames = new Set<string>();
  for (const name of names.slice(0, 40)) {
    const word = name.split(/\s+/).find((part) => part.length >= 3);
    if (word !== undefined) fromNames.add(word.toUpperCase());
    if (name.length >= 5) fromNames.add(name.slice(1, 4).toLowerCase());
  }
  // Words with letters beyond ASCII, in the other case: `STRASSE` for `Straße`, `élan` for `ÉLAN`.
  const unicode = new Set<string>();
  const rare = new Set<string>();
  for (const name of names) {
    for (const word of name.split(/\s+/)) {
      if (unicode.size >= 8 || !/[^\p{ASCII}]/u.test(word) || !/\p{L}/u.test(word)) continue;
      const swapped = word === word.toUpperCase() ? word.toLowerCase() : word.toUpperCase();
      if (swapped !== word) unicode.add(swapped);
    }
    for (const char of name) {
      // A combining mark alone is no needle: whether it matches depends on normalization.
      if (rare.size < 12 && /[^\p{L}\p{M}\p{N}\s]/u.test(char)) rare.add(char);
    }
  }
  const loose = names.map(foldLoosely);
  // Whole names without their accents (`Cafe table` of `Café table`): kept by accent folding,
  // which Unicode case folding does not do. Only where no name holds it in any normal form, so
  // that whether it matches never depends on normalization.
  const forms = names.flatMap((name) =>
    [name, name.normalize('NFC'), name.normalize('NFD')].map(foldCase),
  );
  const bare: string[] = [];
  for (const name of names) {
    const text = name.normalize('NFD').replace(/\p{M}/gu, '');
    // A name without marks holds itself: only names that lost an accent can be bare needles.
    if (bare.length >= 4 || text === name.normalize('NFD')) continue;
    const folded = foldCase(text);
    if (!forms.some((form) => form.includes(folded))) bare.push(text);
  }
  const counts = new Map(
    [...fromNames].map((needle) => {
      const folded = foldLoosely(needle);
      return [needle, loose.filter((name) => name.includes(folded)).length] as const;
    }),
  );
  const selective = [...fromNames]
    .sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0))
    .slice(0, 6);
  return [...new Set([...selective, ...unicode, ...bare, ...rare, ...SPECIAL_NEEDLES])];
}

/**
 * Needles at the edges of "a substring match with wildcards on both sides" (the interface),
 * each chosen so that a wrong reading keeps a name the right one does not:
 * - the empty needle (every name holds it);
 * - a word with the space before it and one with the space after it, kept as written;
 * - a space before the end of a longer word (` chair` of `armchair`) and after the start of
 *   one (`dini ` of `dining`): trimmed, they would match inside the word;
 * - two words of one name that are apart in it (`Café Table` of `Café Side Table`): a space
 *   read as "any run of characters" would match;
 * - an id's digits that no name holds (a name filter matches names, not ids).
 */
export function edgeNeedles(names: readonly string[], ids: readonly Id[]): string[] {
  const needles = new Set<string>(['']);
  for (const name of names.slice(0, 40)) {
    const words = name.split(' ');
    const [first, second] = words;
    if (first !== undefined && second !== undefined && first.length >= 2 && second.length >= 2) {
      needles.add(` ${second}`);
      needles.add(`${first} `);
      if (needles.size >= 5) break;
    }
  }
  const holds = (needle: string) => names.some((name) => name.includes(needle));
  const inside = new Set<string>();
  for (const word of names.flatMap((name) => name.split(' '))) {
    if (inside.size >= 2 || word.length < 6 || !/^\p{L}+$/u.test(word)) continue;
    if (!holds(` ${word.slice(-4)}`)) inside.add(` ${word.slice(-4)}`);
    if (!holds(`${word.slice(0, 4)} `)) inside.add(`${word.slice(0, 4)} `);
  }
  const apart = new Set<string>();
  for (const words of names.map((name) => name.split(' '))) {
    const [first, , third] = words;
    if (apart.size >= 2 || first === undefined || third === undefined) continue;
    if (first.length >= 2 && third.length >= 2 && !holds(`${first} ${third}`)) {
      apart.add(`${first} ${third}`);
    }
  }
  for (const needle of [...inside, ...apart]) needles.add(needle);
  const digits = ids
    .filter((id) => typeof id === 'number' && id >= 10)
    .map(String)
    .find((text) => names.every((name) => !name.includes(text)));
  if (digits !== undefined) needles.add(digits);
  return [...needles];
}

/**
 * A needle with a space that several texts hold (a word after a space, up to 30 of them): over
 * several pages, its links must carry the space so that the service reads it back.
 */
function spacedNeedle(texts: readonly string[]): string[] {
  const candidates = new Set<string>();
  for (const text of texts) {
    const [first, second] = text.split(' ');
    if (first !== undefined && second !== undefined && second !== '') {
      candidates.add(` ${second}`);
      candidates.add(`${first} ${second}`);
    }
    // Each is counted over every text: a few hundred tell enough, whatever the list's size.
    if (candidates.size >= SPACED_CANDIDATES) break;
  }
  const counted = [...candidates].map((candidate) => ({
    candidate,
    count: texts.filter((text) => text.includes(candidate)).length,
  }));
  const [best] = counted
    .filter(({ count }) => count >= 3 && count <= 30)
    .sort((a, b) => b.count - a.count);
  return best === undefined ? [] : [best.candidate];
}

const SPACED_CANDIDATES = 200;
