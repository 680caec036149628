/**
 * @module Reading a file judged by what the opened file is, not by its path: opened without
 * following a link (a path swapped for one reads nothing) and without waiting for a FIFO's
 * writer, then judged by fstat on that very file before a byte is read.
 */
import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * The file's bytes, or why `judge` refused it (a regular file? whose? how large?). Opening
 * fails as `open` does: missing, a link, no permission.
 */
export async function readOpenedFile(
  path: string,
  judge: (stats: Stats) => string | undefined,
): Promise<Buffer | { readonly refused: string }> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const refused = judge(await handle.stat());
    return refused === undefined ? await handle.readFile() : { refused };
  } finally {
    await handle.close();
  }
}
