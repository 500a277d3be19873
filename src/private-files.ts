import { chmodSync, closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/**
 * Who may read the files calltape writes (cassettes, runs/shadow/ratings databases, reports,
 * exports, shard blobs), which hold prompts and answers: `private` (the default) creates files
 * `0600` and folders `0700` whatever the umask; `umask` leaves modes to the umask, for a team that
 * shares them through the file system. Set by the `fileAccess` configuration field or
 * `CALLTAPE_FILE_ACCESS`; the environment carries it, so worker threads follow it too.
 */
export type FileAccess = 'private' | 'umask';

/** The environment variable that holds the setting (the configuration sets it when loaded). */
export const fileAccessEnv = 'CALLTAPE_FILE_ACCESS';

const fileMode = 0o600;
const folderMode = 0o700;

/** The setting in force: `umask` only when asked for. */
export function fileAccess(): FileAccess {
  return process.env[fileAccessEnv] === 'umask' ? 'umask' : 'private';
}

/** Makes the setting the one in force for this process, its worker threads and its children. */
export function useFileAccess(access: FileAccess): void {
  process.env[fileAccessEnv] = access;
}

/**
 * Creates `folder` and any missing parents; the folders this call creates are `0700` (set
 * explicitly, the umask may allow more). Folders that already existed keep their mode: they are
 * the user's.
 */
export function makePrivateFolder(folder: string): void {
  if (fileAccess() === 'umask') {
    mkdirSync(folder, { recursive: true });
    return;
  }
  const first = mkdirSync(folder, { recursive: true, mode: folderMode });
  if (first === undefined) return;
  let path = first;
  chmodSync(path, folderMode);
  for (const part of relative(first, folder).split(sep).filter(Boolean)) {
    path = join(path, part);
    chmodSync(path, folderMode);
  }
}

/**
 * Writes a file calltape owns (a report, an export, a blob), creating it `0600` and its folder
 * `0700`. A file that already existed keeps its mode: someone chose it.
 */
export function writePrivateFile(path: string, data: string | Uint8Array): void {
  makePrivateFolder(dirname(path));
  if (fileAccess() === 'umask') {
    writeFileSync(path, data);
    return;
  }
  const created = !existsSync(path);
  writeFileSync(path, data, { mode: fileMode });
  if (created) chmodSync(path, fileMode);
}

/**
 * Readies a SQLite file calltape is about to open for writing: its folder is created `0700`, and
 * a missing file is created empty `0600` (SQLite takes an empty file as a new database), so it is
 * never readable by others, not even for a moment. SQLite creates `-wal` and `-shm` with the
 * database file's mode, so they are `0600` too; an existing database keeps the mode it has.
 */
export function preparePrivateDatabase(path: string): void {
  makePrivateFolder(dirname(path));
  if (fileAccess() === 'umask' || existsSync(path)) return;
  closeSync(openSync(path, 'a', fileMode));
  chmodSync(path, fileMode);
}
