/**
 * @module Calls back when any of a set of files changes.
 *
 * Watches the files' folders rather than the files: editors and `mv` replace a file by renaming
 * a new one over it, which ends a watch on the old inode. Node's own `fs.watch` does this well
 * on Linux and macOS; chokidar would add polling fallbacks this tool does not need.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface FileWatch {
  /**
   * Watches these files from now on, in place of the last ones. A change seen but not yet
   * called back (the debounce) is still called back: a save that lands while a reload ends is
   * not lost.
   */
  update(files: readonly string[]): void;
  close(): void;
}

/** Debounced: a burst of events (write, rename, chmod) gives one call, `delayMs` after the last. */
export function watchFiles(
  files: readonly string[],
  onChange: (file: string) => void,
  delayMs = 50,
): FileWatch {
  let timer: NodeJS.Timeout | undefined;
  let watched = '';
  let watchers: FSWatcher[] = [];
  const update = (next: readonly string[]): void => {
    const key = [...new Set(next)].sort().join('\0');
    if (key === watched) return;
    watched = key;
    const byFolder = new Map<string, Set<string>>();
    for (const file of next) {
      const names = byFolder.get(dirname(file)) ?? new Set<string>();
      names.add(basename(file));
      byFolder.set(dirname(file), names);
    }
    // The new folders are watched before the old are let go: no moment watches nothing.
    const previous = watchers;
    watchers = [...byFolder].map(([folder, names]) =>
      watch(folder, (_event, name) => {
        if (name === null || !names.has(name)) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          onChange(`${folder}/${name}`);
        }, delayMs);
      }),
    );
    for (const watcher of previous) watcher.close();
  };
  update(files);
  return {
    update,
    close() {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
