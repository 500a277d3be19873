/**
 * `node dist/bench/store-batch-memory.js`: the peak RSS of a process whose store worker is handed
 * batches of large answers (3 batches of 60 answers of 1 MB each, one message per batch as the
 * proxy posts them). What the worker holds while it writes a batch is what this shows: built one
 * exchange at a time, a batch costs about one answer's decoded copies, not sixty. Every round is
 * checked to be in the cassette afterwards. Flags: `--batches N`, `--size MB`, `--per-batch N`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeOrderedId } from '../src/cassette/time-ordered-id.js';
import { startWorkerRecorder } from '../src/cassette/worker-recorder.js';
import { loadConfig } from '../src/config/load-config.js';
import { capturedChatRound } from '../test/support/captured-round.js';
import { numberFlag } from './bench-flags.js';
import { countRows } from './count-rows.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const batches = numberFlag('--batches', 3);
const perBatch = numberFlag('--per-batch', 60);
const sizeMb = numberFlag('--size', 1);
const { config } = loadConfig({ config: join(root, 'proxy.config.json') }, {}, root);
const encoder = new TextEncoder();
const answer = encoder.encode(
  JSON.stringify({
    id: 'chatcmpl-large',
    object: 'chat.completion',
    created: 1764604800,
    model: 'gpt-4o',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'word '.repeat((sizeMb * 1024 * 1024) / 5) },
        finish_reason: 'stop',
      },
    ],
  }),
);
const request = encoder.encode(
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'write at length' }] }),
);
const peakRssMb = (): number =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

const folder = mkdtempSync(join(tmpdir(), 'calltape-batch-memory-'));
const cassette = join(folder, 'large.sqlite');
const errors: string[] = [];
const recorder = startWorkerRecorder(config, { error: (message) => errors.push(message) });
await recorder.open(cassette);
const before = peakRssMb();
for (let batch = 0; batch < batches; batch++) {
  for (let index = 0; index < perBatch; index++) {
    recorder.record(
      cassette,
      capturedChatRound({
        id: timeOrderedId(),
        requestHeaders: {
          authorization: 'Bearer sk-proj-BENCHbench0123456789abcdefABCDEF0123456789',
        },
        requestBody: request,
        responseBody: answer,
        startedAt: Date.now(),
      }),
    );
  }
  // Released and opened again: the worker has written the batch before it answers the open.
  recorder.release(cassette);
  await recorder.open(cassette);
}
await recorder.close();
const stored = countRows(cassette);
rmSync(folder, { recursive: true, force: true });
process.stdout.write(
  `store worker, ${batches} batches of ${perBatch} answers of ${sizeMb} MB: peak RSS ${peakRssMb().toFixed(0)} MB (${before.toFixed(0)} MB before the first batch), stored ${stored} of ${batches * perBatch}\n`,
);
if (errors.length > 0) process.stderr.write(`${errors.slice(0, 3).join('\n')}\n`);
process.exit(stored === batches * perBatch ? 0 : 1);
