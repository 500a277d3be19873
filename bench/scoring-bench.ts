/**
 * Scoring benchmark (part of `npm run bench`): calls scored per second on one core for a
 * generated suite of 100k cases per mix, beside a plain JSON.stringify comparison (the floor:
 * what any scorer must at least do). Writes bench/results/scoring-<timestamp>.json and
 * docs/benchmarks-scoring.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quick } from './bench-flags.js';
import {
  benchWorkload,
  bfclCallsPerSecond,
  type Spread,
  type WorkloadRow,
} from './scoring-workload.js';
import { scoreCall } from '../src/scoring/score-call.js';
import type { ActualCall, TestCase } from '../src/scoring/types.js';
import { scoreTrajectory } from '../src/scoring/trajectory/score-trajectory.js';
import type { TrajectoryCase } from '../src/scoring/trajectory/types.js';
import type { JsonValue } from '../src/trace/trace.js';
import type { Trajectory, TrajectoryCall } from '../src/trace/trajectory.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Other work on the machine slows every path alike: ratios within one run hold, absolute rates do not.
const loadAtStart = loadavg()[0] ?? 0;
const size = quick ? 10_000 : 100_000;
const cities = ['Paris', 'Tokyo', 'Zürich', 'Lagos', 'Lima', 'Oslo', 'Cairo', 'Quito'];

type Generated = { testCase: TestCase; calls: ActualCall[] };
const mixes: Record<string, (i: number) => Generated> = {
  exact: (i) => {
    const args = {
      recipient_id: `USR-${10_000 + i}`,
      amount: (i % 500) + 0.5,
      currency: 'EUR',
      memo: `invoice ${i}`,
    };
    return {
      testCase: { expected_tool: 'execute_transfer', arguments: args },
      calls: [
        {
          name: 'execute_transfer',
          arguments: JSON.stringify(i % 10 === 0 ? { ...args, amount: 1 } : args),
        },
      ],
    };
  },
  // The same expectations answered in another form (numeric strings, padding): no shortcut applies, every value is normalised and matched.
  'exact-coerced': (i) => {
    const args = {
      recipient_id: `USR-${10_000 + i}`,
      amount: (i % 500) + 0.5,
      currency: 'EUR',
      memo: `invoice ${i}`,
    };
    const sent = {
      memo: ` invoice ${i}`,
      amount: i % 10 === 0 ? '1' : `${args.amount.toFixed(2)}`,
      currency: 'EUR',
      recipient_id: args.recipient_id,
    };
    return {
      testCase: { expected_tool: 'execute_transfer', arguments: args },
      calls: [{ name: 'execute_transfer', arguments: JSON.stringify(sent) }],
    };
  },
  fuzzy: (i) => {
    const name = `${cities[i % cities.length]} Customer ${i}`;
    return {
      testCase: {
        expected_tool: 'lookup',
        arguments: { name, city: cities[i % cities.length] as string },
        rules: {
          name: { matching_strategy: 'fuzzy', threshold: 0.85 },
          city: { matching_strategy: 'ignore_case' },
        },
      },
      calls: [
        {
          name: 'lookup',
          arguments: JSON.stringify({
            name: i % 3 === 0 ? name.replace('Customer', 'Custmer') : name,
            city: (cities[i % cities.length] as string).toUpperCase(),
          }),
        },
      ],
    };
  },
  nested: (i) => {
    const order = {
      customer: {
        id: `C-${i}`,
        address: { city: cities[i % cities.length] as string, zip: `${1000 + (i % 9000)}` },
      },
      items: [
        { sku: `sku-${i}`, qty: 1 + (i % 3) },
        { sku: `sku-${i + 1}`, qty: 1 },
      ],
    };
    return {
      testCase: {
        expected_tool: 'create_order',
        arguments: order,
        rules: {
          'items[].sku': { matching_strategy: 'ignore_case' },
          'customer.address.city': { matching_strategy: 'ignore_case' },
        },
      },
      calls: [{ name: 'create_order', arguments: JSON.stringify(order) }],
    };
  },
  parallel: (i) => {
    const expected = cities.slice(0, 3).map((city) => ({
      expected_tool: 'get_weather',
      arguments: { city, day: `2026-12-${10 + (i % 18)}` },
    }));
    return {
      testCase: { expected_calls: expected },
      calls: [...expected]
        .reverse()
        .map((call) => ({ name: call.expected_tool, arguments: JSON.stringify(call.arguments) })),
    };
  },
};

/** Best of three passes: the first pays for JIT compilation and GC warm-up. */
function measure(run: () => number): { perSecond: number; ms: number; checksum: number } {
  let best = Number.POSITIVE_INFINITY;
  let checksum = 0;
  for (let pass = 0; pass < 3; pass++) {
    const began = performance.now();
    checksum = run();
    best = Math.min(best, performance.now() - began);
  }
  return { perSecond: Math.round((size / best) * 1000), ms: Math.round(best), checksum };
}

const rows: { mix: string; scorePerSecond: number; floorPerSecond: number; correct: number }[] = [];
const only = process.env['BENCH_MIX'];
for (const [mix, generate] of Object.entries(mixes).filter(([name]) => !only || name === only)) {
  const suite = Array.from({ length: size }, (_, i) => generate(i));
  const options = { now: new Date('2026-11-30T00:00:00Z') };
  // Warm up the JIT on a slice first.
  for (const { testCase, calls } of suite.slice(0, 2000)) scoreCall(testCase, calls, options);
  const scored = measure(() => {
    let correct = 0;
    for (const { testCase, calls } of suite)
      if (scoreCall(testCase, calls, options).is_correct) correct++;
    return correct;
  });
  const floor = measure(() =>
    suite.reduce((correct, { testCase, calls }) => {
      const expected = testCase.expected_calls ?? [testCase];
      return (
        correct +
        (expected.every((call, index) => JSON.stringify(call.arguments) === calls[index]?.arguments)
          ? 1
          : 0)
      );
    }, 0),
  );
  rows.push({
    mix,
    scorePerSecond: scored.perSecond,
    floorPerSecond: floor.perSecond,
    correct: scored.checksum,
  });
  process.stderr.write(`${mix}: ${scored.perSecond} calls/s (floor ${floor.perSecond})\n`);
}

// Whole runs: three turns, four calls (two in parallel), scored by every deterministic check.
const trajectoryRows: { checks: string; perSecond: number; passed: number }[] = [];
if (!only || only === 'trajectory') {
  const runs = Array.from({ length: quick ? 2_000 : 20_000 }, (_, i) => {
    const specs: [string, Record<string, JsonValue>][][] = [
      [
        ['search_kb', { query: `refund window ${i % 7}` }],
        ['lookup_order', { order_id: `A-${i}` }],
      ],
      [['issue_refund', { order_id: `A-${i}`, amount: i % 5 === 0 ? '25.00' : '20.00' }]],
      [['send_receipt', { order_id: `A-${i}` }]],
    ];
    return { i, trajectory: benchTrajectory(specs) };
  });
  const testCase = (i: number): TrajectoryCase => ({
    expect: {
      calls: [
        'lookup_order',
        'search_kb',
        { tool: 'issue_refund', arguments: { order_id: `A-${i}`, amount: 20 } },
        'send_receipt',
      ],
      mode: 'ordered',
      unlisted: 'fail',
      before: ['search_kb', 'issue_refund'],
      max_steps: 6,
      max_turns: 4,
      max_repeats: 1,
    },
    never: ['send_email', { tool: 'issue_refund', arguments: { amount: 500 } }],
  });
  const cases = runs.map(({ i }) => testCase(i));
  let best = Number.POSITIVE_INFINITY;
  let passed = 0;
  for (let pass = 0; pass < 3; pass++) {
    const began = performance.now();
    passed = 0;
    for (const [index, { trajectory }] of runs.entries())
      if ((await scoreTrajectory(cases[index] as TrajectoryCase, trajectory)).pass) passed++;
    best = Math.min(best, performance.now() - began);
  }
  trajectoryRows.push({
    checks: 'ordered calls (one with arguments), unlisted, before, steps, never',
    perSecond: Math.round((runs.length / best) * 1000),
    passed,
  });
  process.stderr.write(`trajectory: ${trajectoryRows[0]?.perSecond} runs/s\n`);
}

// The BFCL-shaped workload: the reference path, scoreCall first seen and compiled cases reused, per category.
const workloadRounds = quick ? 3 : 7;
const workloadRows: WorkloadRow[] =
  !only || only === 'workload'
    ? benchWorkload(join(root, 'bench/workloads/scoring-workload.jsonl.gz'), workloadRounds)
    : [];
function spreadText(rates: Spread): string {
  return [rates.min, rates.median, rates.max]
    .map((rate) => rate.toLocaleString('en-US'))
    .join(' / ');
}

const date = new Date().toISOString();
const lines = [
  '# Scoring benchmark',
  '',
  `Generated by \`npm run bench\` on ${date} (one core of ${cpus().length}, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end — compare paths within a run).`,
  `${size.toLocaleString('en-US')} generated cases per mix, scored by \`scoreCall\` (parse, infer or apply the schema, normalise`,
  'both sides, match every argument by its rule, weight, assign parallel calls) beside the floor: one',
  '`JSON.stringify` comparison per expected call, which cannot tell "250.00" from 250, ignore case, or pair',
  'reordered parallel calls.',
  '',
  'Mixes: `exact` — rule-less cases, 90 % answered exactly as expected; `exact-coerced` — the same',
  'expectations answered in another spelling (numeric strings, padded text, other key order), so every',
  'value is normalised; `fuzzy` — a fuzzy and an ignore_case rule; `nested` — objects and arrays with',
  'rules by path (`items[].sku`); `parallel` — three expected calls answered in reverse order.',
  '',
  '| mix | scoreCall calls/s | JSON.stringify floor calls/s | correct by scoreCall |',
  '| --- | --- | --- | --- |',
  ...rows.map(
    (row) =>
      `| ${row.mix} | ${row.scorePerSecond.toLocaleString('en-US')} | ${row.floorPerSecond.toLocaleString('en-US')} | ${row.correct.toLocaleString('en-US')} |`,
  ),
  '',
  'Whole runs scored by `scoreTrajectory` (no judges): three turns, four calls, two of them in one parallel turn.',
  '',
  '| checks | runs/s | passed |',
  '| --- | --- | --- |',
  ...trajectoryRows.map(
    (row) =>
      `| ${row.checks} | ${row.perSecond.toLocaleString('en-US')} | ${row.passed.toLocaleString('en-US')} |`,
  ),
  '',
  '## BFCL-shaped workload',
  '',
  '8,441 scoring inputs made from BFCL v4 (bench/workloads/README.md): parallel calls, alternatives, loose strings, nested',
  `objects, schemas with enums, every call validated against its schema. BFCL's own AST checker scores them at about`,
  `${bfclCallsPerSecond.toLocaleString('en-US')} calls/s on this class of machine. Three paths, interleaved round by round in this run: the reference`,
  'scorer (every call prepared from the raw case, nothing compiled), `scoreCall` seeing each case and its schemas for the first time',
  '(fresh copies whose schema texts are new to the run, as in a one-shot `calltape score`; the case and its schemas',
  'checked, then scored by the reference scorer: compiling pays off only once a case is scored',
  'again, so a case is compiled the second time it is seen), and `scoreCall` reusing its compiled cases',
  `(a suite scored again, shadow scoring against fixed cases). Calls per second of CPU time (one core; the machine is shared, and`,
  `the wall clock would count other processes' turns too) as min / median / max over ${workloadRounds} rounds; ratios are of medians.`,
  'The read floor scores nothing: it only reads every expected and sent argument of each input once and looks up its',
  'schema, which any scorer must at least do (the inputs alone are about 19 MB, so this too waits on memory).',
  '',
  '| category | inputs | read floor | reference | first seen | compiled, reused | reused ÷ reference | reused ÷ BFCL | reused ÷ read floor | correct (all paths agree) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...workloadRows.map(
    (row) =>
      `| ${row.category} | ${row.inputs.toLocaleString('en-US')} | ${spreadText(row.read)} | ${spreadText(row.reference)} | ${spreadText(row.cold)} | ${spreadText(row.warm)} | ${(row.warm.median / row.reference.median).toFixed(2)}× | ${(row.warm.median / bfclCallsPerSecond).toFixed(2)}× | ${(row.warm.median / row.read.median).toFixed(2)}× | ${row.correct.toLocaleString('en-US')} (${row.agree ? 'yes' : 'NO'}) |`,
  ),
  '',
];
// Only full runs of every mix are results; --quick and BENCH_MIX are for profiling.
if (!quick && !only) {
  writeFileSync(
    join(root, `bench/results/scoring-${date.replace(/[:.]/g, '-')}.json`),
    `${JSON.stringify({ date, size, rows, trajectoryRows, workloadRows }, null, 2)}\n`,
  );
  writeFileSync(join(root, 'docs/benchmarks-scoring.md'), lines.join('\n'));
}
process.stdout.write(lines.join('\n'));

function benchTrajectory(
  turns: readonly (readonly [string, Record<string, JsonValue>])[][],
): Trajectory {
  const calls: TrajectoryCall[] = [];
  const byTool: Record<string, number> = {};
  const built = turns.map((specs, turn) => {
    const turnCalls = specs.map(([name, args], index): TrajectoryCall => {
      const call: TrajectoryCall = {
        id: `call_${calls.length}`,
        name,
        argumentsRaw: JSON.stringify(args),
        arguments: { ok: true, value: args },
        complete: true,
        turn,
        index,
        step: calls.length,
        result: undefined,
        mocked: false,
      };
      calls.push(call);
      byTool[name] = (byTool[name] ?? 0) + 1;
      return call;
    });
    return {
      index: turn,
      interactionId: `i${turn}`,
      startedAt: turn,
      status: 'complete' as const,
      text: '',
      finishReason: undefined,
      calls: turnCalls,
    };
  });
  return {
    sessionId: 's',
    turns: built,
    calls,
    finalText: '',
    counts: { rounds: built.length, calls: calls.length, byTool },
  };
}
