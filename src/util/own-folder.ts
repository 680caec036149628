/**
 * @module A folder that only this user can write, opened once, whose files are trusted only
 * when they are this user's too.
 *
 * A folder under a shared one (/tmp) can be swapped between checks by another user: a symlink,
 * renamed away, made again. So nothing here trusts a path twice. The folder is made with a
 * `mkdir` that fails if anything is there; what is there already is judged by `fstat` on a
 * handle opened without following links; on Linux its files are then named through that handle
 * (`/proc/self/fd/N/name`, what `openat` does in C), so a swap of the path changes nothing. Each
 * file is opened without following links and judged by `fstat` on the opened file: a regular
 * file, this user's, written by no one else, with one name. Where /proc is missing the files are
 * named by path, and the last check alone keeps out files that are not this user's.
 */
import { constants, existsSync } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readOpenedFile } from './read-opened-file.ts';

/** Written by no one but the owner. */
const OTHERS_WRITE = 0o022;

export interface OwnFolder {
  /** A file's bytes, where it is a regular file of this user's that no one else may write. */
  read(name: string): Promise<Buffer | undefined>;
  /** A new file (mode 0600), created where no file of that name is. */
  create(name: string): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** Marks a file as used now (its modification time). */
  touch(name: string): Promise<void>;
  /** The names of its files, with their sizes and modification times. */
  list(): Promise<{ name: string; size: number; mtimeMs: number }[]>;
  close(): Promise<void>;
}

const uid = (): number | undefined => process.getuid?.();

/**
 * The folder at `path`, made (mode 0700) if nothing is there; undefined where what is there is
 * not a folder of this user's that no one else may write, or it cannot be made.
 */
export async function openOwnFolder(path: string): Promise<OwnFolder | undefined> {
  let handle: FileHandle;
  try {
    await mkdir(dirname(path), { recursive: true });
    await mkdir(path, { mode: 0o700 }).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    });
    handle = await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  const found = await handle.stat();
  if (!found.isDirectory() || !isOwn(found)) {
    await handle.close();
    return undefined;
  }
  const through = `/proc/self/fd/${String(handle.fd)}`;
  const base = existsSync(through) ? through : path;
  const at = (name: string): string => {
    if (!isPlainName(name)) throw new Error(`not a file name of the folder: ${name}`);
    return join(base, name);
  };
  return {
    async read(name) {
      const read = await readOpenedFile(at(name), (stats) =>
        stats.isFile() && isOwn(stats) && stats.nlink === 1 ? undefined : 'not a file of its own',
      ).catch(() => undefined);
      return Buffer.isBuffer(read) ? read : undefined;
    },
    create: (name) =>
      open(
        at(name),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      ),
    rename: (from, to) => rename(at(from), at(to)),
    remove: (name) => unlink(at(name)),
    async touch(name) {
      const now = new Date();
      await utimes(at(name), now, now);
    },
    async list() {
      const names = (await readdir(base)).filter(isPlainName);
      const files = await Promise.all(
        names.map(async (name) => {
          const stats = await stat(at(name)).catch(() => undefined);
          return stats?.isFile() === true ? { name, size: stats.size, mtimeMs: stats.mtimeMs } : [];
        }),
      );
      return files.flat();
    },
    close: () => handle.close(),
  };
}

/** A name of this folder's own files: no path, no parent. */
function isPlainName(name: string): boolean {
  return /^[\w.-]+$/.test(name) && name !== '.' && name !== '..';
}

function isOwn(stats: { uid: number; mode: number }): boolean {
  const me = uid();
  return (me === undefined || stats.uid === me) && (stats.mode & OTHERS_WRITE) === 0;
}
