/**
 * @module Records a view wrote, kept as UTF-8 bytes from the first time they are shown, to be
 * read back instead of written again.
 *
 * Why: a record is written from its columns, one random read per field, and the reads miss the
 * CPU's caches. Profiled at 100 000 invoices of nine fields, pages of 20 sorted records spent
 * more CPU reading fields than anything else, the socket included. A kept record is one read of
 * contiguous bytes: 125 µs of CPU a request became 75–95.
 *
 * Why bytes and not strings: a million kept strings are a million objects for every full
 * collection to mark; a few buffers are none. Each view's store is bounded per collection: a
 * million products at the widest view of the shipped spec (the product list's, about 130 bytes a
 * record) fit. Past the bound, records are written from their columns as before.
 *
 * Why a kept record is read back as a string and not copied as bytes into the answer: Node's
 * HTTP/1.1 writes a string body in one write with its head, and a Buffer body as a second chunk
 * (writev); and joining bytes in JavaScript cost more than a rope of the kept strings (1.2
 * against 0.84 µs a page of 10 records, measured; see bench/README.md, issue 52).
 */
import type { Collection } from './collection.ts';
import type { RecordWriter } from './view-writer.ts';

/** The bytes kept of one view's records, per collection. */
export const KEPT_RECORD_BYTES = 128 * 1024 * 1024;
/**
 * Records are kept in buffers of up to this size, each twice the one before from the first's;
 * a longer record is written each time.
 */
const CHUNK_BYTES = 1024 * 1024;
/**
 * The first chunk: 16 KiB, or 128 bytes a record for a small collection (a session's written
 * records are a collection of a few, made anew at each write).
 */
const FIRST_CHUNK_BYTES = 16 * 1024;
const FIRST_CHUNK_BYTES_PER_RECORD = 128;
/** A record's place is its chunk and its offset in one integer: offsets take the low bits. */
const OFFSET_BITS = 20;

/** What is kept of one collection. */
interface Store {
  readonly chunks: Buffer[];
  /** Where each position's record is: chunk << OFFSET_BITS | offset. */
  readonly places: Int32Array;
  /** Each position's byte length; 0 if not kept. */
  readonly lengths: Int32Array;
  /** Bytes used of the last chunk. */
  used: number;
  /** Bytes kept in all. */
  kept: number;
}

/** Options for the tests, which reach the bound with small records. */
export interface KeptRecordsLimits {
  readonly maxBytes: number;
  readonly chunkBytes: number;
}

/** The writer, with the records it wrote kept and read back. */
export function keepWrittenRecords(
  write: RecordWriter,
  limits: KeptRecordsLimits = { maxBytes: KEPT_RECORD_BYTES, chunkBytes: CHUNK_BYTES },
): RecordWriter {
  if (limits.chunkBytes > 1 << OFFSET_BITS) throw new Error('A chunk must fit its offset bits');
  // By collection: a reload or another scenario is another collection, and an old one goes with
  // its store.
  const stores = new WeakMap<Collection, Store>();
  return (collection, position) => {
    let store = stores.get(collection);
    if (store === undefined) {
      store = {
        chunks: [],
        places: new Int32Array(collection.size),
        lengths: new Int32Array(collection.size),
        used: 0,
        kept: 0,
      };
      stores.set(collection, store);
    }
    const length = store.lengths[position] as number;
    if (length > 0) {
      const place = store.places[position] as number;
      const chunk = store.chunks[place >>> OFFSET_BITS] as Buffer;
      const start = place & ((1 << OFFSET_BITS) - 1);
      return chunk.toString('utf8', start, start + length);
    }
    const json = write(collection, position);
    keep(store, position, json, limits);
    return json;
  };
}

function keep(store: Store, position: number, json: string, limits: KeptRecordsLimits): void {
  // A lone surrogate does not survive UTF-8; JSON text from JSON.stringify has none, but the
  // rest of a record is the fixture's own text.
  if (!json.isWellFormed()) return;
  const bytes = Buffer.byteLength(json);
  if (bytes === 0 || bytes > limits.chunkBytes || store.kept + bytes > limits.maxBytes) return;
  let chunk = store.chunks.at(-1);
  if (chunk === undefined || store.used + bytes > chunk.length) {
    const first = Math.min(FIRST_CHUNK_BYTES, FIRST_CHUNK_BYTES_PER_RECORD * store.places.length);
    const size = Math.min(
      limits.chunkBytes,
      Math.max(bytes, chunk === undefined ? first : 2 * chunk.length),
    );
    chunk = Buffer.allocUnsafe(size);
    store.chunks.push(chunk);
    store.used = 0;
  }
  const chunkIndex = store.chunks.length - 1;
  chunk.write(json, store.used, 'utf8');
  store.places[position] = (chunkIndex << OFFSET_BITS) | store.used;
  store.lengths[position] = bytes;
  store.used += bytes;
  store.kept += bytes;
}
