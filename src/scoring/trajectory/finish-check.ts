import type { JsonValue } from '../../trace/trace.js';
import type { CheckName, CheckResult, TrajectoryReason } from './types.js';

/**
 * A check's result in its stable form: pass when nothing was wrong, reasons sorted, score
 * rounded. With a `threshold` (a calls check's `pass_threshold`), a partial score that reaches it
 * passes: what fell short moves to `details.forgiven` and the check reports no reasons.
 */
export function finishCheck(check: CheckName, reasons: ReadonlySet<TrajectoryReason>, score: number, problems: readonly string[], details: { readonly [key: string]: JsonValue }, threshold?: number): CheckResult {
  const rounded = Math.round(score * 1e9) / 1e9;
  if (threshold !== undefined && reasons.size > 0 && rounded >= threshold) return { check, status: 'pass', score: rounded, reasons: [], message: null, details: { ...details, forgiven: [...reasons].sort(), forgiven_problems: [...problems] } };
  const pass = reasons.size === 0;
  return { check, status: pass ? 'pass' : 'fail', score: rounded, reasons: [...reasons].sort(), message: problems[0] ?? (pass ? null : reasons.values().next().value ?? null), details };
}
