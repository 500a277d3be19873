/**
 * `node dist/bench/fleet-bench.js`: how fast the shadow store takes scored calls into
 * PostgreSQL beside SQLite on this machine. Batches of 512 call verdicts (one in ten with a
 * failure, the scoring thread's batch size) are written by `ShadowStore`, as the scoring thread
 * writes them; calls per second are printed for each. PostgreSQL is the database in
 * CALLTAPE_BENCH_POSTGRES_URL (or CALLTAPE_TEST_POSTGRES_URL, as scripts/with-postgres.sh sets);
 * without one that line is skipped. The response path never writes to either: these writes
 * happen on the scoring thread. Flags: `--quick`, `--calls N` (default 20000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ShadowStore } from '../src/live/shadow-store.js';
import type { CallVerdict } from '../src/live/verdict-types.js';
import { numberFlag, quick } from './bench-flags.js';

const total = numberFlag('--calls', quick ? 2_000 : 20_000);
const batch = 512;

function verdict(index: number): CallVerdict {
  const failed = index % 10 === 0;
  return {
    at: Date.now(),
    interactionId: `i-${index}`,
    sessionId: `s-${index % 200}`,
    wire: 'openai-chat',
    model: 'gpt-4o-mini',
    tool: `tool_${index % 7}`,
    callIndex: 0,
    arguments: '{"account_type":"savings","currency":"EUR","amount":125.5}',
    mocked: false,
    verdict: failed ? 'fail' : 'pass',
    score: failed ? 0.5 : 1,
    evaluated: ['schema', 'arguments'],
    failures: failed
      ? [
          {
            policy: 'arguments',
            reason: 'value_mismatch',
            path: 'currency',
            expected: 'USD',
            actual: 'EUR',
            message: 'currency differs',
          },
        ]
      : [],
  };
}

/** Calls per second written into the store at `location`. */
function measure(location: string): number {
  const store = new ShadowStore(location, { maxRows: 1_000_000, maxAgeMs: 7 * 86_400_000 });
  try {
    // Warm-up: connections, prepared statements, the page cache.
    store.write(
      Array.from({ length: batch }, (_, index) => verdict(index)),
      [],
    );
    const started = process.hrtime.bigint();
    for (let written = 0; written < total; written += batch)
      store.write(
        Array.from({ length: Math.min(batch, total - written) }, (_, index) =>
          verdict(written + index),
        ),
        [],
      );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return total / seconds;
  } finally {
    store.close();
  }
}

const folder = mkdtempSync(join(tmpdir(), 'calltape-fleet-bench-'));
try {
  const sqlite = measure(join(folder, 'shadow.sqlite'));
  process.stdout.write(
    `fleet bench: ${total} scored calls in batches of ${batch}\n  SQLite      ${Math.round(sqlite)} calls/s\n`,
  );
  const postgres =
    process.env['CALLTAPE_BENCH_POSTGRES_URL'] || process.env['CALLTAPE_TEST_POSTGRES_URL'];
  if (postgres) {
    const rate = measure(postgres);
    process.stdout.write(
      `  PostgreSQL  ${Math.round(rate)} calls/s (${(rate / sqlite).toFixed(2)}× SQLite)\n`,
    );
  } else
    process.stdout.write(
      '  PostgreSQL  skipped: no CALLTAPE_BENCH_POSTGRES_URL (run under scripts/with-postgres.sh)\n',
    );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
