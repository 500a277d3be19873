import { cpus } from 'node:os';
import { dirname, relative } from 'node:path';
import pLimit from 'p-limit';
import type { CassetteUsage } from '../cassette/cassette-usage.js';
import type { Config, ProxyMode } from '../config/config.js';
import { CalltapeError } from '../errors.js';
import type { Logger } from '../logger.js';
import { settleCassette } from './settle-cassette.js';
import { aggregateRepeats } from './aggregate-repeats.js';
import { sampleSession } from '../cassette/sample-session.js';
import { startProxy } from '../proxy/proxy-server.js';
import { placeholderKeys } from '../proxy/placeholder-key.js';
import type { JudgeRunners } from '../scoring/trajectory/types.js';
import type { Interaction } from '../trace/trace.js';
import type { CaseResult } from '../scoring/case-result.js';
import { createCodeJudges } from '../judges/code-judges.js';
import { defaultCodePolicy, type CodePolicy } from '../user-code/code-policy.js';
import { noCodeRefusal, requireModulesInProject } from './case-code-modules.js';
import { draftListing } from './draft-listing.js';
import { conversing } from './conversation/start-agent-conversation.js';
import { scoreConversation } from '../scoring/score-conversation.js';
import type { SuiteRunResult } from '../report/run-result.js';
import { evaluateGates, requireEvaluableGates, summariseConfiguration } from './gates.js';
import { suiteRecordCommand } from './suite-record-command.js';
import { collectReplayMisses, type SessionMiss } from './collect-replay-misses.js';
import { createLlmJudge } from '../judges/llm-judge.js';
import { scoreCase } from '../scoring/score-case.js';
import type { RunConfig, Suite } from '../scoring/suite-types.js';
import { shellCommand } from '../shell-command.js';
import { driveCase, notRun, setName } from './drive-case.js';
import { defaultAgentConcurrency, startModuleAgents, type ModuleAgents } from './module-agents.js';
import { codeRefusal } from '../user-code/code-policy.js';

export interface SuiteRunOptions {
  /** The proxy configuration to start from (upstream, timeouts, redaction, match rules). */
  readonly config: Config;
  readonly mode: Extract<ProxyMode, 'record' | 'replay' | 'auto'>;
  readonly concurrency?: number;
  /** The scoring clock (placeholders such as {{TODAY}}). */
  readonly now: Date;
  readonly logger: Logger;
  /** Pass rates of a baseline run by run name, for max_regression. */
  readonly baseline?: ReadonlyMap<string, number>;
  /** Called as each case finishes (for progress). */
  readonly onCase?: (result: CaseResult) => void;
  /** The API key direct mode and LLM judges send upstream (record, auto); never stored. */
  readonly apiKey?: string;
  /** Told, once the proxy has closed, what the run did with its cassette (for the runs database). */
  readonly onCassetteUse?: (usages: readonly CassetteUsage[]) => void;
  /** Told each scored case with its session's round trips (OpenTelemetry export). */
  readonly spans?:
    { case(result: CaseResult, interactions: readonly Interaction[]): void } | undefined;
  /** The `--cassette` that replaced the suite's cassette, kept in the record commands hints suggest. */
  readonly cassetteFlag?: string;
  /** What modules named in the suite and its mock files may do (`--no-code`, `--allow-code-outside-project`); default: run, inside the project only. */
  readonly code?: CodePolicy;
}

export type { SuiteRunResult } from '../report/run-result.js';

/**
 * Runs a suite: starts a proxy in this process (cassette, mode and mocks from the suite), drives
 * every case of every run configuration — directly or by spawning the agent — under its own
 * session, scores what the proxy saw of that session, and evaluates the gates. Results keep
 * suite order whatever the concurrency.
 */
export async function runSuite(suite: Suite, options: SuiteRunOptions): Promise<SuiteRunResult> {
  const started = Date.now();
  if (suite.cases.length === 0 && suite.drafts.length > 0)
    throw new CalltapeError(
      'CONFIG_INVALID',
      `${suite.file}: cases: all ${suite.drafts.length} case(s) are drafts (review: pending or rejected); a draft never runs or counts in a gate`,
      `Review them first: calltape review ${shellCommand([relative(process.cwd(), suite.file) || suite.file])} --accept <ids>.`,
    );
  requireEvaluableGates(
    suite.file,
    suite.gates,
    suite.runs.map((run) => run.name),
    options.baseline,
  );
  if (!suite.agent) {
    const modelless = suite.runs.find((run) => run.model === undefined);
    if (modelless)
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${suite.file}: model: direct mode (no agent) needs a model${suite.runs.length > 1 ? ` (run "${modelless.name}" has none)` : ''}`,
      );
  }
  suite.cases.forEach((testCase, index) => {
    // A simulated user holds a conversation as scripted turns do.
    const conversational = testCase.turns !== undefined || testCase.user !== undefined;
    if (conversational && suite.agent && !conversing(suite.agent))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${suite.file}: case "${testCase.test_id}" (#${index + 1}): turns: this agent takes one prompt per run, so it cannot hold a conversation; give the suite's agent a conversation protocol (agent.protocol: jsonl, or agent.url for an agent you serve: docs/reference/conversation-protocol.md) or run the case in direct mode (no agent)`,
      );
    if (conversational) return;
    if (testCase.prompt === undefined && !(testCase.messages && !suite.agent))
      throw new CalltapeError(
        'CONFIG_INVALID',
        `${suite.file}: case "${testCase.test_id}" (#${index + 1}): prompt: every case needs a prompt${suite.agent ? " (it is the agent's input)" : ' (or messages)'}`,
      );
  });

  const code = options.code ?? defaultCodePolicy;
  const modules = requireModulesInProject(suite, code);
  const caseMocks = [...new Set(suite.cases.flatMap((testCase) => testCase.mocks ?? []))];
  const suiteSets = suite.mocks.map(setName);
  const sessions = new Map<string, Interaction[]>();
  const misses = new Map<string, SessionMiss[]>();
  const recordCommand = suiteRecordCommand([suite.file], options.cassetteFlag);
  const proxy = await startProxy(
    {
      ...options.config,
      host: '127.0.0.1',
      port: 0,
      mode: options.mode,
      cassette: suite.cassette,
      mocks: {
        ...options.config.mocks,
        files: [...new Set([...suite.mocks, ...caseMocks])],
        active: suiteSets,
      },
    },
    {
      logger: options.logger,
      code,
      recordCommand,
      observer: {
        interaction: (interaction) => {
          const own = sessions.get(interaction.sessionId);
          if (own) own.push(interaction);
          else sessions.set(interaction.sessionId, [interaction]);
        },
        miss: (session, message, cause) => {
          if (session === undefined) return;
          misses.set(session, [...(misses.get(session) ?? []), { message, cause }]);
        },
      },
    },
  );
  // Agents' SDKs refuse to start without a key even when the cassette answers (replay, auto).
  const apiKey =
    options.apiKey ??
    (options.mode === 'replay' || options.mode === 'auto' ? placeholderKeys.openai : '');
  const codeJudges = createCodeJudges({ baseDir: dirname(suite.file), code });
  const concurrency = Math.max(
    1,
    options.concurrency ??
      (suite.agent && options.mode !== 'replay' ? defaultAgentConcurrency() : cpus().length),
  );
  const limit = pLimit(concurrency);
  let moduleAgents: ModuleAgents | undefined;
  // Judges per run configuration: the LLM judge asks the run's model unless a rubric names another.
  const judgesFor = (run: RunConfig): JudgeRunners => ({
    code: codeJudges.run,
    llm: createLlmJudge({
      baseUrl: proxy.baseUrl,
      model: run.model ?? 'gpt-4o-mini',
      ...(apiKey ? { apiKey } : {}),
    }),
  });
  const judges = new Map(suite.runs.map((run) => [run, judgesFor(run)]));
  let scored: readonly CaseResult[] | undefined;
  try {
    if (suite.agent?.kind === 'module') {
      const refused = codeRefusal(suite.agent.path, dirname(suite.file), code);
      if (refused !== undefined)
        throw new CalltapeError('CONFIG_INVALID', `${suite.file}: agent.module: ${refused}`);
      moduleAgents = startModuleAgents(suite.agent, suite.file, concurrency);
      await moduleAgents.check();
    }
    const repeats = suite.repeats ?? 1;
    const jobs = suite.runs.flatMap((run) =>
      suite.cases.flatMap((testCase, index) =>
        Array.from({ length: repeats }, (_, sample) => ({ run, testCase, index, sample })),
      ),
    );
    const samples = await Promise.all(
      jobs.map(({ run, testCase, index, sample }) =>
        limit(async () => {
          const session = sampleSession(
            suite.runs.length > 1 ? `${run.name}/${testCase.test_id}` : testCase.test_id,
            sample + 1,
          );
          // Under --no-code a case that needs a module does not run at all: an error naming each module.
          const refused = code.run ? undefined : noCodeRefusal(modules.get(testCase) ?? []);
          const outcome =
            refused === undefined
              ? await driveCase(suite, run, testCase, session, proxy.url, {
                  apiKey,
                  sessions,
                  misses,
                  recordCommand,
                  judges: judges.get(run) ?? judgesFor(run),
                  moduleAgents,
                })
              : notRun(session, refused);
          const scoring = { now: options.now, judges: judges.get(run) ?? judgesFor(run) };
          const result = outcome.conversation
            ? await scoreConversation(
                suite,
                run,
                testCase,
                index,
                { ...outcome, conversation: outcome.conversation },
                scoring,
              )
            : await scoreCase(suite, run, testCase, index, outcome, scoring);
          options.onCase?.(result);
          options.spans?.case(result, sessions.get(session) ?? []);
          return result;
        }),
      ),
    );
    // Promise.all keeps job order, so a case's samples are side by side, sample 1 first.
    const results = Array.from({ length: samples.length / repeats }, (_, at) =>
      aggregateRepeats(samples.slice(at * repeats, (at + 1) * repeats), suite.min_pass_rate ?? 1),
    );
    scored = results;
    const runs = suite.runs.map((run) =>
      summariseConfiguration(
        results,
        run.name,
        run.model ?? null,
        run.price ?? null,
        suite.gates.unreliable,
      ),
    );
    const gates = evaluateGates(
      suite.gates,
      results,
      suite.runs.map((run) => run.name),
      options.baseline,
    );
    return {
      suite: suite.name,
      file: suite.file,
      mode: options.mode,
      drive: suite.agent ? 'agent' : 'direct',
      cassette: suite.cassette,
      started_at: new Date(started).toISOString(),
      duration_ms: Date.now() - started,
      runs,
      cases: results,
      gates,
      passed:
        gates.every((gate) => gate.pass) && results.every((result) => result.status !== 'error'),
      ...draftListing(suite),
      ...collectReplayMisses(results, misses, suite.runs.length > 1, recordCommand),
    };
  } finally {
    await moduleAgents?.close();
    await codeJudges.close();
    await proxy.close();
    settleCassette(suite, options, {
      started,
      scored,
      usages: proxy.cassetteUsage(),
    });
  }
}
