/**
 * `node dist/bench/store-bench.js`: what the store worker costs per recorded round, alone. The
 * real recorder (`startWorkerRecorder`, the proxy's configuration) is fed captured rounds shaped
 * like the proxy bench's traffic — an OpenAI SDK request with a credential, a whole answer or a
 * 20-event stream — at 500 rounds/s (10 every 20 ms, batched by the recorder as in the proxy), and the store worker
 * thread's CPU time is read from /proc per round (contention on a shared machine moves it far
 * less than wall-clock time). Every round is checked to be in the cassette afterwards.
 * Flags: `--quick`, `--rounds N` (measured rounds per case, default 3000), `--only whole` or
 * `--only stream` (one case, to compare builds faster).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CapturedRound } from '../src/cassette/captured-round.js';
import { startWorkerRecorder } from '../src/cassette/worker-recorder.js';
import { loadConfig } from '../src/config/load-config.js';
import { numberFlag, quick, textFlag } from './bench-flags.js';
import { feedRounds, reportCases, sleep } from './bench-rounds.js';
import { countRows } from './count-rows.js';
import { newThreadsCpu, ownThreads } from './process-cpu.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const measured = numberFlag('--rounds', quick ? 500 : 3000);
const warmUp = quick ? 500 : 3000;
const only = textFlag('--only');
if (only !== undefined && only !== 'whole' && only !== 'stream')
  throw new Error(`--only takes whole or stream, not ${only}`);
const { config } = loadConfig({ config: join(root, 'proxy.config.json') }, {}, root);

async function measure(stream: boolean): Promise<{ workerUs: number; lost: number }> {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-store-bench-'));
  const cassette = join(folder, 'bench.sqlite');
  const threadsBefore = ownThreads();
  const errors: string[] = [];
  const recorder = startWorkerRecorder(config, { error: (message) => errors.push(message) });
  await recorder.open(cassette);
  const workerCpu = newThreadsCpu(threadsBefore);
  const settle = async (expected: number): Promise<void> => {
    while (countRows(cassette) + errors.length < expected) await sleep(50);
  };
  const record = (captured: CapturedRound): void => recorder.record(cassette, captured);
  await feedRounds(record, stream, warmUp);
  await settle(warmUp);
  const before = workerCpu();
  await feedRounds(record, stream, measured);
  await settle(warmUp + measured);
  const workerUs = workerCpu() - before;
  await recorder.close();
  const lost = warmUp + measured - countRows(cassette);
  rmSync(folder, { recursive: true, force: true });
  if (errors.length > 0) process.stderr.write(`${errors.slice(0, 3).join('\n')}\n`);
  return { workerUs: workerUs / measured, lost };
}

await reportCases(
  `store worker, ${measured} rounds per case at 500/s, 10 every 20 ms (after ${warmUp} to warm up)`,
  'lost',
  measure,
  only === undefined ? [false, true] : [only === 'stream'],
);
