import diff from 'microdiff';
import { jsonPathText } from '../cassette/describe-mismatch.js';
import type {
  ArgumentChange,
  BehaviourDiff,
  CaseBehaviourChange,
  Moved,
  PassRateMove,
} from '../report/run-baseline.js';
import { argumentText } from '../report/behaviour-diff-text.js';
import { compareRuns, type ComparedSide } from './compare-runs.js';

/** What a case result must carry to be compared with its baseline (a `CaseResult` does). */
export interface DiffedCase {
  readonly run: string;
  readonly test_id: string;
  readonly status: string;
  readonly score: number;
  readonly problems: readonly string[];
  readonly calls: readonly { readonly name: string; readonly arguments: string }[];
  readonly rounds: number;
  /** A repeated case's samples (repeats): how many passed of how many; absent when the case ran once. */
  readonly samples?: { readonly passed: number; readonly total: number };
}

/** Compares this run's case results with a baseline's: verdicts, calls, arguments, steps, rounds, pass rates. */
export function behaviourDiff(
  baseline: readonly DiffedCase[],
  current: readonly DiffedCase[],
): BehaviourDiff {
  const several = new Set([...baseline, ...current].map((item) => item.run)).size > 1;
  const name = (item: DiffedCase): string =>
    several ? `${item.run}/${item.test_id}` : item.test_id;
  const before = new Map(baseline.map((item) => [caseKey(item), item]));
  const after = new Map(current.map((item) => [caseKey(item), item]));
  const runs = [...new Set(current.map((item) => item.run))];
  const flips = new Map<string, CaseBehaviourChange['verdict']>();
  const pass_rates: PassRateMove[] = [];
  for (const run of runs) {
    const side = (items: readonly DiffedCase[], label: string): ComparedSide => ({
      label,
      cases: items
        .filter((item) => item.run === run)
        .map((item) => ({ ...item, problem: item.problems[0] ?? null })),
    });
    const baselineSide = side(baseline, 'baseline');
    if (baselineSide.cases.length === 0) continue;
    const comparison = compareRuns(baselineSide, side(current, 'run'));
    pass_rates.push({ run, before: comparison.pass_rate.a, after: comparison.pass_rate.b });
    const note = (kind: 'regression' | 'fix' | 'unreliable', changes: typeof comparison.fixes) => {
      for (const change of changes)
        flips.set(caseKey({ run, test_id: change.test_id }), {
          before: change.from,
          after: change.to,
          kind,
        });
    };
    note('regression', comparison.regressions);
    note('fix', comparison.fixes);
    note('unreliable', comparison.unreliable);
  }
  const cases: CaseBehaviourChange[] = [];
  let unchanged = 0;
  for (const item of current) {
    const previous = before.get(caseKey(item));
    if (!previous) continue;
    const verdict =
      flips.get(caseKey(item)) ??
      (previous.status === item.status
        ? null
        : { before: previous.status, after: item.status, kind: 'other' as const });
    const change = caseChange(previous, item, verdict);
    if (change) cases.push(change);
    else unchanged++;
  }
  return {
    cases,
    unchanged,
    pass_rates,
    only_in_baseline: baseline.filter((item) => !after.has(caseKey(item))).map(name),
    only_in_run: current.filter((item) => !before.has(caseKey(item))).map(name),
  };
}

/** A case's pass rate: its samples' share when it has several, else 1 when it passed, 0 when not. */
export function casePassRate(item: Pick<DiffedCase, 'status' | 'samples'>): number {
  if (item.samples && item.samples.total > 0) return item.samples.passed / item.samples.total;
  return item.status === 'pass' ? 1 : 0;
}

function caseChange(
  previous: DiffedCase,
  item: DiffedCase,
  verdict: CaseBehaviourChange['verdict'],
): CaseBehaviourChange | undefined {
  const calls = compareCalls(previous.calls, item.calls);
  const moved = (left: number, right: number): Moved | null =>
    Math.abs(left - right) > 1e-9 ? { before: left, after: right } : null;
  const steps = moved(previous.calls.length, item.calls.length);
  const rounds = moved(previous.rounds, item.rounds);
  const rate = moved(casePassRate(previous), casePassRate(item));
  // The difference that best explains the case: what the model did differently, then the verdict.
  const first = [
    calls.removed[0] !== undefined && `call removed: ${calls.removed[0]}`,
    calls.added[0] !== undefined && `call added: ${calls.added[0]}`,
    calls.arguments[0] && argumentText(calls.arguments[0]),
    steps && `steps ${steps.before} → ${steps.after}`,
    rounds && `rounds ${rounds.before} → ${rounds.after}`,
    verdict &&
      `verdict ${verdict.before} → ${verdict.after}${item.problems[0] ? `: ${item.problems[0]}` : ''}`,
    rate && `pass rate ${rate.before} → ${rate.after}`,
  ].find((text): text is string => typeof text === 'string');
  if (first === undefined) return undefined;
  return {
    run: item.run,
    test_id: item.test_id,
    verdict,
    calls_added: calls.added,
    calls_removed: calls.removed,
    arguments: calls.arguments,
    steps,
    rounds,
    pass_rate: rate,
    first_difference: first,
  };
}

/**
 * Pairs calls by tool: the n-th call of a tool in this run with the baseline's n-th call of it.
 * Calls beyond the other side's count are added or removed; paired calls compare their arguments.
 */
function compareCalls(
  before: DiffedCase['calls'],
  after: DiffedCase['calls'],
): { added: string[]; removed: string[]; arguments: ArgumentChange[] } {
  const byTool = (calls: DiffedCase['calls']): Map<string, string[]> => {
    const grouped = new Map<string, string[]>();
    for (const call of calls)
      grouped.set(call.name, [...(grouped.get(call.name) ?? []), call.arguments]);
    return grouped;
  };
  const previous = byTool(before);
  const next = byTool(after);
  const added: string[] = [];
  const removed: string[] = [];
  const changes: ArgumentChange[] = [];
  for (const [tool, calls] of next) {
    const earlier = previous.get(tool) ?? [];
    calls.forEach((text, occurrence) => {
      const old = earlier[occurrence];
      if (old === undefined) added.push(tool);
      else changes.push(...argumentChanges(tool, occurrence, old, text));
    });
  }
  for (const [tool, calls] of previous) {
    const later = next.get(tool)?.length ?? 0;
    for (let at = later; at < calls.length; at++) removed.push(tool);
  }
  return { added, removed, arguments: changes };
}

function argumentChanges(
  tool: string,
  occurrence: number,
  before: string,
  after: string,
): ArgumentChange[] {
  if (before === after) return [];
  const left = parseObject(before);
  const right = parseObject(after);
  if (left === undefined || right === undefined)
    return [
      { tool, occurrence, path: '', before: JSON.stringify(before), after: JSON.stringify(after) },
    ];
  return diff(left, right).map((difference) => ({
    tool,
    occurrence,
    path: jsonPathText(difference.path),
    before: difference.type === 'CREATE' ? null : (JSON.stringify(difference.oldValue) ?? null),
    after: difference.type === 'REMOVE' ? null : (JSON.stringify(difference.value) ?? null),
  }));
}

/** Arguments as an object or array microdiff can walk; undefined for text that is not one. */
function parseObject(text: string): Record<string, unknown> | unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function caseKey(item: { readonly run: string; readonly test_id: string }): string {
  return `${item.run}\u0000${item.test_id}`;
}
