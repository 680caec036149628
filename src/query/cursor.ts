/**
 * @module Cursors: an opaque text that names where the next (or the previous) page of one list
 * starts (or ends).
 *
 * A cursor names the last item a page gave (the first, for the page before), by its key and its
 * place then, not an offset alone: where the list is unchanged the place is read back at once,
 * and where items came or went before it, the next page still starts right after that item (by
 * key, in key order), so that nothing repeats and nothing is skipped. It also carries a tag of the list it was made
 * for (the operation, its filters and order, the spec): a cursor from another list, another
 * filter or a former spec is refused, never read as a wrong page.
 */
import type { Key } from './keys.ts';

/**
 * Where a cursor says a page is: right after this item (the next page), or right before it (the
 * page before), the item being at this place when the cursor was made.
 */
export interface CursorPosition {
  readonly key: Key;
  /** The item's place in the list when the cursor was made, from 0; -1 where not known (a key). */
  readonly index: number;
  readonly direction: 'after' | 'before';
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** What makes a list the one a cursor was made for. */
export type ListIdentity = readonly string[];

/**
 * The tags of one operation's lists, each a 62-bit digest of what makes it that list; what all of
 * them share (the spec) is digested once. Not a cryptographic digest: the tag tells lists apart
 * and authenticates nothing (a client can write any cursor of this list), and a SHA-256 on every
 * page was a third of what a cursor costs.
 */
export function listTagger(shared: string): (identity: ListIdentity) => string {
  // Two 32-bit FNV-1a lanes with different multipliers, each finished by murmur3's mix.
  const [low, high] = digestParts([shared], 0x811c9dc5, 0x27d4eb2f);
  return (identity) => {
    const [lowEnd, highEnd] = digestParts(identity, low, high);
    return base64urlDigits(finish(lowEnd), 5) + base64urlDigits(finish(highEnd), 6);
  };
}

function digestParts(
  parts: ListIdentity,
  lowStart: number,
  highStart: number,
): readonly [number, number] {
  let low = lowStart;
  let high = highStart;
  for (const part of parts) {
    for (let index = 0; index <= part.length; index++) {
      // A part ends in a code no UTF-16 unit has, so that ["ab", "c"] is not ["a", "bc"].
      const code = index < part.length ? part.charCodeAt(index) : 0x10000;
      low = Math.imul(low ^ code, 0x01000193);
      high = Math.imul(high ^ code, 0x5bd1e995);
    }
  }
  return [low, high];
}

/** The low `count` sixes of bits of a 32-bit number, as base64url digits. */
function base64urlDigits(bits: number, count: number): string {
  let text = '';
  for (let index = 0, rest = bits; index < count; index++, rest >>>= 6) {
    text += BASE64URL.charAt(rest & 0b111111);
  }
  return text;
}

/** murmur3's 32-bit finalizer: every input bit moves about half of the output's. */
function finish(hash: number): number {
  let mixed = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
  return (mixed ^ (mixed >>> 16)) >>> 0;
}

export function encodeCursor(tag: string, position: CursorPosition): string {
  const { index, key, direction } = position;
  const parts = direction === 'after' ? [tag, index, key] : [tag, index, key, BEFORE];
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** The mark of a cursor of the page before; a cursor without it is of the next page. */
const BEFORE = 'before';

/** The longest text read as a cursor; the ones given are under 100 characters. */
const MAX_CURSOR = 2048;

/** Each character's place in base64url's alphabet, or -1 (a table: no RegExp on every page). */
const DIGIT_OF = Int8Array.from({ length: 128 }, (_, code) =>
  BASE64URL.indexOf(String.fromCharCode(code)),
);

function isBase64url(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 128 || (DIGIT_OF[code] as number) < 0) return false;
  }
  return true;
}

/**
 * Whether unpadded base64url text ends as its encoder ends it: Node's decoder drops what does not
 * make a whole byte, so a cursor with a character added (or its last one changed in the bits no
 * byte uses) would read as the cursor it was made from.
 */
function canonicalEnd(text: string): boolean {
  const last = DIGIT_OF[text.charCodeAt(text.length - 1)] as number;
  switch (text.length % 4) {
    case 1:
      return false;
    case 2:
      return (last & 0b1111) === 0;
    case 3:
      return (last & 0b11) === 0;
    default:
      return true;
  }
}

/**
 * The position a cursor names, if it was made for the list with this tag; a text why not
 * otherwise (not a cursor at all, or one of another list).
 */
export function decodeCursor(text: string, tag: string): CursorPosition | string {
  let value: unknown;
  try {
    if (
      text.length === 0 ||
      text.length > MAX_CURSOR ||
      !isBase64url(text) ||
      !canonicalEnd(text)
    ) {
      throw new Error('not canonical base64url');
    }
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return 'is not a cursor this list gave';
  }
  if (
    !Array.isArray(value) ||
    (value.length !== 3 && (value.length !== 4 || value[3] !== BEFORE)) ||
    typeof value[0] !== 'string' ||
    !Number.isSafeInteger(value[1]) ||
    (value[1] as number) < 0 ||
    (typeof value[2] !== 'string' && !Number.isSafeInteger(value[2]))
  ) {
    return 'is not a cursor this list gave';
  }
  if (value[0] !== tag) {
    return 'was made for another list, other filters or another order, or a former spec: start again from the first page';
  }
  return {
    index: value[1] as number,
    key: value[2] as Key,
    direction: value.length === 4 ? 'before' : 'after',
  };
}
