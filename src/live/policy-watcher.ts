import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Calls `changed` (debounced) when a file is written, replaced or renamed into place. The folder
 * is watched, not the file: editors and deploy tools often replace a file rather than write it,
 * which a watch on the file itself stops seeing.
 */
export function watchFile(file: string, changed: () => void, debounceMs = 150): { close(): void } {
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changedName) => {
      if (changedName !== null && changedName !== name) return;
      clearTimeout(timer);
      timer = setTimeout(changed, debounceMs);
    });
    watcher.on('error', () => undefined);
  } catch {
    watcher = undefined;
  }
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
