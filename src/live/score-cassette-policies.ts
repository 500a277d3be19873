import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readInteractions } from '../cassette/sqlite/read-interactions.js';
import { createCodeJudges } from '../judges/code-judges.js';
import type { CodePolicy } from '../user-code/code-policy.js';
import { isCalltapeSession } from '../trace/build-trajectories.js';
import type { Policies } from './policy-types.js';
import { shadowReport, type ShadowReport } from './shadow-report.js';
import { ShadowScorer } from './shadow-scorer.js';
import { ShadowStore } from './shadow-store.js';

export interface PolicyScoreResult {
  readonly report: ShadowReport;
  readonly failedCalls: number;
  readonly failedSessions: number;
  /** LLM-judge policies left out: nothing is sent anywhere offline. */
  readonly skipped: readonly string[];
}

/**
 * `calltape score --policies`: scores a cassette's recorded traffic against a policies file the
 * way live shadow scoring would, offline — every call, then every session at the end. Code
 * judges run; LLM judges and semantic rules, which need a model, are left out. Results go to
 * `database` (a temporary file when none is given) and are read back as the shadow report.
 */
export async function scoreCassetteWithPolicies(
  policies: Policies,
  cassette: string,
  database: string | undefined,
  code?: CodePolicy,
): Promise<PolicyScoreResult> {
  const offline = policies.policies.filter(
    (policy) => !(policy.kind === 'judge' && policy.rubric !== undefined),
  );
  const skipped = policies.policies
    .filter((policy) => !offline.includes(policy))
    .map((policy) => policy.id);
  const temporary =
    database === undefined ? mkdtempSync(join(tmpdir(), 'calltape-score-')) : undefined;
  const path = database ?? join(temporary as string, 'shadow.sqlite');
  const store = new ShadowStore(path, { maxRows: null, maxAgeMs: null });
  const judges = createCodeJudges({
    baseDir: dirname(policies.file),
    ...(code === undefined ? {} : { code }),
  });
  const scorer = new ShadowScorer(
    { ...policies, policies: offline, maxOpenSessions: Number.MAX_SAFE_INTEGER },
    { codeJudge: judges.run },
  );
  try {
    const interactions = readInteractions(cassette)
      .filter((interaction) => !isCalltapeSession(interaction.sessionId))
      .sort(
        (left, right) =>
          left.timing.startedAt - right.timing.startedAt || (left.id < right.id ? -1 : 1),
      );
    let failedCalls = 0;
    for (const interaction of interactions) {
      const { verdicts } = await scorer.scoreInteraction(
        interaction,
        undefined,
        interaction.timing.startedAt,
      );
      failedCalls += verdicts.filter((verdict) => verdict.verdict === 'fail').length;
      store.write(verdicts, []);
    }
    const sessions = await scorer.endSessions(scorer.takeAll());
    store.write([], sessions);
    store.close();
    const first = interactions[0]?.timing.startedAt ?? 0;
    return {
      report: shadowReport(
        path,
        first,
        Math.max(first, interactions.at(-1)?.timing.startedAt ?? first),
      ),
      failedCalls,
      failedSessions: sessions.filter((session) => session.verdict === 'fail').length,
      skipped,
    };
  } finally {
    await judges.close();
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}
