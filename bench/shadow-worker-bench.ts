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
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadPolicies } from '../src/live/load-policies.js';
import { ShadowQueue } from '../src/live/shadow-queue.js';
import { threadCpuUs } from './process-cpu.js';
import { feedRounds, reportCases, sleep } from './bench-rounds.js';

const quick = process.argv.includes('--quick');
const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const measured = flag('--rounds', quick ? 500 : 3000);
const perTick = flag('--per-tick', 10);
const warmUp = quick ? 500 : 3000;

/** The proxy bench's policies: a schema check, argument rules, a forbidden tool and a step budget. */
const policiesYaml = `sessions: { idle_timeout: 1s }
policies:
  - { id: schema, kind: schema }
  - { id: weather-args, kind: arguments, tool: get_weather, arguments: { city: { pattern: '[A-Z][a-z]+' }, unit: { any_of: [celsius, fahrenheit] } } }
  - { id: never-delete, kind: never, tools: [delete_account] }
  - { id: budget, kind: steps, max_steps: 20, max_repeats: 3 }
`;

function storedCalls(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM calls').pluck().get() as number;
  } finally {
    db.close();
  }
}

async function measure(stream: boolean): Promise<{ workerUs: number; lost: number }> {
  const folder = mkdtempSync(join(tmpdir(), 'calltape-shadow-worker-bench-'));
  const policiesFile = join(folder, 'policies.yaml');
  writeFileSync(policiesFile, policiesYaml);
  const database = join(folder, 'shadow.sqlite');
  const errors: string[] = [];
  const scored = { calls: 0, sessions: 0 };
  const threadsBefore = new Set(readdirSync('/proc/self/task'));
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
  const workerThreads = readdirSync('/proc/self/task').filter((tid) => !threadsBefore.has(tid));
  const workerCpu = (): number =>
    workerThreads.reduce((sum, tid) => sum + (threadCpuUs('self', tid) ?? 0), 0);
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
  const lost = warmUp + measured - Math.min(storedCalls(database), scored.calls, scored.sessions);
  rmSync(folder, { recursive: true, force: true });
  if (errors.length > 0) process.stderr.write(`${errors.slice(0, 3).join('\n')}\n`);
  return { workerUs: workerUs / measured, lost: Math.max(lost, errors.length) };
}

await reportCases(
  `shadow-scoring worker, ${measured} rounds per case at 500/s, ${perTick} every ${perTick * 2} ms (after ${warmUp} to warm up)`,
  'unscored',
  measure,
);
