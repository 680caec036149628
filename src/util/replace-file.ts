/**
 * @module A file written whole or not at all, never through a link planted at its name.
 *
 * The text goes to a new file beside the target, created exclusively (`wx`: O_CREAT|O_EXCL,
 * which refuses an existing name, a symbolic link included), under a name no one can guess;
 * then renamed over the target. A rename replaces whatever has the target's name, a link
 * included, and writes through nothing: another local user who plants a link at the name
 * where a command writes its report cannot have it write into their pick of the user's files.
 * A failed write leaves the old file.
 */
import { randomBytes } from 'node:crypto';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { open, rename, rm } from 'node:fs/promises';

/** Streams `write`'s output into `file`, replacing it once the stream has ended. */
export async function replaceFile<T>(
  file: string,
  write: (stream: Writable) => Promise<T>,
): Promise<T> {
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  const handle = await open(partial, 'wx', 0o644);
  const stream = handle.createWriteStream();
  try {
    const result = await write(stream);
    stream.end();
    await finished(stream);
    await rename(partial, file);
    return result;
  } catch (error) {
    stream.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

/** Replaces `file` with `text`. */
export async function replaceFileWithText(file: string, text: string): Promise<void> {
  await replaceFile(file, async (stream) => {
    stream.write(text);
  });
}
