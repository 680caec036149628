import { describe, expect, it } from 'vitest';
import type { Collection } from '../../src/dataset/collection.ts';
import { keepWrittenRecords, type KeptRecordsLimits } from '../../src/dataset/kept-records.ts';
import type { RecordWriter } from '../../src/dataset/view-writer.ts';

/** The store reads only a collection's size and identity. */
function collectionOf(size: number): Collection {
  return { size } as Collection;
}

/** A writer of fixed texts that counts its calls per position. */
function countingWriter(texts: readonly string[]): { write: RecordWriter; calls: number[] } {
  const calls = texts.map(() => 0);
  return {
    calls,
    write: (_collection, position) => {
      calls[position] = (calls[position] ?? 0) + 1;
      return texts[position] as string;
    },
  };
}

/**
 * Reads every text back through a store over a writer of them, in `rounds` rounds, each as it
 * was written; returns how often each was written.
 */
function readEachBack(
  texts: readonly string[],
  rounds: number,
  limits?: KeptRecordsLimits,
): number[] {
  const { write, calls } = countingWriter(texts);
  const kept = keepWrittenRecords(write, limits);
  const collection = collectionOf(texts.length);
  for (let round = 0; round < rounds; round++) {
    texts.forEach((text, position) => {
      expect(kept(collection, position)).toBe(text);
    });
  }
  return calls;
}

const TEXTS = [
  '{"id":1,"name":"plain"}',
  '{"id":2,"name":"Bäckerei Müller, Jörð"}',
  '{"id":3,"name":"astral 😀 𝄞"}',
  '{"id":4,"name":"lone \uD800 surrogate"}',
  '{"id":5,"name":"reversed pair \uDC00\uD800"}',
];

describe('kept records', () => {
  it('writes each record once and reads back its text from then on', () => {
    const calls = readEachBack(TEXTS, 4);
    // Written once, then read; text a lone surrogate would not survive as UTF-8 is written
    // every time.
    expect(calls).toEqual([1, 1, 1, 4, 4]);
  });

  it('keeps each collection apart', () => {
    const first = countingWriter(['{"a":1}', '{"a":2}']);
    const second = countingWriter(['{"b":1}', '{"b":2}']);
    const [a, b] = [collectionOf(2), collectionOf(2)];
    const kept = keepWrittenRecords((collection, position) =>
      collection === a ? first.write(a, position) : second.write(b, position),
    );
    for (let round = 0; round < 3; round++) {
      expect(kept(a, 1)).toBe('{"a":2}');
      expect(kept(b, 1)).toBe('{"b":2}');
    }
  });

  it('spans several chunks and reads every record back as it was', () => {
    const texts = Array.from(
      { length: 3000 },
      (_, n) => `{"id":${String(n)},"name":"${'é'.repeat(n % 37)}x${'z'.repeat(n % 11)}"}`,
    );
    const calls = readEachBack(texts, 3, { maxBytes: 1 << 20, chunkBytes: 4096 });
    expect(new Set(calls)).toEqual(new Set([1]));
  });

  it('reads back each record of a small collection, longer than 128 bytes a record', () => {
    const texts = [`{"n":"${'é'.repeat(300)}"}`, '{"n":1}', `{"n":"${'x'.repeat(200)}"}`];
    const calls = readEachBack(texts, 3);
    expect(calls).toEqual([1, 1, 1]);
  });

  it('writes records past its bound, and records longer than a chunk, every time', () => {
    const texts = ['{"n":"aaaaaaaaaa"}', '{"n":"bbbbbbbbbb"}', `{"n":"${'c'.repeat(100)}"}`];
    // Room for one record of 18 bytes, in chunks of 64.
    const calls = readEachBack(texts, 4, { maxBytes: 30, chunkBytes: 64 });
    expect(calls).toEqual([1, 4, 4]);
  });
});
