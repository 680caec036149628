/**
 * @module A load cache entry's bytes: plain data whose typed arrays and long strings are written
 * as they are, after a JSON header that holds the rest.
 *
 * Why not v8.serialize: it builds the whole entry in memory first (133 MB for a million products,
 * on top of a load at its peak), and its reader can make any object. Here each array is written
 * straight from its own memory, and reading makes only plain objects (JSON), strings and the
 * typed arrays named in ARRAY_TYPES, each in a buffer of its own, so that it can move to the
 * serving thread. A value it cannot write exactly (a Map, NaN, a class) is refused, so an entry
 * never reads back as other than what was written.
 *
 * Layout: MAGIC, the SHA-256 of everything after it (32 bytes), the header's length (4 bytes,
 * little-endian), the header (UTF-8 JSON), then each part, each starting at a multiple of 8. The
 * digest is checked before anything is read: an entry damaged in place, at its right length,
 * would otherwise serve changed names, or ids and indexes that point anywhere. (SHA-256: 76 ms
 * for the 133 MB of a million products here, the fastest that node:crypto offers.)
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

const MAGIC = Buffer.from('stockmock-load-cache-4\n');
const DIGEST_BYTES = 32;
const CONTENT_START = MAGIC.length + DIGEST_BYTES;
/** Strings at least this long are parts of their own; shorter ones stay in the header. */
const LONG_STRING = 4096;
/** How much of a long string is encoded at a time, so its bytes never exist whole twice. */
const STRING_CHUNK = 1 << 20;
const ALIGN = 8;

const ARRAY_TYPES = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
} as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;

/** Where a part's bytes are, and what they are. */
type Part =
  | { readonly kind: 'array'; readonly type: ArrayTypeName; readonly bytes: number }
  | { readonly kind: 'string'; readonly bytes: number };

/** A part's place in the header's tree: no key of the data may look so (see escapeKey). */
const PART_KEY = '$part';

interface Header {
  readonly meta: unknown;
  readonly tree: unknown;
  readonly parts: readonly Part[];
}

/**
 * Writes `meta` and `value` to a file. Throws, having written part of it, where the value holds
 * something it cannot write exactly: the caller writes to a file of its own and renames it only
 * when this resolves.
 */
export async function writeEntry(handle: FileHandle, meta: unknown, value: unknown): Promise<void> {
  const parts: Part[] = [];
  const contents: (ArrayBufferView | string)[] = [];
  const tree = encode(value, (content) => {
    parts.push(
      typeof content === 'string'
        ? { kind: 'string', bytes: Buffer.byteLength(content) }
        : { kind: 'array', type: arrayTypeOf(content), bytes: content.byteLength },
    );
    contents.push(content);
    return { [PART_KEY]: parts.length - 1 };
  });
  const header = Buffer.from(JSON.stringify({ meta, tree, parts } satisfies Header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const digest = createHash('sha256');
  let at = 0;
  const write = async (bytes: Uint8Array | string): Promise<void> => {
    if (at >= CONTENT_START) digest.update(bytes);
    const { bytesWritten } = await (typeof bytes === 'string'
      ? handle.write(bytes, at, 'utf8')
      : handle.write(bytes, 0, bytes.length, at));
    at += bytesWritten;
  };
  await write(MAGIC);
  await write(Buffer.alloc(DIGEST_BYTES));
  await write(length);
  await write(header);
  for (const content of contents) {
    await write(Buffer.alloc(padding(at)));
    if (typeof content !== 'string') {
      await write(new Uint8Array(content.buffer, content.byteOffset, content.byteLength));
      continue;
    }
    let start = 0;
    while (start < content.length) {
      // A chunk never ends inside a surrogate pair: that would write two replacement characters.
      let end = Math.min(start + STRING_CHUNK, content.length);
      const last = content.charCodeAt(end - 1);
      if (end < content.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
      await write(content.slice(start, end));
      start = end;
    }
  }
  await handle.write(digest.digest(), 0, DIGEST_BYTES, MAGIC.length);
}

/** An entry's `meta` and value, or undefined where the bytes are not an entry, whole. */
export function readEntry(bytes: Buffer): { meta: unknown; value: unknown } | undefined {
  if (bytes.length < CONTENT_START + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    return undefined;
  }
  const digest = createHash('sha256').update(bytes.subarray(CONTENT_START)).digest();
  if (!digest.equals(bytes.subarray(MAGIC.length, CONTENT_START))) return undefined;
  const headerLength = bytes.readUInt32LE(CONTENT_START);
  const headerStart = CONTENT_START + 4;
  let at = headerStart + headerLength;
  if (at > bytes.length) return undefined;
  const header = JSON.parse(bytes.toString('utf8', headerStart, at)) as Header;
  const contents: (ArrayBufferView | string)[] = [];
  for (const part of header.parts) {
    at += padding(at);
    const end = at + part.bytes;
    if (end > bytes.length) return undefined;
    if (part.kind === 'string') contents.push(bytes.toString('utf8', at, end));
    else {
      if (!Object.hasOwn(ARRAY_TYPES, part.type)) return undefined;
      const Type = ARRAY_TYPES[part.type];
      if (part.bytes % Type.BYTES_PER_ELEMENT !== 0) return undefined;
      // A copy: a buffer of its own, which moves to the serving thread.
      const own = new ArrayBuffer(part.bytes);
      new Uint8Array(own).set(bytes.subarray(at, end));
      contents.push(new Type(own));
    }
    at = end;
  }
  if (at !== bytes.length) return undefined;
  return { meta: header.meta, value: decode(header.tree, contents) };
}

function padding(at: number): number {
  return (ALIGN - (at % ALIGN)) % ALIGN;
}

function arrayTypeOf(view: ArrayBufferView): ArrayTypeName {
  const name = Object.keys(ARRAY_TYPES).find(
    (type) => view instanceof ARRAY_TYPES[type as ArrayTypeName],
  );
  if (name === undefined) throw new Error(`a ${view.constructor.name} is not kept`);
  return name as ArrayTypeName;
}

/** The value as JSON-safe data, its arrays and long strings handed to `part`. */
function encode(value: unknown, part: (content: ArrayBufferView | string) => unknown): unknown {
  if (typeof value === 'string') return value.length >= LONG_STRING ? part(value) : value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Object.is(value, -0)) {
      throw new Error(`the number ${String(value)} is not kept`);
    }
    return value;
  }
  if (typeof value === 'boolean' || value === null) return value;
  if (ArrayBuffer.isView(value)) return part(value);
  if (Array.isArray(value)) {
    return value.map((item: unknown) => {
      if (item === undefined) throw new Error('an array holds undefined');
      return encode(item, part);
    });
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const encoded: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // An absent optional member, as JSON leaves it out.
      if (item !== undefined) encoded[escapeKey(key)] = encode(item, part);
    }
    return encoded;
  }
  throw new Error(`a ${typeof value} of this kind is not kept`);
}

function decode(tree: unknown, contents: readonly (ArrayBufferView | string)[]): unknown {
  if (Array.isArray(tree)) return tree.map((item) => decode(item, contents));
  if (typeof tree !== 'object' || tree === null) return tree;
  if (Object.hasOwn(tree, PART_KEY)) {
    const content = contents[(tree as Record<string, unknown>)[PART_KEY] as number];
    if (content === undefined) throw new Error('a part that is not there');
    return content;
  }
  return Object.fromEntries(
    Object.entries(tree).map(([key, item]) => [unescapeKey(key), decode(item, contents)]),
  );
}

/** A data key that starts with `$` gains another, so that none reads as PART_KEY. */
function escapeKey(key: string): string {
  return key.startsWith('$') ? `$${key}` : key;
}

function unescapeKey(key: string): string {
  return key.startsWith('$') ? key.slice(1) : key;
}
