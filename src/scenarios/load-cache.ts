/**
 * @module The load cache: a scenario built once is read back at the next start, not built again.
 *
 * Reading, validating and indexing 100 000 products takes a loading worker about 0.6 s, and a
 * million about 4 s; reading back what that built takes 30 ms and 0.4 s (the file is still read
 * whole, to know it is the same). A tester restarts the stand-in on the same data far more often
 * than they change it, so every start but the first after a change is that much faster.
 *
 * An entry is found by what it was built from, never by names or times: the SHA-256 of the
 * text of the fixture file (or the generator's count and seed) and of stockmock's own code. It
 * holds the digest of the load plan it was built by (the spec's declarations and the settings
 * that shape a load), and is used only when the plan is the same. Same input, same code, same
 * plan: the same columns, so a hit serves exactly what building would have. Only a load that
 * succeeded is kept; a file with issues is read and refused every time, as without a cache.
 *
 * An entry (cache-entry.ts) is written before the columns move to the serving thread, straight
 * from their arrays: 14 MB at 100 000 products, 133 MB at a million.
 *
 * Where: a folder of the user's own (mode 0700, owned by them, not writable by others), else
 * none is used: an entry is read as trusted data, so no other user may place one, nor swap the
 * folder under the path (util/own-folder.ts). Each entry carries a digest of its content, so
 * one damaged in place is built again (cache-entry.ts). Small
 * scenarios are not kept (files under MIN_CACHED_BYTES): they build in less time than the
 * digest takes. The folder is bounded: past MAX_CACHE_BYTES, entries least recently used go.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { GENERATED_BYTES_PER_RECORD } from '../generate/format-fixture.ts';
import { openOwnFolder, type OwnFolder } from '../util/own-folder.ts';
import { readEntry, writeEntry } from './cache-entry.ts';

/** A fixture file smaller than this is built, not cached. */
export const MIN_CACHED_BYTES = 4 * 1024 * 1024;
/** The folder holds at most this much; the entries least recently used go first. */
const MAX_CACHE_BYTES = 2 * 1024 * 1024 * 1024;
/** Bumped when an entry's layout changes, so that older entries are never read as new ones. */
const FORMAT = 'stockmock-load-cache-3';
const ENTRY_SUFFIX = '.load';

/** The default folder: the system's temporary folder, one per user. */
export function defaultLoadCacheDir(): string {
  return join(tmpdir(), `stockmock-load-cache-${String(userInfo().uid)}`);
}

/** What a scenario is built from, as a load reads it. */
export type CacheSource =
  | { readonly kind: 'file'; readonly bytes: Buffer }
  | { readonly kind: 'generated'; readonly count: number; readonly seed: number };

/** An entry read back: the digest of the plan it was built by, and what it built. */
export interface CachedLoad<T> {
  readonly planDigest: string;
  readonly loaded: T;
}

export interface LoadCache<T> {
  /** The entry's name for a source, or undefined where the source is too small to keep. */
  keyOf(source: CacheSource): Promise<string | undefined>;
  /** The entry of that key, if there is one that reads back whole. */
  read(key: string): Promise<CachedLoad<T> | undefined>;
  /**
   * Writes an entry (by rename: a reader sees all of it or nothing), then bounds the folder.
   * Before `loaded` moves to the serving thread: its arrays are written from where they are.
   */
  write(key: string, planDigest: string, loaded: T): Promise<void>;
  /** Lets go of the folder's handle. */
  close(): Promise<void>;
}

/** The digest of a load plan: structured (its Maps and Sets included), not its JSON. */
export function planDigestOf(plan: unknown): string {
  return createHash('sha256').update(v8.serialize(plan)).digest('hex');
}

/**
 * The cache in `dir`, created if missing; undefined where it cannot be used safely (another
 * owner, writable by others, not a folder, a link) or at all (a read-only file system).
 */
export async function openLoadCache<T>(
  dir: string,
  minBytes = MIN_CACHED_BYTES,
): Promise<LoadCache<T> | undefined> {
  const folder = await openOwnFolder(dir);
  if (folder === undefined) return undefined;
  const nameOf = (key: string): string => `${key}${ENTRY_SUFFIX}`;
  return {
    async keyOf(source) {
      const size =
        source.kind === 'file' ? source.bytes.length : source.count * GENERATED_BYTES_PER_RECORD;
      if (size < minBytes) return undefined;
      const hash = createHash('sha256')
        .update(FORMAT)
        .update(await codeDigest());
      if (source.kind === 'file') hash.update('\0file\0').update(source.bytes);
      else hash.update(`\0generated\0${String(source.count)}\0${String(source.seed)}`);
      return hash.digest('hex');
    },
    async read(key) {
      try {
        const bytes = await folder.read(nameOf(key));
        const entry = bytes === undefined ? undefined : readEntry(bytes);
        const planDigest = (entry?.meta as { planDigest?: unknown } | undefined)?.planDigest;
        if (entry === undefined || typeof planDigest !== 'string') return undefined;
        // Used now: the last to be pruned.
        await folder.touch(nameOf(key)).catch(() => undefined);
        return { planDigest, loaded: entry.value as T };
      } catch {
        // Not an entry that reads back whole: built again, and written over.
        return undefined;
      }
    },
    async write(key, planDigest, loaded) {
      const partial = `${nameOf(key)}.${String(process.pid)}.${String(Date.now())}.partial`;
      try {
        const handle = await folder.create(partial);
        try {
          await writeEntry(handle, { planDigest }, loaded);
        } finally {
          await handle.close();
        }
        await folder.rename(partial, nameOf(key));
        await prune(folder);
      } catch {
        // A full disk, a folder gone, a value it cannot keep: the next start builds again.
        await folder.remove(partial).catch(() => undefined);
      }
    },
    close: () => folder.close(),
  };
}

/** Removes the entries least recently used until the folder holds at most MAX_CACHE_BYTES. */
async function prune(folder: OwnFolder): Promise<void> {
  const entries = (await folder.list()).filter((entry) => entry.name.endsWith(ENTRY_SUFFIX));
  let total = entries.reduce((sum, entry) => sum + entry.size, 0);
  for (const entry of entries.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (total <= MAX_CACHE_BYTES) break;
    await folder.remove(entry.name).catch(() => undefined);
    total -= entry.size;
  }
}

let codeDigestOnce: Promise<string> | undefined;

/**
 * The digest of stockmock's own code (every module beside this one's folder, as run: dist/ when
 * installed, src/ in a clone's tests): a build that could build otherwise never reads an entry
 * of another, whatever its version number says.
 */
function codeDigest(): Promise<string> {
  codeDigestOnce ??= (async () => {
    const root = fileURLToPath(new URL('../', import.meta.url));
    const files = (await readdir(root, { recursive: true }))
      .filter((name) => /\.(js|ts)$/.test(name) && !name.endsWith('.d.ts'))
      .sort();
    const hash = createHash('sha256');
    for (const name of files) {
      hash.update(`\0${name}\0`).update(await readFile(join(root, name)));
    }
    return hash.digest('hex');
  })();
  return codeDigestOnce;
}
