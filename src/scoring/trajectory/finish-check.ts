import type { JsonValue } from '../../trace/trace.js';
import type { CheckName, CheckResult, TrajectoryReason } from './types.js';

/** A check's result in its stable form: pass when nothing was wrong, reasons sorted, score rounded. */
export function finishCheck(check: CheckName, reasons: ReadonlySet<TrajectoryReason>, score: number, problems: readonly string[], details: { readonly [key: string]: JsonValue }): CheckResult {
  const pass = reasons.size === 0;
  return { check, status: pass ? 'pass' : 'fail', score: Math.round(score * 1e9) / 1e9, reasons: [...reasons].sort(), message: problems[0] ?? (pass ? null : reasons.values().next().value ?? null), details };
}
