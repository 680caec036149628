/** @module A source file's text, or a SourceError that names the file when it cannot be read. */
import { isUtf8 } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SourceError } from '../problems/source-error.ts';

export interface ReadOptions {
  /**
   * Read only a file that has settled: not modified for this long, and the same size and
   * modification time after the read as before it. A file written in place, by a writer that
   * pauses midway, is otherwise valid YAML with half its products. 0 reads at once.
   */
  readonly settleMs?: number;
  /** How long a file may keep changing before it is refused; default 30 s. */
  readonly timeoutMs?: number;
  /** A larger file is refused before it is read (`maxFixtureBytes`); default: no limit. */
  readonly maxBytes?: number;
  /**
   * How each file looked when last read whole. A file that still looks so is whole; one now on
   * another inode was renamed over the old one (an editor's save, `mv`), and renaming is the
   * writer's last step: both are read at once, the renamed one unless it was written in place
   * since. Only a file written in place waits out `settleMs`.
   */
  readonly lastRead?: Readonly<Record<string, FileMark>>;
}

/** What tells a file's versions apart without reading it. */
export interface FileMark {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * Why not chokidar's `awaitWriteFinish`: it gates the watcher's own events, but reloads also
 * come from SIGHUP and the admin API and read the same files; one check here serves all three,
 * and a file that is old already (the usual case) costs two `stat` calls, not a wait.
 */
export async function readSourceText(file: string, options: ReadOptions = {}): Promise<string> {
  return (await readSourceBytes(file, options)).toString('utf8');
}

/**
 * A source file's bytes, read as readSourceText reads them and known to be UTF-8: for a reader
 * that may need only their digest (the load cache), not the text.
 */
export async function readSourceBytes(file: string, options: ReadOptions = {}): Promise<Buffer> {
  const { settleMs = 0, timeoutMs = 30_000, maxBytes, lastRead = {} } = options;
  const deadline = Date.now() + timeoutMs;
  // The file as last seen, and since when it has looked so.
  let seen: { readonly size: number; readonly mtimeMs: number; readonly since: number } | undefined;
  try {
    if (maxBytes !== undefined) refuseLarger(file, (await stat(file)).size, maxBytes);
    for (;;) {
      if (settleMs === 0) return utf8Bytes(file, await readFile(file));
      const now = Date.now();
      const before = await stat(file);
      if (seen?.size !== before.size || seen.mtimeMs !== before.mtimeMs) {
        seen = { size: before.size, mtimeMs: before.mtimeMs, since: now };
      }
      // Quiet for as long as its modification time says, or as long as it has looked the same
      // here: a modification time in the future (a skewed clock on a network share) never ages.
      const quietFor = Math.max(now - before.mtimeMs, now - seen.since);
      const mark = Object.hasOwn(lastRead, file) ? lastRead[file] : undefined;
      const unchanged =
        mark !== undefined &&
        mark.ino === before.ino &&
        mark.size === before.size &&
        mark.mtimeMs === before.mtimeMs;
      // Renamed into place, and not written since: a rename changes the folder, a write in place
      // only the file, so the folder is at least as new as the file. Without the second half, a
      // write in place begun on the renamed file before this read was read half-written.
      const renamed =
        mark !== undefined &&
        mark.ino !== before.ino &&
        (await stat(dirname(file))).mtimeMs >= before.mtimeMs;
      const known = unchanged || renamed;
      if (known || quietFor >= settleMs) {
        const bytes = await readFile(file);
        const after = await stat(file);
        const same =
          after.ino === before.ino &&
          after.size === before.size &&
          after.mtimeMs === before.mtimeMs;
        if (same) return utf8Bytes(file, bytes);
      }
      if (now > deadline) {
        throw new SourceError([
          {
            file,
            field: '',
            message: `kept changing for ${String(Math.round(timeoutMs / 1000))} s; not read`,
          },
        ]);
      }
      const wait = Math.min(settleMs - quietFor, deadline - now);
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 10)));
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    // Missing, gone since the config named it, a folder, unreadable: a refusal like any other.
    throw new SourceError([
      { file, field: '', message: `cannot be read (${(error as Error).message})` },
    ]);
  }
}

/**
 * The bytes as text, or a SourceError at the first byte that is not UTF-8: decoding would put
 * U+FFFD in its place, and serve a name the file never held.
 */
export function utf8Text(file: string, bytes: Buffer): string {
  return utf8Bytes(file, bytes).toString('utf8');
}

/** The bytes themselves where they are UTF-8; else the SourceError of utf8Text. */
function utf8Bytes(file: string, bytes: Buffer): Buffer {
  if (isUtf8(bytes)) return bytes;
  const offset = firstInvalidByte(bytes);
  const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let at = bytes.indexOf(0x0a); at >= 0 && at < offset; at = bytes.indexOf(0x0a, at + 1)) {
    line += 1;
  }
  // Columns count characters, as an editor shows them: those of the line's valid start.
  const column = bytes.toString('utf8', lineStart, offset).length + 1;
  throw new SourceError([
    {
      file,
      at: { line, column },
      field: '',
      message: 'is not UTF-8 text: a byte here is no character',
    },
  ]);
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Buffer): number {
  let at = 0;
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at);
    if (length === 0) return at;
    at += length;
  }
  return bytes.length;
}

/** The length of the well-formed UTF-8 sequence at `at` (RFC 3629 §4), or 0. */
function sequenceLength(bytes: Buffer, at: number): number {
  const first = bytes[at] as number;
  if (first < 0x80) return 1;
  const [length, low, high] =
    first >= 0xc2 && first <= 0xdf
      ? [2, 0x80, 0xbf]
      : first === 0xe0
        ? [3, 0xa0, 0xbf]
        : first === 0xed
          ? [3, 0x80, 0x9f]
          : first >= 0xe1 && first <= 0xef
            ? [3, 0x80, 0xbf]
            : first === 0xf0
              ? [4, 0x90, 0xbf]
              : first >= 0xf1 && first <= 0xf3
                ? [4, 0x80, 0xbf]
                : first === 0xf4
                  ? [4, 0x80, 0x8f]
                  : [0, 0, 0];
  if (length === 0) return 0;
  const second = bytes[at + 1];
  if (second === undefined || second < low || second > high) return 0;
  for (let next = 2; next < length; next++) {
    const byte = bytes[at + next];
    if (byte === undefined || byte < 0x80 || byte > 0xbf) return 0;
  }
  return length;
}

/** Refuses a file past the size limit, before a byte of it is read. */
function refuseLarger(file: string, size: number, maxBytes: number): void {
  if (size <= maxBytes) return;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  throw new SourceError([
    {
      file,
      field: '',
      message: `is ${mb(size)}, past the ${mb(maxBytes)} stockmock reads (maxFixtureBytes, or STOCKMOCK_MAX_FIXTURE_BYTES, raises it)`,
    },
  ]);
}

/** How each file that exists looks now, for `lastRead`: missing ones are left out. */
export async function marksOf(files: readonly string[]): Promise<Record<string, FileMark>> {
  const found = await Promise.all(
    files.map(async (file) => {
      try {
        const { ino, size, mtimeMs } = await stat(file);
        return [[file, { ino, size, mtimeMs }] as const];
      } catch {
        return [];
      }
    }),
  );
  return Object.fromEntries(found.flat());
}
