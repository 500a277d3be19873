import type { JsonValue } from '../../trace/trace.js';
import type { CheckName, CheckResult, TrajectoryReason } from './types.js';

/**
 * A check's result in its stable form: pass when nothing was wrong, reasons sorted, score
 * rounded. With a `threshold` (a calls check's `pass_threshold`), a partial score that reaches it
 * passes: what fell short moves to `details.forgiven` and the check reports no reasons.
 */
export function finishCheck(
  check: CheckName,
  reasons: ReadonlySet<TrajectoryReason>,
  score: number,
  problems: readonly string[],
  details: { readonly [key: string]: JsonValue },
  threshold?: number,
): CheckResult {
  const rounded = Math.round(score * 1e9) / 1e9;
  if (threshold !== undefined && reasons.size > 0 && rounded >= threshold)
    return {
      check,
      status: 'pass',
      score: rounded,
      reasons: [],
      message: null,
      details: { ...details, forgiven: [...reasons].sort(), forgiven_problems: [...problems] },
    };
  const pass = reasons.size === 0;
  return {
    check,
    status: pass ? 'pass' : 'fail',
    score: rounded,
    reasons: [...reasons].sort(),
    message: problems[0] ?? (pass ? null : (reasons.values().next().value ?? null)),
    details,
  };
}

/** Limits checked one by one: each that fails adds its reason and problem; the score is the fraction that held. */
export function limitTally(): {
  readonly limit: (reason: TrajectoryReason, ok: boolean, problem: string) => void;
  readonly finish: (
    check: CheckName,
    details: { readonly [key: string]: JsonValue },
  ) => CheckResult;
} {
  const reasons = new Set<TrajectoryReason>();
  const problems: string[] = [];
  let checked = 0;
  let held = 0;
  return {
    limit(reason, ok, problem) {
      checked++;
      if (ok) held++;
      else {
        reasons.add(reason);
        problems.push(problem);
      }
    },
    finish: (check, details) =>
      finishCheck(check, reasons, checked === 0 ? 1 : held / checked, problems, details),
  };
}
