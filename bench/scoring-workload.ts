/**
 * The BFCL-shaped scoring workload (bench/workloads/scoring-workload.jsonl.gz, see its README):
 * 8,441 inputs scored per category by three paths side by side in one run — the reference
 * scorer (every call prepared from the raw case), `scoreCall` seeing each case for the first
 * time (the case checked, then scored by the reference scorer: see first-sight.ts), and
 * `scoreCall` reusing its compiled cases (what a suite scored again, or live traffic against fixed
 * cases, costs).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { scoreCall } from '../src/scoring/score-call.js';
import { scoreCallReference } from '../src/scoring/score-call-reference.js';
import type { ActualCall, ScoreOptions, ScoreResult, TestCase } from '../src/scoring/types.js';
import type { JsonSchema } from '../src/trace/trace.js';

interface WorkloadInput {
  readonly category: string;
  readonly test_case: TestCase;
  readonly actual_calls: readonly ActualCall[];
  readonly schemas: { readonly [tool: string]: JsonSchema };
}

/** Calls/s over the rounds of one path: the machine is shared, so the spread is reported, not one figure. */
export interface Spread {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

/** One category's rates in calls/s, and how many inputs each path scored correct (they must agree). */
export interface WorkloadRow {
  readonly category: string;
  readonly inputs: number;
  readonly reference: Spread;
  /** Only reading each input's expected and sent arguments once, scoring nothing: what any scorer must at least do. */
  readonly read: Spread;
  readonly cold: Spread;
  readonly warm: Spread;
  readonly correct: number;
  readonly agree: boolean;
}

/** BFCL's own AST checker on the same inputs, on this class of machine (bench/workloads/README.md). */
export const bfclCallsPerSecond = 44_000;

export function readWorkload(path: string): WorkloadInput[] {
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as WorkloadInput);
}

type Scorer = (
  testCase: TestCase,
  calls: readonly ActualCall[],
  options: ScoreOptions,
) => ScoreResult;

const now = new Date('2026-11-30T00:00:00Z');

/** Every leaf of a JSON value visited once (a number, so the work cannot be optimised away). */
function visit(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 1;
  let sum = 0;
  if (Array.isArray(value)) for (const item of value) sum += visit(item);
  else for (const key in value) sum += visit((value as Record<string, unknown>)[key]);
  return sum;
}

/** The read floor as a scorer: each expected and sent argument read once, the tool's schema looked up. */
const readOnly: Scorer = (testCase, calls, options) => {
  let sum = 0;
  for (const call of calls) {
    sum += visit(call.arguments) + (options.schemas?.[call.name] === undefined ? 0 : 1);
  }
  for (const expected of testCase.expected_calls ?? [testCase])
    sum += visit(expected.arguments) + visit(expected.rules);
  return { is_correct: sum > 0 } as ScoreResult;
};

/**
 * One timed pass over the inputs: calls per second of the process's CPU time, and how many scored
 * correct. CPU time, not the wall clock: on a machine shared by several builds the wall clock also
 * counts the time other processes held the core (GC helper threads count in, so this errs slow).
 */
function pass(
  inputs: readonly WorkloadInput[],
  scorer: Scorer,
): { perSecond: number; correct: number } {
  const options = inputs.map((input) => ({ schemas: input.schemas, now }));
  let correct = 0;
  const began = process.cpuUsage();
  for (let index = 0; index < inputs.length; index++) {
    const input = inputs[index] as WorkloadInput;
    if (scorer(input.test_case, input.actual_calls, options[index] as ScoreOptions).is_correct)
      correct++;
  }
  const used = process.cpuUsage(began);
  return { perSecond: inputs.length / ((used.user + used.system) / 1e6), correct };
}

function spread(rates: number[]): Spread {
  const sorted = [...rates].sort((left, right) => left - right);
  return {
    min: Math.round(sorted[0] ?? 0),
    median: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
    max: Math.round(sorted.at(-1) ?? 0),
  };
}

/**
 * Fresh copies of the inputs whose schemas are new too: each top-level schema gets a `$comment`
 * naming the round (an annotation, which changes no verdict), so a round sees every schema text
 * for the first time, as a one-shot `calltape score` or import does, instead of finding the
 * validators the earlier rounds built.
 */
export function firstSeen(slice: readonly WorkloadInput[], round: number): WorkloadInput[] {
  return (structuredClone(slice) as WorkloadInput[]).map((input) => ({
    ...input,
    schemas: Object.fromEntries(
      Object.entries(input.schemas).map(([tool, schema]) => [
        tool,
        { ...(schema as object), $comment: `first seen in round ${round}` },
      ]),
    ),
  }));
}

/**
 * Rounds of the three paths interleaved (so load on the shared machine falls on all of them
 * alike), after one untimed warm-up round; cold rounds score fresh copies of the inputs, copied
 * outside the timed loop, so only checking, compiling and scoring are measured.
 */
export function benchWorkload(path: string, rounds: number): WorkloadRow[] {
  const inputs = readWorkload(path);
  const categories = [...new Set(inputs.map((input) => input.category))].sort();
  const rows: WorkloadRow[] = [];
  for (const category of [...categories, 'all']) {
    const slice =
      category === 'all' ? inputs : inputs.filter((input) => input.category === category);
    const rates = {
      read: [] as number[],
      reference: [] as number[],
      cold: [] as number[],
      warm: [] as number[],
    };
    const correct = { reference: 0, cold: 0, warm: 0 };
    const warmInputs = structuredClone(slice) as WorkloadInput[];
    // A case is compiled when it is seen a second time (first-sight.ts): round 0 compiles, the timed rounds reuse.
    pass(warmInputs, scoreCall);
    for (let round = 0; round <= rounds; round++) {
      const read = pass(slice, readOnly);
      const reference = pass(slice, scoreCallReference);
      const cold = pass(firstSeen(slice, round), scoreCall);
      const warm = pass(warmInputs, scoreCall);
      correct.reference = reference.correct;
      correct.cold = cold.correct;
      correct.warm = warm.correct;
      if (round === 0) continue;
      rates.read.push(read.perSecond);
      rates.reference.push(reference.perSecond);
      rates.cold.push(cold.perSecond);
      rates.warm.push(warm.perSecond);
    }
    const row: WorkloadRow = {
      category,
      inputs: slice.length,
      read: spread(rates.read),
      reference: spread(rates.reference),
      cold: spread(rates.cold),
      warm: spread(rates.warm),
      correct: correct.warm,
      agree: correct.reference === correct.cold && correct.cold === correct.warm,
    };
    rows.push(row);
    process.stderr.write(
      `workload ${category}: reference ${row.reference.median}, compiled cold ${row.cold.median}, warm ${row.warm.median} calls/s (medians)\n`,
    );
  }
  return rows;
}
