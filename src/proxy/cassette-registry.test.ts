import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { effectiveRules } from '../cassette/match-key.js';
import { startWorkerRecorder } from '../cassette/worker-recorder.js';
import { defaultConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import { capturedChatRound } from '../../test/support/captured-round.js';
import { CassetteRegistry } from './cassette-registry.js';

describe('CassetteRegistry.ready', () => {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-registry-'));
  const recorder = startWorkerRecorder(defaultConfig, () => undefined);
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
    // Replay, auto and diff need a reader: they always go through `open`.
    expect(registry.ready(b, 'auto')).toBeUndefined();
    // Past maxOpen the least recently used cassette is released: it must be opened again.
    await registry.get(a, 'record');
    await registry.get(c, 'record');
    expect(registry.ready(b, 'record')).toBeUndefined();
    expect(registry.ready(c, 'record')).toEqual({ path: c, reader: undefined });
    expect(registry.openCount).toBe(2);
  });

  it('never reports a cassette ready whose opening failed', async () => {
    const outside = join(tmpdir(), 'calltape-registry-outside.sqlite');
    await expect(registry.get(outside, 'record')).rejects.toThrow(/refused/);
    expect(registry.ready(outside, 'record')).toBeUndefined();
  });
});

describe('auto mode logs re-keyed recordings on every request (regression)', () => {
  it('announces re-keying once per opening of the cassette, however many requests await it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'calltape-registry-rekey-'));
    const cassette = join(folder, 'weather.sqlite');
    // Recorded under the default rules, then opened under rules that key requests differently.
    const writer = startWorkerRecorder(defaultConfig, () => undefined);
    await writer.open(cassette);
    writer.record(cassette, capturedChatRound());
    await writer.close();
    const config = { ...defaultConfig, match: { ...defaultConfig.match, ignorePaths: ['model'] } };
    const recorder = startWorkerRecorder(config, () => undefined);
    const lines: string[] = [];
    const registry = new CassetteRegistry(
      recorder,
      folder,
      createLogger('info', (line) => lines.push(line)),
      effectiveRules(config.match),
      { pinned: cassette, reservedPaths: [], maxOpen: 2 },
    );
    try {
      await Promise.all([registry.get(cassette, 'auto'), registry.get(cassette, 'auto')]);
      await registry.get(cassette, 'auto');
      expect(lines.filter((line) => line.includes('re-keyed 1 recording(s)'))).toHaveLength(1);
    } finally {
      registry.close();
      await recorder.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
