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
  close(): void;
}

/** Debounced: a burst of events (write, rename, chmod) gives one call, `delayMs` after the last. */
export function watchFiles(
  files: readonly string[],
  onChange: (file: string) => void,
  delayMs = 50,
): FileWatch {
  const byFolder = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byFolder.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byFolder.set(dirname(file), names);
  }
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = [...byFolder].map(([folder, names]) =>
    watch(folder, (_event, name) => {
      if (name === null || !names.has(name)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        onChange(`${folder}/${name}`);
      }, delayMs);
    }),
  );
  return {
    close() {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
