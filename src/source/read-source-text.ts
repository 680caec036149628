/** @module A source file's text, or a SourceError that names the file when it cannot be read. */
import { readFile, stat } from 'node:fs/promises';
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
}

/**
 * Why not chokidar's `awaitWriteFinish`: it gates the watcher's own events, but reloads also
 * come from SIGHUP and the admin API and read the same files; one check here serves all three,
 * and a file that is old already (the usual case) costs two `stat` calls, not a wait.
 */
export async function readSourceText(file: string, options: ReadOptions = {}): Promise<string> {
  const { settleMs = 0, timeoutMs = 30_000 } = options;
  const deadline = Date.now() + timeoutMs;
  // The file as last seen, and since when it has looked so.
  let seen: { readonly size: number; readonly mtimeMs: number; readonly since: number } | undefined;
  try {
    for (;;) {
      if (settleMs === 0) return await readFile(file, 'utf8');
      const now = Date.now();
      const before = await stat(file);
      if (seen?.size !== before.size || seen.mtimeMs !== before.mtimeMs) {
        seen = { size: before.size, mtimeMs: before.mtimeMs, since: now };
      }
      // Quiet for as long as its modification time says, or as long as it has looked the same
      // here: a modification time in the future (a skewed clock on a network share) never ages.
      const quietFor = Math.max(now - before.mtimeMs, now - seen.since);
      if (quietFor >= settleMs) {
        const text = await readFile(file, 'utf8');
        const after = await stat(file);
        if (after.size === before.size && after.mtimeMs === before.mtimeMs) return text;
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
