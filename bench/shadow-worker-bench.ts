/**
 * `node dist/bench/shadow-worker-bench.js`: what the shadow-scoring worker costs per scored
 * round, alone. The real queue and worker (`ShadowQueue`, the proxy's defaults) score captured
 * rounds shaped like the proxy bench's traffic against the proxy bench's policies — a whole
 * answer or a 21-chunk stream, each round its own session — fed at 500 rounds/s (10 every 20 ms;
 * `--per-tick N` sends N every 2N ms, so the worker gets bigger batches at the same rate). The
 * worker thread's CPU time is read from /proc over the measured rounds, until every round has its
 * call verdict and, once idle, its session verdict; then the shadow database is checked to hold
 * a call row per round. Flags: `--quick`, `--rounds N` (measured rounds per case, default 3000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPolicies } from '../src/live/load-policies.js';
import { ShadowQueue } from '../src/live/shadow-queue.js';
import { numberFlag, quick } from './bench-flags.js';
import { writeBenchPolicies } from './bench-policies.js';
import { feedRounds, reportCases, sleep } from './bench-rounds.js';
import { countRows } from './count-rows.js';
import { newThreadsCpu, ownThreads } from './process-cpu.js';

const measured = numberFlag('--rounds', quick ? 500 : 3000);
const perTick = numberFlag('--per-tick', 10);
const warmUp = quick ? 500 : 3000;

async function measure(stream: boolean): Promise<{ workerUs: number; lost: number }> {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-shadow-worker-bench-'));
  const policiesFile = writeBenchPolicies(folder);
  const database = join(folder, 'shadow.sqlite');
  const errors: string[] = [];
  const scored = { calls: 0, sessions: 0 };
  const threadsBefore = ownThreads();
  const queue = new ShadowQueue(
    {
      database,
      retention: { maxRows: 1_000_000, maxAgeMs: 7 * 24 * 3_600_000 },
      redactHeaders: [],
      bodyPatterns: [],
      builtinPatterns: true,
      maxDecodedBytes: 64 * 1024 * 1024,
      policies: loadPolicies(policiesFile, folder),
    },
    10_000,
    {
      calls: (verdicts) => (scored.calls += verdicts.length),
      sessions: (verdicts) => (scored.sessions += verdicts.length),
      error: (message) => errors.push(message),
    },
  );
  const workerCpu = newThreadsCpu(threadsBefore);
  // Every round makes one call (one verdict) and is a session of its own (one more, once idle).
  const settle = async (expected: number): Promise<void> => {
    while ((scored.calls < expected || scored.sessions < expected) && errors.length === 0)
      await sleep(50);
  };
  const offer = queue.offer.bind(queue);
  await feedRounds(offer, stream, warmUp, perTick);
  await settle(warmUp);
  const before = workerCpu();
  await feedRounds(offer, stream, measured, perTick);
  await settle(warmUp + measured);
  const workerUs = workerCpu() - before;
  await queue.close(10_000);
  const lost =
    warmUp +
    measured -
    Math.min(countRows(database, 'SELECT count(*) FROM calls'), scored.calls, scored.sessions);
  rmSync(folder, { recursive: true, force: true });
  if (errors.length > 0) process.stderr.write(`${errors.slice(0, 3).join('\n')}\n`);
  return { workerUs: workerUs / measured, lost: Math.max(lost, errors.length) };
}

await reportCases(
  `shadow-scoring worker, ${measured} rounds per case at 500/s, ${perTick} every ${perTick * 2} ms (after ${warmUp} to warm up)`,
  'unscored',
  measure,
);
