import type { TrajectoryCase } from '../scoring/trajectory/types.js';
import type { Trajectory } from '../trace/trajectory.js';

export interface CodeJudgeRequest {
  readonly id: number;
  /** Absolute path of the judge module. */
  readonly module: string;
  readonly trajectory: Trajectory;
  readonly testCase: TrajectoryCase;
}

export type CodeJudgeResponse = { readonly id: number; readonly ok: true; readonly verdict: unknown } | { readonly id: number; readonly ok: false; readonly error: string };
