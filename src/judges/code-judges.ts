import type { CodeJudgeSpec, JudgeVerdict, TrajectoryCase } from '../scoring/trajectory/types.js';
import type { Trajectory } from '../trace/trajectory.js';
import type { CodePolicy } from '../user-code/code-policy.js';
import { createUserCode } from '../user-code/user-code.js';

export interface CodeJudges {
  /** Runs `judge(trajectory, testCase)` of the spec's module; rejects on a throw, a timeout or a module that cannot load. */
  readonly run: (
    spec: CodeJudgeSpec,
    trajectory: Trajectory,
    testCase: TrajectoryCase,
  ) => Promise<JudgeVerdict>;
  /** Stops the judge thread. */
  close(): Promise<void>;
}

/**
 * Runs code judges on a worker thread (see `createUserCode`): paths resolve against `baseDir`
 * (the suite file's folder), `judge` or the default export is called, and a judge that does not
 * answer within its timeout (default 5 s) has its thread terminated. A module `code` refuses
 * (default: one outside the project root) is never loaded.
 */
export function createCodeJudges(options: {
  readonly baseDir: string;
  readonly defaultTimeoutMs?: number;
  readonly code?: CodePolicy;
}): CodeJudges {
  const code = createUserCode(options.baseDir, options.code);
  return {
    run: async (spec, trajectory, testCase) =>
      (await code.call({
        module: spec.code,
        exports: ['judge', 'default'],
        signature: 'judge(trajectory, testCase)',
        args: [trajectory, testCase],
        timeoutMs: spec.timeout_ms ?? options.defaultTimeoutMs ?? 5000,
      })) as JudgeVerdict,
    close: () => code.close(),
  };
}
