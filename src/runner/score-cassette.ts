import { draftListing } from './draft-listing.js';
import { aggregateRepeats } from './aggregate-repeats.js';
import { sampleSession } from '../cassette/sample-session.js';
import { dirname } from 'node:path';
import { readInteractions } from '../cassette/sqlite/read-interactions.js';
import { mcpResultsByCall } from '../mcp/mcp-call-results.js';
import { readMcpToolCalls } from '../mcp/mcp-store.js';
import { recordedUnaskedSteps } from '../mcp/recorded-unasked-steps.js';
import { buildTrajectories } from '../trace/build-trajectories.js';
import type { Interaction } from '../trace/trace.js';
import type { CaseResult } from '../scoring/case-result.js';
import { createCodeJudges } from '../judges/code-judges.js';
import { defaultCodePolicy, type CodePolicy } from '../user-code/code-policy.js';
import { noCodeRefusal, requireModulesInProject } from './case-code-modules.js';
import { evaluateGates, requireEvaluableGates, summariseConfiguration } from './gates.js';
import type { SuiteRunResult } from './run-suite.js';
import { scoreCase } from '../scoring/score-case.js';
import type { Suite } from '../scoring/suite-types.js';

/**
 * `calltape score`: re-scores recorded traffic against a (new or edited) suite without running
 * anything. Each case is found by its session in the cassette (`<test_id>`, or
 * `<run>/<test_id>` with several runs: the sessions `calltape test` records under; with
 * `repeats`, each sample by its own, aggregated as the test run does). A case with no session in
 * the cassette is an error. LLM judges are not asked (nothing is sent anywhere):
 * a rubric case reports a judge error.
 */
export async function scoreCassette(
  suite: Suite,
  cassette: string,
  options: {
    readonly now: Date;
    readonly baseline?: ReadonlyMap<string, number>;
    /** What code judges may do (`--no-code`, `--allow-code-outside-project`). */
    readonly code?: CodePolicy;
  },
): Promise<SuiteRunResult> {
  const started = Date.now();
  requireEvaluableGates(
    suite.file,
    suite.gates,
    suite.runs.map((run) => run.name),
    options.baseline,
  );
  const sessions = new Map<string, Interaction[]>();
  for (const interaction of readInteractions(cassette)) {
    const own = sessions.get(interaction.sessionId);
    if (own) own.push(interaction);
    else sessions.set(interaction.sessionId, [interaction]);
  }
  // What MCP servers answered, so step-status checks see a tool's failure even where the agent's message has no error flag.
  const mcpCalls = readMcpToolCalls(cassette);
  const code = options.code ?? defaultCodePolicy;
  // Offline nothing runs a mock: only code judges count.
  const judgeModules = requireModulesInProject(suite, code, ['judge']);
  const codeJudges = createCodeJudges({ baseDir: dirname(suite.file), code });
  try {
    const results: CaseResult[] = [];
    const repeats = suite.repeats ?? 1;
    for (const run of suite.runs) {
      for (const [index, testCase] of suite.cases.entries()) {
        const samples: CaseResult[] = [];
        for (let sample = 1; sample <= repeats; sample++) {
          const session = sampleSession(
            suite.runs.length > 1 ? `${run.name}/${testCase.test_id}` : testCase.test_id,
            sample,
          );
          const interactions = sessions.get(session) ?? [];
          const [trajectory] = buildTrajectories(
            interactions,
            mcpResultsByCall(interactions, mcpCalls),
          );
          const error =
            interactions.length === 0
              ? `no recorded session "${session}" in ${cassette}`
              : code.run
                ? null
                : (noCodeRefusal(judgeModules.get(testCase) ?? []) ?? null);
          samples.push(
            await scoreCase(
              suite,
              run,
              testCase,
              index,
              {
                session,
                trajectory,
                // The session's MCP calls no model call asked for are steps of the run, as in shadow scoring.
                stepsTrajectory:
                  trajectory && recordedUnaskedSteps(trajectory, interactions, mcpCalls),
                interactions,
                error,
                durationMs: 0,
                agent: null,
                problems: [],
              },
              { now: options.now, judges: { code: codeJudges.run } },
            ),
          );
        }
        results.push(aggregateRepeats(samples, suite.min_pass_rate ?? 1));
      }
    }
    const gates = evaluateGates(
      suite.gates,
      results,
      suite.runs.map((run) => run.name),
      options.baseline,
    );
    return {
      suite: suite.name,
      file: suite.file,
      mode: 'score',
      drive: 'cassette',
      cassette,
      started_at: new Date(started).toISOString(),
      duration_ms: Date.now() - started,
      runs: suite.runs.map((run) =>
        summariseConfiguration(
          results,
          run.name,
          run.model ?? null,
          run.price ?? null,
          suite.gates.unreliable,
        ),
      ),
      cases: results,
      gates,
      passed:
        gates.every((gate) => gate.pass) && results.every((result) => result.status !== 'error'),
      ...draftListing(suite),
    };
  } finally {
    await codeJudges.close();
  }
}
