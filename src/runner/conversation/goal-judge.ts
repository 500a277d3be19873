import type { SuiteCase } from '../../scoring/suite-types.js';
import type { JudgeRunners, JudgeSpec, JudgeVerdict } from '../../scoring/trajectory/types.js';
import { buildTrajectories } from '../../trace/build-trajectories.js';
import type { Interaction } from '../../trace/trace.js';
import type { Trajectory } from '../../trace/trajectory.js';

/**
 * A simulated user's `stop_when` as a function of the conversation so far: the judge (code or
 * LLM, src/judges) reads the trajectory of the case's session up to now. A judge that cannot
 * answer rejects, and the case is an error, as for any judge.
 */
export function goalJudge(
  spec: JudgeSpec,
  testCase: SuiteCase,
  interactions: () => readonly Interaction[],
  judges: JudgeRunners,
): () => Promise<JudgeVerdict> {
  return async () => {
    const [trajectory] = buildTrajectories(interactions());
    const sofar: Trajectory = trajectory ?? {
      sessionId: '',
      turns: [],
      calls: [],
      finalText: '',
      counts: { rounds: 0, calls: 0, byTool: {} },
    };
    if ('code' in spec) {
      if (!judges.code) throw new Error('stop_when: no code judge runner');
      return judges.code(spec, sofar, testCase);
    }
    if (!judges.llm) throw new Error('stop_when: no LLM judge runner');
    return judges.llm(spec, sofar, testCase);
  };
}
