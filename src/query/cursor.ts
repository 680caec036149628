/**
 * @module Cursors: an opaque text that names where the next page of one list starts.
 *
 * A cursor names the last item a page gave, by its key and its place then, not an offset
 * alone: where the list is unchanged the place is read back at once, and where items came or
 * went before it, the next page still starts right after that item (by key, in key order), so
 * that nothing repeats and nothing is skipped. It also carries a tag of the list it was made
 * for (the operation, its filters and order, the spec): a cursor from another list, another
 * filter or a former spec is refused, never read as a wrong page.
 */
import { createHash } from 'node:crypto';
import type { Key } from './keys.ts';

/** Where a cursor says the next page starts: after this item, which was at this place. */
export interface CursorPosition {
  readonly key: Key;
  /** The item's place in the list when the cursor was made, from 0. */
  readonly index: number;
}

/** What makes a list the one a cursor was made for. */
export type ListIdentity = readonly string[];

/** The tag of a list: a short digest of what makes it that list. */
export function listTag(identity: ListIdentity): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('base64url').slice(0, 12);
}

export function encodeCursor(tag: string, position: CursorPosition): string {
  return Buffer.from(JSON.stringify([tag, position.index, position.key])).toString('base64url');
}

/**
 * The position a cursor names, if it was made for the list with this tag; a text why not
 * otherwise (not a cursor at all, or one of another list).
 */
export function decodeCursor(text: string, tag: string): CursorPosition | string {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,2048}$/.test(text)) throw new Error('not base64url');
    const bytes = Buffer.from(text, 'base64url');
    // Node's decoder drops what does not make a whole byte: a cursor with a character added
    // would read as the one it was made from.
    if (bytes.toString('base64url') !== text) throw new Error('not canonical');
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'is not a cursor this list gave';
  }
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
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
  return { index: value[1] as number, key: value[2] as Key };
}
