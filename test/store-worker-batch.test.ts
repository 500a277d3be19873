/**
 * How the store worker accounts for a batch it cannot write: its rounds are written per cassette,
 * in runs built before each insert, so a failing insert must report every round of its run lost
 * and must not cost another cassette its rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorkerRecorder } from '../src/cassette/worker-recorder.js';
import { defaultConfig } from '../src/config/config.js';
import type { ProviderId } from '../src/trace/trace.js';
import { capturedChatRound } from './support/captured-round.js';
import { recordedRows } from './support/recorded-rows.js';

describe('a batch the store worker cannot write', () => {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-store-batch-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reports each of its rounds lost, once, and still stores the other cassettes of the batch', async () => {
    const errors: string[] = [];
    const recorder = startWorkerRecorder(defaultConfig, {
      error: (message) => errors.push(message),
    });
    const failing = join(folder, 'failing.sqlite');
    const fine = join(folder, 'fine.sqlite');
    await recorder.open(failing);
    await recorder.open(fine);
    // One batch (no wait between the rounds): the second `a1` breaks the unique id, so the whole
    // transaction of `failing` rolls back; the round no adapter reads is skipped, not lost.
    recorder.record(failing, capturedChatRound({ id: 'a1' }));
    recorder.record(fine, capturedChatRound({ id: 'b1' }));
    recorder.record(failing, {
      ...capturedChatRound({ id: 'a2' }),
      adapterId: 'no-such-wire' as ProviderId,
    });
    recorder.record(failing, capturedChatRound({ id: 'a1' }));
    recorder.record(fine, capturedChatRound({ id: 'b2' }));
    await recorder.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^could not store 2 interaction\(s\): .*failing\.sqlite: UNIQUE/);
    expect(recordedRows(failing)).toEqual([]);
    expect(recordedRows(fine).map((row) => (row as { id: string }).id)).toEqual(['b1', 'b2']);
  });

  it('reports a round lost when its cassette cannot be opened, and writes the rest', async () => {
    const errors: string[] = [];
    const recorder = startWorkerRecorder(defaultConfig, {
      error: (message) => errors.push(message),
    });
    const fine = join(folder, 'fine-too.sqlite');
    await recorder.open(fine);
    // A folder where the cassette file should be: SQLite cannot open it.
    recorder.record(folder, capturedChatRound({ id: 'x1' }));
    recorder.record(fine, capturedChatRound({ id: 'y1' }));
    await recorder.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^could not store 1 interaction\(s\): .*calltape-store-batch-[^/]*: POST \/v1/,
    );
    expect(recordedRows(fine)).toHaveLength(1);
  });

  it('refuses to open a cassette once closed, rather than start a worker nobody stops (regression)', async () => {
    const recorder = startWorkerRecorder(defaultConfig, { error: () => undefined });
    await recorder.close();
    await expect(recorder.open(join(folder, 'late.sqlite'))).rejects.toThrow(
      'not opened, the store is closing',
    );
  });
});
