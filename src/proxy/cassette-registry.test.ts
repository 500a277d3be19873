import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { effectiveRules } from '../cassette/match-key.js';
import { SqliteStore } from '../cassette/sqlite/sqlite-store.js';
import { startWorkerRecorder } from '../cassette/worker-recorder.js';
import { defaultConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import { CassetteRegistry } from './cassette-registry.js';

describe('CassetteRegistry.ready', () => {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-registry-'));
  const recorder = startWorkerRecorder(defaultConfig, { error: () => undefined });
  const lines: string[] = [];
  const registry = new CassetteRegistry(
    recorder,
    folder,
    createLogger('info', (line) => lines.push(line)),
    effectiveRules(defaultConfig.match),
    { pinned: join(folder, 'a.sqlite'), reservedPaths: [], maxOpen: 2 },
  );
  afterAll(async () => {
    registry.close();
    await recorder.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers at once in passthrough, and in record mode only once the store worker has the cassette open', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => join(folder, `${name}.sqlite`)) as [
      string,
      string,
      string,
    ];
    expect(registry.ready(b, 'passthrough')).toEqual({ path: b, reader: undefined });
    expect(registry.ready(b, 'record')).toBeUndefined();
    await registry.get(b, 'record');
    expect(registry.ready(b, 'record')).toEqual({ path: b, reader: undefined });
    // Auto needs its reader and the store worker's: it always goes through `open`.
    expect(registry.ready(b, 'auto')).toBeUndefined();
    // Past maxOpen the least recently used cassette is released: it must be opened again.
    await registry.get(a, 'record');
    await registry.get(c, 'record');
    expect(registry.ready(b, 'record')).toBeUndefined();
    expect(registry.ready(c, 'record')).toEqual({ path: c, reader: undefined });
    expect(registry.openCount).toBe(2);
  });

  it('answers at once in replay and diff once the cassette is open for reading, without asking the file system again', async () => {
    const d = join(folder, 'd.sqlite');
    const writer = new SqliteStore(d);
    writer.close();
    expect(registry.ready(d, 'replay')).toBeUndefined();
    const opened = await registry.get(d, 'replay');
    // The open reader keeps serving even once the file is gone (it holds the file open).
    rmSync(d);
    expect(registry.ready(d, 'replay')).toEqual(opened);
    expect(registry.ready(d, 'diff')?.reader).toBe(opened.reader);
  });

  it('never reports a cassette ready whose opening failed', async () => {
    const outside = join(tmpdir(), 'calltape-registry-outside.sqlite');
    await expect(registry.get(outside, 'record')).rejects.toThrow(/refused/);
    expect(registry.ready(outside, 'record')).toBeUndefined();
  });
});
