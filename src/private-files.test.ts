import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCassette } from './cassette/sqlite/open-cassette.js';
import { loadConfig } from './config/load-config.js';
import { ShadowStore } from './live/shadow-store.js';
import { fileAccessEnv } from './private-files.js';
import { RatingStore } from './ratings/rating-store.js';
import { openRunsDatabase } from './stores/runs-database.js';
import { writeBlob } from './runner/shard-blob-file.js';
import type { ShardBlob } from './runner/shard-blob.js';
import { temporaryFolder } from '../test/support/test-proxy.js';

// Regression for issue #30: the files calltape writes hold prompts, and were created under the
// umask (0644 files, 0755 folders: readable by every user of the machine).
const modeOf = (path: string): number => statSync(path).mode & 0o777;
let umask: number;
let access: string | undefined;

beforeAll(() => {
  // A common umask, which leaves new files readable by others: the modes must not depend on it.
  umask = process.umask(0o022);
  access = process.env[fileAccessEnv];
  delete process.env[fileAccessEnv];
});
afterAll(() => {
  process.umask(umask);
  if (access === undefined) delete process.env[fileAccessEnv];
  else process.env[fileAccessEnv] = access;
});

/** Opens each of calltape's SQLite files for writing in a new nested folder, writes to it, and answers the paths it made. */
function openEveryDatabase(root: string): string[] {
  const cassette = join(root, 'recordings', 'team', 'cassette.sqlite');
  openCassette(cassette, 'write').close();
  const runs = join(root, 'state', 'runs.sqlite');
  const runsDb = openRunsDatabase(runs);
  runsDb.exec('CREATE TABLE IF NOT EXISTS probe (x); INSERT INTO probe VALUES (1)');
  const ratings = join(root, 'ratings', 'ratings.sqlite');
  const ratingStore = new RatingStore(ratings);
  ratingStore.put('golden', { run: 'c#s', rating: 'pass', at: '2026-12-03T00:00:00Z' });
  const shadow = join(root, 'shadow', 'shadow.sqlite');
  const shadowStore = new ShadowStore(shadow, { maxRows: null, maxAgeMs: null });
  // Looked at while open: -wal and -shm exist only while a connection holds the database.
  const files = [cassette, runs, ratings, shadow].flatMap((file) =>
    [file, `${file}-wal`, `${file}-shm`].filter((path) => existsSync(path)),
  );
  const modes = files.map((file) => `${file} ${modeOf(file).toString(8)}`);
  runsDb.close();
  ratingStore.close();
  shadowStore.close();
  return modes;
}

describe('files calltape creates', () => {
  it('are 0600, SQLite -wal and -shm included, and the folders it creates 0700', () => {
    const root = temporaryFolder();
    const modes = openEveryDatabase(root);
    expect(modes.some((line) => line.includes('-wal '))).toBe(true);
    expect(modes).toEqual(modes.map((line) => line.replace(/ \d+$/, ' 600')));
    writeBlob(join(root, 'blobs', 'deep', 'shard-1.json'), {} as ShardBlob);
    expect(modeOf(join(root, 'blobs', 'deep', 'shard-1.json'))).toBe(0o600);
    for (const folder of [
      'recordings',
      'recordings/team',
      'state',
      'ratings',
      'shadow',
      'blobs',
      'blobs/deep',
    ])
      expect(modeOf(join(root, folder)), folder).toBe(0o700);
  });

  it('keep the mode of a folder that already existed', () => {
    const root = temporaryFolder();
    mkdirSync(join(root, 'shared'), { mode: 0o755 });
    writeBlob(join(root, 'shared', 'blob.json'), {} as ShardBlob);
    expect(modeOf(join(root, 'shared'))).toBe(0o755);
    expect(modeOf(join(root, 'shared', 'blob.json'))).toBe(0o600);
  });

  it('follow the umask when fileAccess is umask', () => {
    process.env[fileAccessEnv] = 'umask';
    try {
      const root = temporaryFolder();
      openCassette(join(root, 'recordings', 'c.sqlite'), 'write').close();
      writeBlob(join(root, 'blobs', 'b.json'), {} as ShardBlob);
      expect(modeOf(join(root, 'recordings', 'c.sqlite'))).toBe(0o644);
      expect(modeOf(join(root, 'blobs', 'b.json'))).toBe(0o644);
      expect(modeOf(join(root, 'blobs'))).toBe(0o755);
    } finally {
      delete process.env[fileAccessEnv];
    }
  });

  it('follow the fileAccess configuration field, which CALLTAPE_FILE_ACCESS sets too', () => {
    try {
      const root = temporaryFolder();
      expect(loadConfig({}, { CALLTAPE_FILE_ACCESS: 'umask' }, root).config.fileAccess).toBe(
        'umask',
      );
      writeBlob(join(root, 'blob.json'), {} as ShardBlob);
      expect(modeOf(join(root, 'blob.json'))).toBe(0o644);
      expect(loadConfig({}, {}, root).config.fileAccess).toBe('private');
      writeBlob(join(root, 'private.json'), {} as ShardBlob);
      expect(modeOf(join(root, 'private.json'))).toBe(0o600);
    } finally {
      delete process.env[fileAccessEnv];
    }
  });
});
