/**
 * The BFCL-shaped scoring workload (bench/workloads/scoring-workload.jsonl.gz, see its README):
 * 8,441 inputs scored per category by three paths side by side in one run — the reference
 * scorer (today's path: every call prepared from the raw case), the compiled scorer seeing each
 * case for the first time (validation and compilation included), and the compiled scorer reusing
 * its compiled cases (what a suite scored again, or live traffic against fixed cases, costs).
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

/** One category's rates in calls/s, and how many inputs each path scored correct (they must agree). */
export interface WorkloadRow {
  readonly category: string;
  readonly inputs: number;
  readonly referencePerSecond: number;
  readonly coldPerSecond: number;
  readonly warmPerSecond: number;
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

/** Best of `passes` (the first pays for JIT warm-up); `fresh` gives each pass its own copies of the inputs. */
function rate(
  inputs: readonly WorkloadInput[],
  scorer: Scorer,
  fresh: boolean,
  passes: number,
): { perSecond: number; correct: number } {
  const now = new Date('2026-11-30T00:00:00Z');
  let best = Number.POSITIVE_INFINITY;
  let correct = 0;
  for (let pass = 0; pass < passes; pass++) {
    // Copies are made outside the timed loop: only scoring (and, cold, compiling) is measured.
    const round = fresh ? (structuredClone(inputs) as WorkloadInput[]) : inputs;
    const options = round.map((input) => ({ schemas: input.schemas, now }));
    const began = performance.now();
    correct = 0;
    for (let index = 0; index < round.length; index++) {
      const input = round[index] as WorkloadInput;
      if (scorer(input.test_case, input.actual_calls, options[index] as ScoreOptions).is_correct)
        correct++;
    }
    best = Math.min(best, performance.now() - began);
  }
  return { perSecond: Math.round((inputs.length / best) * 1000), correct };
}

export function benchWorkload(path: string, passes: number): WorkloadRow[] {
  const inputs = readWorkload(path);
  const categories = [...new Set(inputs.map((input) => input.category))].sort();
  const rows: WorkloadRow[] = [];
  for (const category of [...categories, 'all']) {
    const slice =
      category === 'all' ? inputs : inputs.filter((input) => input.category === category);
    const reference = rate(slice, scoreCallReference, false, passes);
    const cold = rate(slice, scoreCall, true, passes);
    const warm = rate(slice, scoreCall, false, passes);
    rows.push({
      category,
      inputs: slice.length,
      referencePerSecond: reference.perSecond,
      coldPerSecond: cold.perSecond,
      warmPerSecond: warm.perSecond,
      correct: warm.correct,
      agree: reference.correct === cold.correct && cold.correct === warm.correct,
    });
    process.stderr.write(
      `workload ${category}: reference ${reference.perSecond}, compiled cold ${cold.perSecond}, warm ${warm.perSecond} calls/s\n`,
    );
  }
  return rows;
}
