import type { JudgeSpec, TrajectoryCase } from './types.js';

/**
 * A case's checks with its suite's defaults underneath: `expect` fields the case leaves out come
 * from the suite (the case wins field by field), `never` lists and judges add up — a suite-wide
 * "never send_email" cannot be dropped by one case forgetting it.
 */
export function mergeChecks(suite: TrajectoryCase, testCase: TrajectoryCase): TrajectoryCase {
  const expect =
    suite.expect || testCase.expect ? { ...suite.expect, ...testCase.expect } : undefined;
  const never =
    suite.never || testCase.never ? [...(suite.never ?? []), ...(testCase.never ?? [])] : undefined;
  const judges = [...judgesOf(suite.judge), ...judgesOf(testCase.judge)];
  return {
    ...testCase,
    ...(expect ? { expect } : {}),
    ...(never ? { never } : {}),
    ...(judges.length > 0 ? { judge: judges } : {}),
  };
}

function judgesOf(judge: TrajectoryCase['judge']): readonly JudgeSpec[] {
  if (judge === undefined) return [];
  return Array.isArray(judge) ? (judge as readonly JudgeSpec[]) : [judge as JudgeSpec];
}
